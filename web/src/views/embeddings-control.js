// The editor of X in the settings: its rows follow the sentence and d_model (keeping what the
// reader typed, state/embeddings.js), rows edited in the lesson come in as numbers, and every
// change of what it holds goes to the page's store as the draft's `embeddingsParsed` (the rows
// the editor reads, or its problem), with the control's own field in the same change.
import { carryEmbeddings, rememberRows } from '../state/embeddings.js';
import { parseWholeNumber, tokenize } from '../state/parse.js';
import { createEmbeddingsText } from './embeddings-text.js';
import { THRESHOLDS } from '../render/thresholds.js';

/**
 * deps: { form, nodes: { textarea, labels, pager }, store, t(), perTokenVectors(tokens, dModel)
 * (the engine's rows for tokens with nothing typed: compute/runner.js), limits }
 */
export function createEmbeddingsControl(deps) {
  const { form, nodes, store } = deps;
  // The text box of X: one line per row, a window of rows when X is large.
  const editor = createEmbeddingsText(nodes.textarea, { labels: nodes.labels, pager: nodes.pager, t: deps.t });
  let editorTokens = []; // the tokens the editor's rows belong to
  let remembered = new Map(); // rows typed, by token
  const editing = () => form.querySelector('input[name="embeddings"][value="edit"]').checked;
  const tokensOf = (sentence) => tokenize(sentence, store.draft.tokenization);

  nodes.textarea.addEventListener('scroll', () => {
    nodes.labels.scrollTop = nodes.textarea.scrollTop;
  });

  // After the sentence or d_model changed (or the editor was opened), the editor's rows are refitted
  // to T × d_model, keeping what the reader typed. force: also when the rows do not match the
  // previous tokens (the editor opens).
  function refit(sentence, dModelText, { force = false } = {}) {
    if (!editing()) return;
    const tokens = tokensOf(sentence);
    const dModel = parseWholeNumber(dModelText);
    if (tokens.length === 0 || tokens.length > deps.limits().maxTokens || !dModel || dModel > deps.limits().maxDModel) return;
    const parsed = editor.read();
    if (!parsed.ok) return; // leave the reader's text and its message alone
    const matches = parsed.rows.length === editorTokens.length;
    if (!matches && !force) return;
    const rows = carryEmbeddings({
      tokens,
      dModel,
      previousTokens: editorTokens,
      previousRows: matches ? parsed.rows : [],
      remembered,
      fallback: (needed) =>
        deps.perTokenVectors(
          needed.map((i) => tokens[i]),
          dModel,
        ), // (the rows with nothing to keep)
    });
    if (!rows) return;
    // Opened, or small: its text at once; else, while the reader types elsewhere, after the frame.
    editor.show(rows, tokens, { later: !force && tokens.length * dModel > THRESHOLDS.editorLaterNumbers });
    editorTokens = tokens;
  }

  // The editor's part of a change: its mode and what it holds.
  const part = () => (editing() ? { embeddingsMode: 'edit', embeddingsParsed: editor.read() } : { embeddingsMode: 'token', embeddingsParsed: null });

  return {
    editor,
    /** The form's input event: `field` changed to `value` (a core control); → the store's change. */
    changed(field, value) {
      const draft = store.draft;
      if (field === 'embeddingsText') {
        editor.typed(); // a text typed in the box wins
        const parsed = editor.read();
        if (parsed.ok) {
          editorTokens = tokensOf(draft.sentence);
          rememberRows(remembered, editorTokens, parsed.rows);
        }
      }
      const next = { ...draft, [field]: value };
      if (field === 'sentence' || field === 'dModel') refit(next.sentence, String(next.dModel));
      if (field === 'embeddingsMode') refit(next.sentence, String(next.dModel), { force: true });
      return field === 'embeddingsText' || field === 'embeddingsMode' ? part() : { [field]: value, ...part() };
    },
    /** The tokenization changed: the rows follow. → the editor's part of the change */
    retokenized() {
      refit(store.draft.sentence, String(store.draft.dModel));
      return part();
    },
    /** X edited in the lesson: its rows, or null for one vector per token. */
    setEmbeddings(rows) {
      const radio = form.querySelector(`input[name="embeddings"][value="${rows ? 'edit' : 'token'}"]`);
      const tokens = tokensOf(store.draft.sentence);
      const wasEditing = editing();
      radio.checked = true;
      if (!rows) return store.dispatch(part(), { from: 'lesson' });
      // Opened, or rows that are not all finite (the text box's reading says which entry): as typed.
      if (!wasEditing || !rows.every((row) => row.every(Number.isFinite))) {
        editor.show(rows, tokens, { round: true });
        editorTokens = tokens;
        return store.dispatch(part(), { from: 'lesson' });
      }
      editorTokens = tokens;
      rememberRows(remembered, tokens, editor.show(rows, tokens, { later: true, round: true }));
      store.dispatch({ embeddingsMode: 'edit', embeddingsParsed: { ok: true, rows } }, { from: 'lesson' });
    },
    /** A link or preset opened: its rows (stateEmbeddings: X's exact numbers) or none. */
    load(draft) {
      editorTokens = tokenize(draft.sentence, draft.tokenization);
      remembered = new Map();
      const rows = draft.embeddingsMode === 'edit' ? draft.stateEmbeddings : null;
      editor.show(rows ?? null, editorTokens);
      if (rows) rememberRows(remembered, editorTokens, rows);
    },
  };
}
