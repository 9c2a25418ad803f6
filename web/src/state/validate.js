// From the raw control values (the "draft": strings as typed) to a valid state, or the first
// problem as an i18n key with parameters. The engine checks again; checking here lets the page
// say what is wrong in the reader's language and name the control to fix. The fields, their
// defaults and limits are the schema's (schema.js).
import { divisors, longestToken, parseMatrixText, parseWholeNumber, tokenize } from './parse.js';
import {
  fieldOf,
  cellInRange,
  DEFAULTS,
  LESSON_FIELDS,
  MAX_SEED,
  MAX_SHUFFLE_SEED,
  MAX_WIDTH,
  parseCellRef,
  sourceTokens,
  STEP_IDS,
  STRUCTURE_FIELDS,
  valueOfText,
  WEIGHT_KEYS,
} from './schema.js';

export { snapHeads } from './schema.js';

// draft: { sentence, dModel, heads, mask, scale, weights, seed, embeddingsMode, embeddingsText,
//          embeddingsRows (optional: number[][] that stand for embeddingsText),
//          embeddingsParsed (optional: the page's editor read the text already: { ok, rows } or
//          { ok: false, error }) }
//        and the lesson's and structure's fields (schema.js), checked by validateLesson and
//        validateStructure
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
    const parsed =
      draft.embeddingsParsed ?? (draft.embeddingsRows ? { ok: true, rows: draft.embeddingsRows } : parseMatrixText(draft.embeddingsText));
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

const isFlags = (flags) => Array.isArray(flags) && flags.every((flag) => typeof flag === 'boolean');
const isFiniteRow = (row) => Array.isArray(row) && row.every((v) => typeof v === 'number' && Number.isFinite(v));

// A draft's value of a field: text (from a link) is read as the link reads it; a typed value is
// checked for its kind. → the value, or undefined when it cannot be used.
function typed(field, raw) {
  if (typeof raw === 'string' && field.kind !== 'string' && field.kind !== 'enum') return valueOfText(field, raw);
  const ok = {
    int: () => Number.isInteger(raw),
    float: () => typeof raw === 'number' && Number.isFinite(raw),
    bool: () => typeof raw === 'boolean',
    bools: () => raw === null || isFlags(raw),
    boolMatrix: () => raw === null || (Array.isArray(raw) && raw.every(isFlags)),
    matrix: () => raw === null || (Array.isArray(raw) && raw.every(isFiniteRow)),
    enum: () => field.values.includes(raw),
    string: () => typeof raw === 'string',
  }[field.kind]();
  return ok ? raw : undefined;
}

// The fields of `fields` in a draft, typed (missing ones take their defaults), or the first that
// cannot be used as { key: `${prefix}.error.value`, params }.
function typedFields(fields, draft, prefix) {
  const values = {};
  for (const field of fields) {
    const raw = draft[field.key];
    const value = raw === undefined ? DEFAULTS[field.key] : typed(field, raw);
    if (value === undefined) return { error: { key: `${prefix}.error.value`, params: { name: field.param, text: String(raw).slice(0, 40) } } };
    values[field.key] = value;
  }
  return { values };
}

/** boolean[] to length n (new entries false); null when nothing is set. */
export function fitFlags(flags, n) {
  if (!flags) return null;
  const fitted = Array.from({ length: n }, (_, i) => Boolean(flags[i]));
  return fitted.some(Boolean) ? fitted : null;
}

/** boolean[][] to n × n (new entries false). */
export function fitGrid(grid, n) {
  // (Plain loops: at 1 024 tokens, a link's mask is a million entries.)
  const rows = new Array(n);
  for (let i = 0; i < n; i += 1) {
    const given = grid?.[i];
    const row = new Array(n).fill(false);
    if (given != null) for (let j = 0; j < n; j += 1) row[j] = Boolean(given[j]);
    rows[i] = row;
  }
  return rows;
}

/**
 * The lesson's fields of a draft (typed values, or text from the address; missing ones take
 * their defaults). ctx: { T, dModel, heads } of the valid rest of the state.
 * → { ok: true, lesson } with every field fitted to ctx, or { ok: false, error: { key, params } }.
 * Fitting never fails: head, row and the selected cell are kept in range, padding and the
 * custom mask follow T, edited weights of another d_model are dropped.
 */
export function validateLesson(draft, ctx) {
  const { values: lesson, error } = typedFields(LESSON_FIELDS, draft, 'lesson');
  if (error) return { ok: false, error };
  const { T, dModel, heads } = ctx;

  if (!STEP_IDS.includes(lesson.step)) lesson.step = 'all';
  lesson.head = Math.min(Math.max(1, lesson.head), heads);
  lesson.row = Math.min(Math.max(1, lesson.row), T);
  if (lesson.cell !== '' && !cellInRange(parseCellRef(lesson.cell), ctx)) lesson.cell = '';

  if (lesson.window < 1 || lesson.window > MAX_WIDTH) return { ok: false, error: { key: 'lesson.error.window', params: { T } } };
  if (lesson.prefix > MAX_WIDTH) return { ok: false, error: { key: 'lesson.error.prefix', params: { T } } };
  const { min, max } = fieldOf('temperature');
  if (!(lesson.temperature >= min && lesson.temperature <= max))
    return { ok: false, error: { key: 'lesson.error.temperature', params: { min, max } } };
  lesson.padding = fitFlags(lesson.padding, T);
  if (lesson.customMask || lesson.mask === 'custom') lesson.customMask = fitGrid(lesson.customMask, T);

  // Edited weights come as all four or none; another d_model's edits no longer fit.
  const given = WEIGHT_KEYS.filter((key) => lesson[key] !== null);
  if (given.length > 0 && given.length < WEIGHT_KEYS.length) return { ok: false, error: { key: 'lesson.error.weights', params: {} } };
  const fits = (m) => m.length === dModel && m.every((row) => row.length === dModel);
  if (given.length > 0 && !WEIGHT_KEYS.every((key) => fits(lesson[key]))) for (const key of WEIGHT_KEYS) lesson[key] = null;
  return { ok: true, lesson };
}

/**
 * The structure's fields of a draft (head split, key/value heads, tokenization, cross-attention,
 * positions; missing ones take their defaults). ctx: { heads, maxTokens } of the rest.
 * → { ok: true, fields } fitted to ctx, or { ok: false, error: { key, params, field } } where
 *   `field` names the control to mark ('source'; null otherwise).
 * Fitting never fails: kvHeads becomes 0 or the largest divisor of heads below it, the source
 * padding follows the source's length, the shuffle seed is kept in range.
 */
export function validateStructure(draft, { heads, maxTokens }) {
  const { values: fields, error } = typedFields(STRUCTURE_FIELDS, draft, 'heads');
  if (error) return { ok: false, error: { ...error, field: null } };

  const kv = fields.kvHeads;
  fields.kvHeads = kv <= 0 || kv >= heads ? 0 : divisors(heads).findLast((d) => d <= kv);
  fields.shuffle = Math.min(Math.max(0, fields.shuffle), MAX_SHUFFLE_SEED);

  const S = sourceTokens(fields).length;
  if (fields.cross) {
    if (S === 0) return { ok: false, error: { key: 'heads.error.noSource', params: {}, field: 'source' } };
    if (S > maxTokens) return { ok: false, error: { key: 'heads.error.sourceTooMany', params: { T: S, max: maxTokens }, field: 'source' } };
  }
  // RoPE and ALiBi measure distances within one sequence (the engine refuses them with a source).
  if (fields.cross && (fields.positional === 'rope' || fields.alibi))
    return { ok: false, error: { key: 'modern.error.cross', params: {}, field: null } };
  // Padding flags follow the source (new tokens are not padding); null when none is set.
  fields.sourcePadding = fitFlags(fields.sourcePadding, S);
  return { ok: true, fields };
}

// ---- the engine's config ---------------------------------------------------------------------

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

export const FILL_NUMBER = Object.freeze({ '-inf': '-inf', '-1e9': -1e9, 0: 0 });

/**
 * The engine options of the lesson fields (attention.d.ts), only those that differ from the
 * engine's defaults, so that a plain state gives the same config as before the lesson existed.
 */
export function lessonEngineConfig(state) {
  const config = { mask: state.mask ?? 'causal' };
  if (state.mask === 'window') config.window = state.window;
  if (state.mask === 'prefix') config.prefix = state.prefix;
  if (state.mask === 'custom') config.customMask = state.customMask;
  if (state.padding?.some(Boolean)) config.padding = state.padding;
  if (state.maskFill && state.maskFill !== '-inf') config.maskFill = FILL_NUMBER[state.maskFill];
  if (state.maskBeforeScale) config.maskBeforeScale = true;
  if (state.temperature !== undefined && state.temperature !== 1) config.temperature = state.temperature;
  if (state.naive) config.naiveSoftmax = true;
  if (state.softmaxOver === 'queries') config.softmaxOver = 'queries';
  if (state.wq) config.weights = { wq: state.wq, wk: state.wk, wv: state.wv, wo: state.wo };
  return config;
}

/**
 * The engine config with the structure's fields: adds kvHeads, positional and the source, and in
 * cross-attention replaces the mask — none, or causal only when asked (crossCausal) — and puts
 * the padding on the source tokens. Returns a new object; options at their default are left out.
 */
export function applyStructure(config, state) {
  const out = { ...config };
  const kv = state.kvHeads ?? 0;
  if (kv > 0 && kv !== state.heads) out.kvHeads = kv;
  if (state.positional === 'sinusoidal' || state.positional === 'rope') out.positional = state.positional;
  if (state.alibi) out.alibi = true;
  if (state.cross) {
    out.source = { tokens: sourceTokens(state) };
    for (const key of ['window', 'prefix', 'customMask', 'padding']) delete out[key];
    out.mask = state.crossCausal ? 'causal' : 'none';
    if (state.sourcePadding?.some(Boolean)) out.padding = state.sourcePadding;
  }
  return out;
}
