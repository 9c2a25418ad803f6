// The engine line (which build and SIMD path ran) and the message box for bad input.
import { h, setHidden } from '../render/dom.js';

// info: engine.info, or null while loading; failure: an Error if loading failed.
export function renderEngineStatus(node, { info, failure }, t) {
  node.classList.toggle('warn', Boolean(failure) || info?.build === 'scalar');
  if (failure) node.textContent = t('engine.failed', { message: failure.message });
  else if (!info) node.textContent = t('engine.loading');
  else node.textContent = t(info.build === 'simd' ? 'engine.simd' : 'engine.scalar', { path: info.simdPath });
  node.dataset.build = info?.build ?? '';
}

// lines: texts to show (empty hides the box).
export function renderMessage(node, lines) {
  if (lines.length || node.firstChild) node.replaceChildren(...lines.map((text) => h('p', { text })));
  setHidden(node, lines.length === 0);
}

// The message box stands under the part of the form that holds the invalid control (the sentence,
// the row of d_model / heads / seed, the embeddings), so that it is seen where the reader is
// typing: below the whole form it is out of sight on a laptop's screen.
// An error of no control (or of one outside the form) goes back under the form. (The settings'
// rows are one level down, in a <details>.)
export function placeMessage(node, form, control) {
  let anchor = form;
  for (let n = control; n && n !== form; n = n.parentElement) {
    if (n.parentElement === form || n.parentElement.matches('details')) {
      anchor = n;
      break;
    }
  }
  if (anchor.nextElementSibling !== node) anchor.after(node);
}
