// From the raw control values (the "draft": strings as typed) to a valid state, or the first
// problem as an i18n key with parameters. The engine checks again; checking here lets the page
// say what is wrong in the reader's language and name the control to fix.
import { applyStructure, validateStructure } from '../heads/structure-fields.js';
import { lessonEngineConfig, validateLesson } from '../lesson/lesson-state.js';
import { divisors, longestToken, parseMatrixText, parseWholeNumber, tokenize } from './parse.js';

export const MAX_SEED = 4294967295; // the engine's seed is a uint32

// draft: { sentence, dModel, heads, mask, scale, weights, seed, embeddingsMode, embeddingsText,
//          embeddingsRows (optional: number[][] that stand for embeddingsText),
//          embeddingsParsed (optional: the page's editor read the text already: { ok, rows } or
//          { ok: false, error }) }
//        and the lesson's fields (web/src/lesson/lesson-fields.js), checked by validateLesson,
//        and tokenization, kvHeads, positional, cross-attention… (web/src/heads/structure-fields.js)
// limits: engine.info.limits = { maxTokens, maxDModel, maxTokenBytes? }
// → { ok: true, state, tokens } | { ok: false, error: { key, params, field } }
export function validateDraft(draft, limits) {
  const fail = (field, key, params = {}) => ({ ok: false, error: { key, params, field } });

  const tokens = tokenize(draft.sentence, draft.tokenization);
  if (tokens.length === 0) return fail('sentence', 'error.noTokens');
  if (tokens.length > limits.maxTokens) {
    return fail('sentence', 'error.tooManyTokens', { T: tokens.length, max: limits.maxTokens });
  }
  const longest = limits.maxTokenBytes ? longestToken(tokens, limits.maxTokenBytes) : 0;
  if (longest > limits.maxTokenBytes) return fail('sentence', 'error.tokenBytes', { bytes: longest, max: limits.maxTokenBytes });

  const dModel = parseWholeNumber(draft.dModel);
  if (dModel === null || dModel < 1 || dModel > limits.maxDModel) {
    return fail('dModel', 'error.dModel', { max: limits.maxDModel });
  }

  const heads = parseWholeNumber(draft.heads);
  if (heads === null || heads < 1 || heads > dModel) return fail('heads', 'error.heads', { dModel });
  if (dModel % heads !== 0) {
    return fail('heads', 'error.headsDivide', { heads, dModel, divisors: divisors(dModel).join(', ') });
  }

  const scale = draft.scale !== false;
  const weights = draft.weights === 'identity' ? 'identity' : 'random';

  // The seed only matters for random weights; with identity weights a bad seed is ignored.
  let seed = parseWholeNumber(draft.seed);
  if (weights === 'random' && (seed === null || seed > MAX_SEED)) return fail('seed', 'error.seed');
  if (seed === null || seed > MAX_SEED) seed = 0;

  let embeddings = null;
  if (draft.embeddingsMode === 'edit') {
    // Rows edited in the lesson come as numbers (embeddingsRows, finite: main.js), ahead of the
    // editor's text; typed rows as that text.
    const parsed = draft.embeddingsParsed ?? (draft.embeddingsRows ? { ok: true, rows: draft.embeddingsRows } : parseMatrixText(draft.embeddingsText));
    if (!parsed.ok) return { ok: false, error: { ...parsed.error, field: 'embeddings' } };
    if (parsed.rows.length !== tokens.length) {
      return fail('embeddings', 'error.embeddingsRows', { rows: parsed.rows.length, T: tokens.length });
    }
    const wrong = parsed.rows.findIndex((row) => row.length !== dModel);
    if (wrong >= 0) {
      return fail('embeddings', 'error.embeddingsCols', { row: wrong + 1, cols: parsed.rows[wrong].length, dModel });
    }
    embeddings = parsed.rows;
  }

  const lesson = validateLesson(draft, { T: tokens.length, dModel, heads });
  if (!lesson.ok) return { ok: false, error: { ...lesson.error, field: null } };

  const structure = validateStructure(draft, { heads, maxTokens: limits.maxTokens });
  if (!structure.ok) return { ok: false, error: structure.error };

  const state = { sentence: draft.sentence, dModel, heads, scale, weights, seed, embeddings, ...lesson.lesson, ...structure.fields };
  // Edited weights are d_model × d_model, which means one key/value head per query head.
  if (state.wq && state.kvHeads > 0) return fail('kvHeads', 'heads.error.editedWeights');
  return { ok: true, state, tokens };
}

// The engine's config for a valid state (see web/src/engine/attention.js for the contract).
export function toEngineConfig(state) {
  const config = {
    tokens: tokenize(state.sentence, state.tokenization),
    dModel: state.dModel,
    heads: state.heads,
    mask: state.mask,
    scale: state.scale,
    weights: state.weights,
    seed: state.seed,
  };
  if (state.embeddings) config.embeddings = state.embeddings;
  return applyStructure(Object.assign(config, lessonEngineConfig(state)), state);
}

// After d_model changes: the heads if they still divide it, else the largest divisor below them.
export function snapHeads(dModel, heads) {
  if (!(dModel >= 1) || !(heads >= 1)) return 1;
  for (let h = Math.min(heads, dModel); h >= 1; h -= 1) if (dModel % h === 0) return h;
  return 1;
}
