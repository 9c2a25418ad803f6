// The link codec: the page's state ⇄ the URL fragment (#…, which browsers never send to a
// server). One typed table of fields; reading, writing, validation and the tests' random states
// all derive from it, as tensorflow/playground's state.ts does. No DOM here.
//
//   #preset=journey                            the course's worked example as is
//   #preset=journey&v=1&mask=none              the same without the causal mask
//   #v=1&s=The+cat+sat&d=4&h=2&lang=zh-CN      a sentence of one's own, in Chinese
//   #preset=journey&v=1&embed=1&heads_hide=1   compact (for an iframe), the heads control hidden
//
// The rules (docs/link-schema.md is the reference for people who write links by hand):
// - `v` is the schema version, written whenever anything besides `preset` and `lang` is. A link
//   without `v` is version 1. Adding a field does not change the version; changing what a field
//   means does: then bump SCHEMA_VERSION and add the old→new step to MIGRATIONS, so that every
//   link ever made still opens the same (tests/js/share-frozen-links.test.mjs keeps a set).
// - Only values that differ from the named preset (`default` when none is named) are written.
// - A matrix is rows joined by ';' of entries joined by ','; when it is large and lz-string makes
//   it clearly shorter it is written '~' + lz-string's URI-safe output instead.
// - Decoding never throws and never trusts: every value is parsed, range-checked (numbers are
//   clamped) and checked against the fields before it; what cannot be used stays at the preset's
//   value, and `ignored` lists what happened, for the page to show. Nothing is evaluated.
import LZString from 'lz-string';

import {
  ISSUE4_DEFAULTS,
  ISSUE4_FIELDS,
  MAX_SHUFFLE_SEED,
  sentenceTokens,
  validateStructure,
} from '../heads/issue4-fields.js';
import { LANGUAGES } from '../i18n/index.js';
import { LESSON_DEFAULTS, LESSON_FIELDS, WEIGHT_KEYS } from '../lesson/lesson-fields.js';
import { validateLesson } from '../lesson/lesson-state.js';
import { DEFAULT_PRESET, PRESETS } from '../presets/index.js';
import { stateToDraft } from './draft.js';
import { parseDecimal } from './parse.js';
import { MAX_SEED, snapHeads } from './validate.js';

export const SCHEMA_VERSION = 1;

// The engine's limits (engine.info.limits; a test checks they agree) and the codec's own.
export const LIMITS = Object.freeze({
  maxTokens: 1024,
  maxDModel: 1024,
  maxSentence: 20000, // characters
  maxEntries: 1024 * 1024, // numbers in one matrix
  maxEntry: 1e6, // |a matrix entry| (the engine's bound: no intermediate overflows float32)
  maxCompressed: 16384, // characters of one '~' value: bounds the work of decompressing it
  maxHash: 4_000_000, // characters of the whole fragment
});

// ---- the field table -------------------------------------------------------------------------
// A field: { key, param, kind, ... }
//   key    name in the state object          param  name in the link (never changes)
//   kind   'string' | 'int' | 'number' (alias 'float') | 'enum' | 'bool'
//          | 'matrix'      rows joined by ';' of numbers joined by ','
//          | 'bools'       one '0'/'1' per entry: "00110"
//          | 'boolMatrix'  rows of '0'/'1' joined by '.': "011.001.000"
// optional:
//   values      enum: the allowed words
//   min, max    int, number: the range; values outside it are clamped (and reported);
//               matrix: the range of every entry (default ±LIMITS.maxEntry), clamped likewise
//   special     number: words taken as they are, e.g. ['-inf']
//   maxLength   string: longer values are ignored
//   nullable    matrix, bools, boolMatrix: null allowed (default true), written as `nullText`
//               (default '', i.e. `wq=`); '' always reads as null
//   shape(state) → [rows, cols]   matrix, boolMatrix: the required shape, given earlier fields
//   length(state) → n             bools: the required length
//   check(value, state) → null | { key, params }   any other rule against earlier fields
//   repair(state, value) → value  what to use when both the link's and the preset's values fail
//   default     the value when no preset holds this key
// Fields are read in table order, so a rule may look at the fields above it.

// T under the state's tokenization (read before the sentence: see ALL_FIELDS).
const tokenCount = (state) => sentenceTokens(state).length;

export const FIELDS = Object.freeze([
  {
    key: 'sentence',
    param: 's',
    kind: 'string',
    maxLength: LIMITS.maxSentence,
    check: (sentence, state) => {
      const T = sentenceTokens({ ...state, sentence }).length;
      if (T === 0) return { key: 'share.ignored.noTokens', params: {} };
      if (T > LIMITS.maxTokens) return { key: 'share.ignored.tokens', params: { T, max: LIMITS.maxTokens } };
      return null;
    },
  },
  { key: 'dModel', param: 'd', kind: 'int', min: 1, max: LIMITS.maxDModel },
  {
    key: 'heads',
    param: 'h',
    kind: 'int',
    min: 1,
    max: LIMITS.maxDModel,
    check: (heads, state) =>
      state.dModel % heads === 0 ? null : { key: 'share.ignored.heads', params: { heads, dModel: state.dModel } },
    repair: (state, heads) => snapHeads(state.dModel, heads),
  },
  { key: 'mask', param: 'mask', kind: 'enum', values: ['causal', 'none'] },
  { key: 'scale', param: 'scale', kind: 'bool' },
  { key: 'weights', param: 'w', kind: 'enum', values: ['random', 'identity'] },
  { key: 'seed', param: 'seed', kind: 'int', min: 0, max: MAX_SEED },
  // null = the engine's vector per token string ('token' in the link).
  {
    key: 'embeddings',
    param: 'x',
    kind: 'matrix',
    nullable: true,
    nullText: 'token',
    shape: (state) => [tokenCount(state), state.dModel],
  },
]);

// The names that are not fields: the version, the preset, the language and the view.
const RESERVED = new Set(['v', 'preset', 'lang', 'embed']);

// The lesson's fields (web/src/lesson/lesson-fields.js: step, selection, mask kinds, fill value,
// temperature, edited weights, …) join the table here. Their file must not import this one. A
// field with the same key as one above replaces it in place (the lesson's `mask` allows five
// kinds); a param used twice is an error. The codec adds what the lesson's table leaves to its
// validation: ranges (so that an out-of-range value is clamped and said so) and the defaults.
const LESSON_LIMITS = {
  head: { min: 1, max: LIMITS.maxDModel },
  row: { min: 1, max: LIMITS.maxTokens },
  cell: { maxLength: 64 },
  window: { min: 1, max: 100000 },
  prefix: { min: 0, max: 100000 },
  temperature: { min: 0.01, max: 100 },
};
const LESSON_TABLE = LESSON_FIELDS.map((field) =>
  Object.freeze({ ...field, default: LESSON_DEFAULTS[field.key] ?? null, ...LESSON_LIMITS[field.key] }),
);
// The fields of the head split, tokenization, cross-attention and positions (web/src/heads/
// issue4-fields.js), likewise. `tokenization` is read first: it decides T for every check below.
const ISSUE4_LIMITS = {
  kvHeads: { min: 0, max: LIMITS.maxDModel },
  shuffle: { min: 0, max: MAX_SHUFFLE_SEED },
  source: { maxLength: LIMITS.maxSentence },
};
const ISSUE4_TABLE = ISSUE4_FIELDS.map((field) =>
  Object.freeze({ ...field, default: ISSUE4_DEFAULTS[field.key] ?? null, ...ISSUE4_LIMITS[field.key] }),
);
const FIRST = ISSUE4_TABLE.filter((field) => field.key === 'tokenization');

// Every field the link carries, in reading order.
export const ALL_FIELDS = mergeTables(FIRST, FIELDS, LESSON_TABLE, ISSUE4_TABLE);

// Parts of the page that are not fields but can be hidden as well (`prose_hide=1`, …).
export const PAGE_PARTS = Object.freeze(['prose', 'presets', 'lang', 'share', 'export']);

// What `<name>_hide=1` accepts: every field's key and every page part.
export const HIDEABLE = Object.freeze([...ALL_FIELDS.map((field) => field.key), ...PAGE_PARTS]);

export function mergeTables(...tables) {
  const merged = [];
  for (const table of tables) {
    for (const field of table) {
      const at = merged.findIndex((other) => other.key === field.key);
      if (at >= 0) merged[at] = field;
      else merged.push(field);
    }
  }
  const params = merged.map((field) => field.param);
  const clash = params.find((param, i) => params.indexOf(param) !== i || RESERVED.has(param) || param.endsWith('_hide'));
  if (clash !== undefined) throw new Error(`link field param "${clash}" is used twice or reserved`);
  return Object.freeze(merged);
}

// ---- migrations ------------------------------------------------------------------------------
// MIGRATIONS[n] turns the params of a version-n link (a Map name → text) into version n + 1.
// Version 1 is the first, so there is none yet. Example of a future step, if `w` were renamed:
//   1: (params) => rename(params, 'w', 'weights'),
export const MIGRATIONS = Object.freeze({});

// Applies the steps from `from` up to `to`; a missing step is an error in this file, not in the
// link, so it throws (the tests run every step).
export function migrate(params, from, to = SCHEMA_VERSION, migrations = MIGRATIONS) {
  let current = new Map(params);
  for (let version = from; version < to; version += 1) {
    const step = migrations[version];
    if (typeof step !== 'function') throw new Error(`no migration from link version ${version}`);
    current = step(current);
  }
  return current;
}

// ---- numbers ---------------------------------------------------------------------------------

// The shortest decimal that reads back as the same float32: the engine computes in float32, so
// this is exact for it, and typed numbers like 0.43 stay as typed.
export function formatFloat32(value) {
  const target = Math.fround(value);
  if (target === 0) return '0';
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return String(candidate);
  }
  return String(target);
}

// Matrix entries compare as float32: the link keeps what the engine sees.
export function sameFloat32Matrix(a, b) {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  return a.every((row, r) => row.length === b[r].length && row.every((v, c) => Math.fround(v) === Math.fround(b[r][c])));
}

// ---- values as text --------------------------------------------------------------------------

const COMPRESSED = '~';

function plainText(field, value) {
  switch (field.kind) {
    case 'bool':
      return value ? '1' : '0';
    case 'matrix':
      if (value === null) return field.nullText ?? '';
      return value.map((row) => row.map(formatFloat32).join(',')).join(';');
    case 'bools':
      if (value === null) return field.nullText ?? '';
      return value.map((b) => (b ? '1' : '0')).join('');
    case 'boolMatrix':
      if (value === null) return field.nullText ?? '';
      return value.map((row) => row.map((b) => (b ? '1' : '0')).join('')).join('.');

    case 'string':
      return toWellFormed(String(value));
    default:
      return String(value);
  }
}

const CAN_COMPRESS = new Set(['matrix', 'bools', 'boolMatrix']);

// The value as it appears in the link (already escaped).
function linkText(field, value) {
  const plain = plainText(field, value);
  const escaped = escapeValue(plain);
  if (CAN_COMPRESS.has(field.kind) && escaped.length >= 256) {
    const packed = LZString.compressToEncodedURIComponent(plain);
    // "Clearly shorter": at most 70 % of the plain text (a few rows of typed numbers stay
    // readable), and small enough to read back.
    if (packed.length + 1 <= 0.7 * escaped.length && packed.length <= LIMITS.maxCompressed) return COMPRESSED + packed;
  }
  return escaped;
}

// Like URLSearchParams (spaces as '+'), but ',', ';' and '$' stay readable.
function escapeValue(text) {
  return encodeURIComponent(text).replace(/%20/g, '+').replace(/%2C/gi, ',').replace(/%3B/gi, ';').replace(/%24/g, '$');
}

function toWellFormed(text) {
  return typeof text.toWellFormed === 'function' ? text.toWellFormed() : text.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
}

// Whether two values of a field would be written the same.
function sameValue(field, a, b) {
  if (a === b) return true;
  if (field.kind === 'matrix') return a != null && b != null ? sameFloat32Matrix(a, b) : false;
  if (CAN_COMPRESS.has(field.kind)) return a != null && b != null && plainText(field, a) === plainText(field, b);
  return false;
}

// ---- reading one value -----------------------------------------------------------------------
// → { ok: true, value, clamped?: true } | { ok: false, key, params }

const shorten = (text) => {
  const chars = [...String(text)];
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : chars.join('');
};

const fail = (key, params = {}) => ({ ok: false, key, params });

function readValue(field, text) {
  switch (field.kind) {
    case 'string':
      if (text.length > (field.maxLength ?? LIMITS.maxSentence)) return fail('share.ignored.tooLong', { length: text.length });
      return { ok: true, value: text };
    case 'int': {
      if (!/^[+-]?\d{1,20}$/.test(text)) return fail('share.ignored.malformed');
      return clampNumber(field, Number(text));
    }
    case 'number':
    case 'float': {
      if (field.special?.includes(text)) return { ok: true, value: text };
      const value = parseDecimal(text);
      if (value === null) return fail('share.ignored.malformed');
      return clampNumber(field, value);
    }
    case 'enum':
      return field.values.includes(text) ? { ok: true, value: text } : fail('share.ignored.malformed');
    case 'bool':
      if (text === '1' || text === 'true') return { ok: true, value: true };
      if (text === '0' || text === 'false') return { ok: true, value: false };
      return fail('share.ignored.malformed');
    default:
      return readStructured(field, text);
  }
}

function clampNumber(field, value) {
  const min = field.min ?? -Infinity;
  const max = field.max ?? Infinity;
  if (value < min) return { ok: true, value: min, clamped: true };
  if (value > max) return { ok: true, value: max, clamped: true };
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

function readStructured(field, text) {
  if (field.nullable !== false && (text === '' || text === field.nullText)) return { ok: true, value: null };
  let plain = text;
  if (text.startsWith(COMPRESSED)) {
    const packed = text.slice(1);
    if (packed.length > LIMITS.maxCompressed) return fail('share.ignored.tooLong', { length: text.length });
    try {
      plain = LZString.decompressFromEncodedURIComponent(packed);
    } catch {
      plain = null;
    }
    if (typeof plain !== 'string' || plain.length === 0) return fail('share.ignored.malformed');
  }
  if (field.kind === 'bools') {
    if (!/^[01]{1,4096}$/.test(plain)) return fail('share.ignored.malformed');
    return { ok: true, value: [...plain].map((c) => c === '1') };
  }
  if (field.kind === 'boolMatrix') {
    const rowsText = plain.split('.');
    if (!rowsText.every((row) => /^[01]{1,4096}$/.test(row))) return fail('share.ignored.malformed');
    if (rowsText.length > LIMITS.maxTokens || rowsText.some((row) => row.length !== rowsText[0].length)) {
      return fail('share.ignored.malformed');
    }
    return { ok: true, value: rowsText.map((row) => [...row].map((c) => c === '1')) };
  }
  // matrix
  const rowsText = plain.split(';');
  const rows = [];
  const low = field.min ?? -LIMITS.maxEntry;
  const high = field.max ?? LIMITS.maxEntry;
  let clamped = false;
  let entries = 0;
  for (const rowText of rowsText) {
    const fields = rowText.split(',');
    entries += fields.length;
    if (entries > LIMITS.maxEntries) return fail('share.ignored.tooLong', { length: text.length });
    const row = [];
    for (const entry of fields) {
      const value = parseDecimal(entry.trim());
      // Finite, and finite as the float32 the engine will see.
      if (value === null || !Number.isFinite(Math.fround(value))) return fail('share.ignored.malformed');
      if (value < low || value > high) clamped = true;
      row.push(Math.min(high, Math.max(low, Object.is(value, -0) ? 0 : value)));
    }
    if (rows.length > 0 && row.length !== rows[0].length) return fail('share.ignored.malformed');
    rows.push(row);
  }
  return clamped ? { ok: true, value: rows, clamped: true, used: `±${high}` } : { ok: true, value: rows };
}

// The field's rules against the fields read before it: null, or { key, params }.
function checkValue(field, value, state) {
  if (value !== null && value !== undefined) {
    if (field.shape && (field.kind === 'matrix' || field.kind === 'boolMatrix')) {
      const [wantRows, wantCols] = field.shape(state);
      const rows = value.length;
      const cols = rows > 0 ? value[0].length : 0;
      if (rows !== wantRows || cols !== wantCols) {
        return { key: 'share.ignored.shape', params: { rows, cols, wantRows, wantCols } };
      }
    }
    if (field.length && field.kind === 'bools' && value.length !== field.length(state)) {
      return { key: 'share.ignored.length', params: { length: value.length, want: field.length(state) } };
    }
  }
  return field.check ? field.check(value, state) : null;
}

// ---- the preset's values ---------------------------------------------------------------------

function baseValue(field, presetId) {
  for (const id of [presetId, DEFAULT_PRESET]) {
    const state = PRESETS[id]?.state;
    if (state && Object.hasOwn(state, field.key)) return state[field.key];
  }
  return field.default ?? null;
}

// The complete state of a preset (fields no preset holds take their `default`).
export function presetState(presetId, fields = ALL_FIELDS) {
  const id = Object.hasOwn(PRESETS, presetId) ? presetId : DEFAULT_PRESET;
  return Object.fromEntries(fields.map((field) => [field.key, baseValue(field, id)]));
}

// ---- the link → state ------------------------------------------------------------------------

// Splits the fragment into [name, text] pairs; a part that is not valid %-encoding is reported.
function readPairs(text, ignored) {
  const pairs = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = unescapePart(eq < 0 ? part : part.slice(0, eq));
    const value = unescapePart(eq < 0 ? '' : part.slice(eq + 1));
    if (name === null || value === null) {
      ignored.push({ param: shorten(part), key: 'share.ignored.unreadable', params: { value: shorten(part) } });
      continue;
    }
    pairs.push([name, value]);
  }
  return pairs;
}

function unescapePart(raw) {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * hash: location.hash ('#…' or '', or any string at all).
 * → { version, presetId, known, state, draft, lang, view: { embed, hidden }, ignored }
 *   state    a complete, valid state (every field of ALL_FIELDS)
 *   draft    the state as control values, for the form (state/draft.js)
 *   lang     'en' | 'zh-CN' | null (the link does not choose)
 *   known    false when the link names a preset that does not exist
 *   ignored  [{ param, key, params }]: what was not applied or was changed, as i18n keys
 * Never throws.
 */
export function decodeHash(hash, { fields = ALL_FIELDS } = {}) {
  const ignored = [];
  const note = (param, key, params = {}) => ignored.push({ param, key, params: { name: param, ...params } });
  let text = typeof hash === 'string' ? hash : '';
  if (text.startsWith('#')) text = text.slice(1);
  if (text.length > LIMITS.maxHash) {
    note('#', 'share.ignored.linkTooLong', { length: text.length });
    text = '';
  }

  // First occurrence of each name wins.
  let params = new Map();
  for (const [name, value] of readPairs(text, ignored)) {
    if (params.has(name)) note(shorten(name), 'share.ignored.duplicate');
    else params.set(name, value);
  }

  // The version, and the steps from an older one.
  let version = 1;
  if (params.has('v')) {
    const written = params.get('v');
    if (!/^\d{1,6}$/.test(written) || Number(written) < 1) note('v', 'share.ignored.malformed', { value: shorten(written) });
    else version = Number(written);
  }
  if (version > SCHEMA_VERSION) {
    note('v', 'share.ignored.newer', { value: version });
  } else if (version < SCHEMA_VERSION) {
    params = migrate(params, version);
  }

  // The preset the values are relative to.
  let presetId = DEFAULT_PRESET;
  let known = true;
  if (params.has('preset')) {
    const asked = params.get('preset');
    if (Object.hasOwn(PRESETS, asked)) presetId = asked;
    else {
      known = false;
      note('preset', 'share.ignored.preset', { value: shorten(asked) });
    }
  }

  // The fields, in table order: parse, range, then the rules against the fields before.
  const state = {};
  for (const field of fields) {
    const base = baseValue(field, presetId);
    let value = base;
    let fromLink = false;
    if (params.has(field.param)) {
      const written = params.get(field.param);
      const read = readValue(field, written);
      if (!read.ok) note(field.param, read.key, { value: shorten(written), ...read.params });
      else {
        value = read.value;
        fromLink = true;
        if (read.clamped) note(field.param, 'share.ignored.clamped', { value: shorten(written), used: read.used ?? value });
      }
    }
    const problem = checkValue(field, value, state);
    if (problem && fromLink) {
      // The link's value does not fit: the preset's, if that fits, else a repaired one.
      value = checkValue(field, base, state) ? repaired(field, state, base) : base;
      const key = value === null && problem.key === 'share.ignored.shape' ? 'share.ignored.shapeDropped' : problem.key;
      note(field.param, key, { ...problem.params, used: describe(field, value) });
    } else if (problem) {
      // The preset's value does not fit what the link changed above it.
      value = repaired(field, state, value);
      note(field.param, value === null && problem.key === 'share.ignored.shape' ? 'share.ignored.shapeDropped' : problem.key, {
        ...problem.params,
        used: describe(field, value),
      });
    }
    state[field.key] = value;
  }
  if (fields.some((field) => LESSON_KEYS.has(field.key))) fitLesson(state, presetId, params, note);
  if (fields.some((field) => ISSUE4_KEYS.has(field.key))) fitStructure(state, presetId, params, note);

  // The view: language, embed mode, hidden parts.
  let lang = null;
  if (params.has('lang')) {
    const asked = params.get('lang');
    if (LANGUAGES.includes(asked)) lang = asked;
    else note('lang', 'share.ignored.malformed', { value: shorten(asked) });
  }
  const view = { embed: false, hidden: [] };
  if (params.has('embed')) {
    const read = readValue({ kind: 'bool' }, params.get('embed'));
    if (read.ok) view.embed = read.value;
    else note('embed', 'share.ignored.malformed', { value: shorten(params.get('embed')) });
  }
  const hideable = [...fields.map((field) => field.key), ...PAGE_PARTS];
  const hidden = new Set();
  for (const [name, written] of params) {
    if (!name.endsWith('_hide')) continue;
    const target = name.slice(0, -'_hide'.length);
    const read = readValue({ kind: 'bool' }, written);
    if (!hideable.includes(target)) note(shorten(name), 'share.ignored.unknown');
    else if (!read.ok) note(name, 'share.ignored.malformed', { value: shorten(written) });
    else if (read.value) hidden.add(target);
  }
  view.hidden = hideable.filter((name) => hidden.has(name));

  // Whatever is left is not ours.
  const knownNames = new Set([...RESERVED, ...fields.map((field) => field.param)]);
  for (const name of params.keys()) {
    if (!knownNames.has(name) && !name.endsWith('_hide')) note(shorten(name), 'share.ignored.unknown');
  }

  return { version: Math.min(version, SCHEMA_VERSION), presetId, known, state, draft: draftOf(state), lang, view, ignored };
}

// The state as the page's form holds it: the controls' text (state/draft.js) and, as typed
// values, every other field (the lesson reads those with validateLesson).
export function draftOf(state) {
  const draft = {};
  for (const [key, value] of Object.entries(state)) if (!CORE_KEYS.has(key)) draft[key] = value;
  return { ...draft, ...stateToDraft(state) };
}

const CORE_KEYS = new Set(FIELDS.map((field) => field.key).filter((key) => key !== 'mask'));
// (ISSUE4_KEYS is defined with fitStructure above.)
const LESSON_KEYS = new Set(LESSON_TABLE.map((field) => field.key).filter((key) => !CORE_KEYS.has(key)));

const ISSUE4_KEYS = new Set(ISSUE4_TABLE.map((field) => field.key));

// The rules of the head split and cross-attention fields (validateStructure, heads/issue4-fields.js):
// kvHeads becomes a divisor of heads, the source padding follows the source; a source that is
// empty or too long goes back to the preset's, and cross-attention off if that fails too.
function fitStructure(state, presetId, params, note) {
  const fieldOf = (key) => ISSUE4_TABLE.find((f) => f.key === key);
  const keys = [...ISSUE4_KEYS];
  for (let attempt = 0; attempt <= keys.length + 1; attempt += 1) {
    const checked = validateStructure(state, { heads: state.heads, maxTokens: LIMITS.maxTokens });
    if (checked.ok) {
      // Edited weights are d_model × d_model (the lesson's editor); shared key/value heads need
      // W_K and W_V of d_model × (kvHeads·d_k). The edited numbers win; kvHeads goes back to 0.
      const said = new Set();
      if (state.wq && checked.fields.kvHeads > 0 && checked.fields.kvHeads !== state.heads) {
        note(fieldOf('kvHeads').param, 'share.ignored.kvWeights', { value: checked.fields.kvHeads, used: 0 });
        checked.fields.kvHeads = 0;
        said.add('kvHeads');
      }
      for (const key of keys) {
        const field = fieldOf(key);
        const fitted = checked.fields[key];
        if (params.has(field.param) && !said.has(key) && !sameValue(field, fitted, state[key])) {
          note(field.param, 'share.ignored.fitted', { value: describe(field, state[key]), used: describe(field, fitted) });
        }
        state[key] = fitted;
      }
      return;
    }
    const { key, params: problem } = checked.error;
    let culprits = ISSUE4_TABLE.filter((f) => f.param === problem?.name).map((f) => f.key);
    if (key === 'heads4.error.noSource' || key === 'heads4.error.sourceTooMany') {
      culprits = sameValue(fieldOf('source'), state.source, baseValue(fieldOf('source'), presetId)) ? ['cross'] : ['source'];
    }
    const reset = culprits.length > 0 ? culprits : keys;
    note(fieldOf(reset[0]).param, key, { ...problem });
    for (const name of reset) state[name] = name === 'cross' ? false : baseValue(fieldOf(name), presetId);
  }
  for (const key of keys) state[key] = ISSUE4_DEFAULTS[key] ?? null;
}

// The lesson's rules across fields (validateLesson, lesson/lesson-state.js): it keeps head, row
// and the selected cell in range and fits padding, the custom mask and edited weights to T and
// d_model; a value it refuses goes back to the preset's. What changed a value the link gave is
// reported.
function fitLesson(state, presetId, params, note) {
  const ctx = { T: tokenCount(state), dModel: state.dModel, heads: state.heads };
  const keys = [...LESSON_KEYS];
  for (let attempt = 0; attempt <= keys.length; attempt += 1) {
    const lesson = Object.fromEntries(keys.map((key) => [key, state[key]]));
    const checked = validateLesson(lesson, ctx);
    if (checked.ok) {
      for (const key of keys) {
        const field = LESSON_TABLE.find((f) => f.key === key);
        const fitted = checked.lesson[key];
        if (params.has(field.param) && !sameValue(field, fitted, state[key])) {
          note(field.param, 'share.ignored.fitted', { value: describe(field, state[key]), used: describe(field, fitted) });
        }
        state[key] = fitted;
      }
      return;
    }
    const { key, params: problem } = checked.error;
    const culprits = {
      'lesson.error.window': ['window'],
      'lesson.error.prefix': ['prefix'],
      'lesson.error.temperature': ['temperature'],
      'lesson.error.weights': WEIGHT_KEYS,
    }[key] ?? LESSON_TABLE.filter((f) => f.param === problem?.name).map((f) => f.key);
    const reset = culprits.length > 0 ? culprits : keys;
    note(LESSON_TABLE.find((f) => f.key === reset[0])?.param ?? '?', key, { ...problem });
    for (const name of reset) state[name] = baseValue(LESSON_TABLE.find((f) => f.key === name), presetId);
  }
  // Still refused with every lesson field at the preset's value: use the lesson's defaults.
  for (const key of keys) state[key] = LESSON_DEFAULTS[key] ?? null;
}

function repaired(field, state, value) {
  if (field.repair) return field.repair(state, value);
  if (field.nullable !== false && CAN_COMPRESS.has(field.kind)) return null;
  return field.default ?? value;
}

// A value as a message shows it: numbers and words as they are, a matrix as 'rows × cols'.
function describe(field, value) {
  if (value === null || value === undefined) return field.nullText || '—';
  if (field.kind === 'matrix') return `${value.length} × ${value[0]?.length ?? 0}`;
  if (CAN_COMPRESS.has(field.kind)) return shorten(plainText(field, value));
  return shorten(String(value));
}

// ---- state → the link ------------------------------------------------------------------------

/**
 * { presetId, state, lang?, view?: { embed?, hidden? } } → '#…' with only what differs from the
 * preset, or '' for the plain default page. Keys missing from `state` count as the preset's.
 */
export function encodeHash({ presetId, state, lang = null, view = {} }, { fields = ALL_FIELDS } = {}) {
  const id = Object.hasOwn(PRESETS, presetId) ? presetId : DEFAULT_PRESET;
  const parts = [];
  if (id !== DEFAULT_PRESET) parts.push(`preset=${escapeValue(id)}`);
  const written = [];
  for (const field of fields) {
    if (!Object.hasOwn(state, field.key)) continue;
    const value = state[field.key];
    if (sameValue(field, value, baseValue(field, id))) continue;
    written.push(`${field.param}=${linkText(field, value)}`);
  }
  const hideable = [...fields.map((field) => field.key), ...PAGE_PARTS];
  const hidden = new Set(view.hidden ?? []);
  const viewParts = [];
  if (view.embed) viewParts.push('embed=1');
  for (const name of hideable) if (hidden.has(name)) viewParts.push(`${name}_hide=1`);
  if (written.length > 0 || viewParts.length > 0) parts.push(`v=${SCHEMA_VERSION}`);
  parts.push(...written);
  if (lang) parts.push(`lang=${escapeValue(lang)}`);
  parts.push(...viewParts);
  return parts.length ? `#${parts.join('&')}` : '';
}
