// A valid state written back as control values (the inverse of validateDraft).
import { lessonDraftOf } from '../lesson/lesson-state.js';
import { formatMatrixText } from './parse.js';

export function stateToDraft(state) {
  return {
    sentence: state.sentence,
    dModel: String(state.dModel),
    heads: String(state.heads),
    mask: state.mask,
    scale: state.scale,
    weights: state.weights,
    seed: String(state.seed),
    embeddingsMode: state.embeddings ? 'edit' : 'token',
    embeddingsText: state.embeddings ? formatMatrixText(state.embeddings) : '',
    ...lessonDraftOf(state), // the lesson's fields are plain values already
  };
}
