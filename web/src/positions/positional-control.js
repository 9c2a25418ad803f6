// The positional encoding choice: none, or sinusoidal as in "Attention Is All You Need". Radios
// in the page's form (its input event recomputes); texts through data-i18n.
import { h } from '../render/dom.js';
import { POSITIONAL_KINDS } from '../state/schema.js';

export function createPositionalControl() {
  const el = h('fieldset', { className: 'field pe-control', dataset: { field: 'positional' } }, [
    h('legend', { dataset: { i18n: 'heads.pos.legend' } }),
    ...POSITIONAL_KINDS.map((kind) =>
      h('label', {}, [h('input', { type: 'radio', name: 'positional', value: kind }), ' ', h('span', { dataset: { i18n: `heads.pos.${kind}` } })]),
    ),
  ]);
  return {
    el,
    read: () => el.querySelector('input[name="positional"]:checked')?.value ?? 'none',
    write(kind) {
      for (const input of el.querySelectorAll('input[name="positional"]')) input.checked = input.value === kind;
    },
  };
}
