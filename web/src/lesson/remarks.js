// Remarks that compare a preset's claim from the course material with the engine's numbers:
// the material's "The cat sat" example and its self-test question 2 print weights that are off.
// The remark quotes the material and reads the engine's row from the result; it is shown while
// the preset's sentence is on the page. A head opened from the Train panel is named instead.
import { h, setHidden } from '../render/dom.js';
import { vector } from '../render/numbers.js';
import { parseTrainText, weightsEdited } from '../state/schema.js';

// preset id → the query row the remark reads, and its text.
const REMARKS = {
  cat: { row: 1, key: 'remark.cat' },
  selftest: { row: 1, key: 'remark.selftest' },
};

export function renderRemark(node, { result, state, presetId, t }) {
  if (!node) return;
  // A head of the model trained in the Train view: which one, and that these are its own numbers.
  const trained = state?.trainLayer && weightsEdited(state) ? parseTrainText(state.train) : null;
  if (trained) {
    node.hidden = false;
    const params = { layer: state.trainLayer, head: state.head, task: t(`train.task.${trained.task}`) };
    node.replaceChildren(h('p', { text: t('remark.trained', params) }));
    return;
  }
  const remark = REMARKS[presetId];
  if (!remark || result.T <= remark.row) {
    setHidden(node, true);
    if (node.firstChild) node.replaceChildren();
    return;
  }
  const row = result.perHead[0].weights.data.subarray(remark.row * result.Tk, (remark.row + 1) * result.Tk);
  node.hidden = false;
  node.replaceChildren(h('p', { text: t(remark.key, { weights: vector(row), token: `“${result.tokens[remark.row]}”` }) }));
}
