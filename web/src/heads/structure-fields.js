// The page-state fields of the head split, shared key/value heads, tokenization, cross-attention
// and positional encoding, in the shape of FIELDS in web/src/state/url.js ({ key, param, kind,
// values? }), for the address codec to merge. Checking them, fitting them to the rest of the
// state and turning them into engine options live here too. Pure functions, no DOM.
//
// Merging notes for the codec:
// - `tokenization` changes T: the sentence's token count (its limit check, the shape of the
//   `x` matrix, the lesson's fits) is tokenize(sentence, state.tokenization) — see
//   sentenceTokens() below — so the codec should read `tokenization` before those checks.
// - `kvHeads` 0 means "one key/value head per query head" (the engine's default); otherwise it
//   divides `heads`. validateStructure() fits a value that does not (to the largest divisor
//   of heads below it), so the codec may hand any whole number through.
// - `sourcePadding` is 'bools' (one '0'/'1' per source token), null = no padding.
// - `shuffle` 0 = off; any other value is the seed of the shuffled token order.
// - The selected head is the lesson's `head` field (lesson-fields.js): the head views select
//   through it, so the lesson's head tabs, its softmax lab and these views agree.
import { tokenize } from '../state/parse.js';

export const TOKENIZE_MODES = Object.freeze(['whitespace', 'char', 'word']);
export const POSITIONAL_KINDS = Object.freeze(['none', 'sinusoidal']);
export const SPLIT_STAGES = Object.freeze(['columns', 'slice', 'maps', 'concat', 'mix']);
export const MAX_SHUFFLE_SEED = 2147483647;

export const STRUCTURE_FIELDS = Object.freeze([
  { key: 'tokenization', param: 'tok', kind: 'enum', values: TOKENIZE_MODES },
  { key: 'kvHeads', param: 'kvh', kind: 'int' },
  { key: 'positional', param: 'pos', kind: 'enum', values: POSITIONAL_KINDS },
  { key: 'cross', param: 'cross', kind: 'bool' },
  { key: 'source', param: 'src', kind: 'string' },
  { key: 'sourcePadding', param: 'spad', kind: 'bools' },
  { key: 'crossCausal', param: 'xc', kind: 'bool' },
  { key: 'shuffle', param: 'shuf', kind: 'int' },
  { key: 'split', param: 'split', kind: 'enum', values: ['all', ...SPLIT_STAGES] },
].map((field) => Object.freeze(field)));

export const STRUCTURE_DEFAULTS = Object.freeze({
  tokenization: 'whitespace',
  kvHeads: 0,
  positional: 'none',
  cross: false,
  source: 'I love natural language processing',
  sourcePadding: null,
  crossCausal: false,
  shuffle: 0,
  split: 'all',
});

/** The sentence's tokens under the state's tokenization (what the engine is given). */
export const sentenceTokens = (state) => tokenize(state.sentence ?? '', state.tokenization ?? 'whitespace');

/** The source sentence's tokens (cross-attention). */
export const sourceTokens = (state) => tokenize(state.source ?? '', state.tokenization ?? 'whitespace');

/** The key/value head count a state means: kvHeads, or heads when kvHeads is 0. */
export const effectiveKvHeads = (state) => (state.kvHeads > 0 ? state.kvHeads : state.heads);

// The largest divisor of `heads` that is at most `kv` (kv ≥ 1).
function fitKv(kv, heads) {
  for (let d = Math.min(kv, heads); d >= 1; d -= 1) if (heads % d === 0) return d;
  return 1;
}

// A value from the address is text; from the page it is already typed. undefined = unreadable.
function typed(field, raw) {
  switch (field.kind) {
    case 'int':
      if (typeof raw === 'string') return /^\s*\d{1,10}\s*$/.test(raw) ? Number(raw) : undefined;
      return Number.isInteger(raw) && raw >= 0 ? raw : undefined;
    case 'bool':
      if (raw === '1' || raw === 'true') return true;
      if (raw === '0' || raw === 'false') return false;
      return typeof raw === 'boolean' ? raw : undefined;
    case 'bools':
      if (raw === null || raw === '') return null;
      if (typeof raw === 'string') return /^[01]{1,4096}$/.test(raw) ? [...raw].map((c) => c === '1') : undefined;
      return Array.isArray(raw) && raw.every((v) => typeof v === 'boolean') ? raw : undefined;
    case 'enum':
      return field.values.includes(raw) ? raw : undefined;
    default:
      return typeof raw === 'string' ? raw : undefined;
  }
}

/**
 * draft: any object holding these fields (missing ones take STRUCTURE_DEFAULTS).
 * ctx: { heads, maxTokens } of the valid rest of the state.
 * → { ok: true, fields } fitted to ctx, or { ok: false, error: { key, params, field } } where
 *   `field` names the control to mark ('source'; null otherwise).
 * Fitting never fails: kvHeads becomes a divisor of heads, the source padding follows the
 * source's length, the shuffle seed is kept in range.
 */
export function validateStructure(draft, { heads, maxTokens }) {
  const fields = {};
  for (const field of STRUCTURE_FIELDS) {
    const raw = draft[field.key];
    if (raw === undefined) {
      fields[field.key] = STRUCTURE_DEFAULTS[field.key];
      continue;
    }
    const value = typed(field, raw);
    if (value === undefined) {
      return { ok: false, error: { key: 'heads.error.value', params: { name: field.param, text: String(raw).slice(0, 40) }, field: null } };
    }
    fields[field.key] = value;
  }

  fields.kvHeads = fields.kvHeads === 0 || fields.kvHeads >= heads ? 0 : fitKv(fields.kvHeads, heads);
  fields.shuffle = Math.min(fields.shuffle, MAX_SHUFFLE_SEED);

  const S = sourceTokens(fields).length;
  if (fields.cross) {
    if (S === 0) return { ok: false, error: { key: 'heads.error.noSource', params: {}, field: 'source' } };
    if (S > maxTokens) return { ok: false, error: { key: 'heads.error.sourceTooMany', params: { T: S, max: maxTokens }, field: 'source' } };
  }
  // Padding flags follow the source (new tokens are not padding); null when none is set.
  const flags = fields.sourcePadding ? Array.from({ length: S }, (_, i) => Boolean(fields.sourcePadding[i])) : null;
  fields.sourcePadding = flags && flags.some(Boolean) ? flags : null;
  return { ok: true, fields };
}

/** These fields of a valid state, as draft values (they are plain values already). */
export function structureDraftOf(state) {
  const draft = {};
  for (const field of STRUCTURE_FIELDS) draft[field.key] = state[field.key] ?? STRUCTURE_DEFAULTS[field.key];
  return draft;
}

/**
 * The engine config of a state, given the config of the other fields (state/validate.js and the
 * lesson's): adds kvHeads, positional and the source, and in cross-attention replaces the mask —
 * none, or causal only when asked (crossCausal) — and puts the padding on the source tokens.
 * Returns a new object; options at their engine default are left out.
 */
export function applyStructure(config, state) {
  const out = { ...config };
  const kv = state.kvHeads ?? 0;
  if (kv > 0 && kv !== state.heads) out.kvHeads = kv;
  if (state.positional === 'sinusoidal') out.positional = 'sinusoidal';
  if (state.cross) {
    out.source = { tokens: sourceTokens(state) };
    for (const key of ['window', 'prefix', 'customMask', 'padding']) delete out[key];
    out.mask = state.crossCausal ? 'causal' : 'none';
    if (state.sourcePadding?.some(Boolean)) out.padding = state.sourcePadding;
  }
  return out;
}
