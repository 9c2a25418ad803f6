// The bar shown while a computation runs in the worker: what is being computed, the fraction
// done, and a Cancel button. The page stays usable meanwhile.
import { h } from '../render/dom.js';

export function createProgressView(node, { onCancel }) {
  const label = h('span', { className: 'progress-label' });
  const bar = h('progress', { max: '1', value: '0' });
  const cancel = h('button', { type: 'button', className: 'progress-cancel' });
  cancel.addEventListener('click', () => onCancel());
  node.replaceChildren(label, bar, cancel);
  node.hidden = true;
  return {
    show(text, cancelText) {
      label.textContent = text;
      cancel.textContent = cancelText;
      bar.value = 0;
      node.hidden = false;
    },
    progress(fraction) {
      bar.value = fraction;
    },
    hide() {
      node.hidden = true;
    },
  };
}
