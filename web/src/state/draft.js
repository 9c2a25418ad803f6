// A valid state written back as control values (the inverse of validateDraft).
import { formatMatrixText } from './parse.js';
import { DEFAULTS, LESSON_FIELDS, STRUCTURE_FIELDS } from './schema.js';

const pick = (fields) => (state) => Object.fromEntries(fields.map(({ key }) => [key, state[key] ?? DEFAULTS[key]]));
/** The lesson's fields of a state, as draft values (they are plain values already). */
export const lessonDraftOf = pick(LESSON_FIELDS);
/** The structure's fields of a state, likewise. */
export const structureDraftOf = pick(STRUCTURE_FIELDS);

// The embeddings go as the state's rows (stateEmbeddings: exactly the numbers a link gave, for the
// page's editor) and as the editor's text (4 decimals), which is written only when something
// reads it: the text of 1 024 × 1 024 numbers takes a second.
export function stateToDraft(state) {
  const rows = state.embeddings ?? null;
  let text = rows ? null : '';
  return {
    sentence: state.sentence,
    dModel: String(state.dModel),
    heads: String(state.heads),
    mask: state.mask,
    scale: state.scale,
    weights: state.weights,
    seed: String(state.seed),
    embeddingsMode: state.embeddings ? 'edit' : 'token',
    stateEmbeddings: rows,
    get embeddingsText() {
      text ??= formatMatrixText(rows);
      return text;
    },
    ...lessonDraftOf(state),
  };
}
