// The lesson changes X and the √d_k switch through the controls form, as a reader would: it sets
// the control and sends the same 'input' event, so main.js validates, stores and recomputes
// exactly as for typing (and the embeddings editor shows the edited numbers).
import { formatMatrixText } from '../state/parse.js';

/** rows: number[][] to edit X by hand, or null for one vector per token. */
export function setEmbeddingsInForm(form, rows) {
  const textarea = form.querySelector('#embeddings-text');
  if (rows === null) {
    const radio = form.querySelector('input[name="embeddings"][value="token"]');
    radio.checked = true;
    radio.dispatchEvent(new Event('input', { bubbles: true }));
    return;
  }
  form.querySelector('input[name="embeddings"][value="edit"]').checked = true;
  textarea.value = formatMatrixText(rows);
  textarea.dispatchEvent(new Event('input', { bubbles: true }));
}

export function setScaleInForm(form, on) {
  const box = form.querySelector('#scale');
  box.checked = on;
  box.dispatchEvent(new Event('input', { bubbles: true }));
}
