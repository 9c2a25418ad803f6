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
import {
  STRUCTURE_DEFAULTS,
  STRUCTURE_FIELDS,
  MAX_SHUFFLE_SEED,
  sentenceTokens,
  sourceTokens,
  validateStructure,
} from '../heads/structure-fields.js';
import { LANGUAGES } from '../i18n/index.js';
import { LESSON_DEFAULTS, LESSON_FIELDS, WEIGHT_KEYS } from '../lesson/lesson-fields.js';
import { validateLesson } from '../lesson/lesson-state.js';
import { DEFAULT_PRESET, PRESETS } from '../presets/index.js';
import { stateToDraft } from './draft.js';
import { compressSteps, decompressSteps, runSteps } from './lz-bounded.js';
import { longestToken, parseDecimal } from './parse.js';
import { MAX_SEED, snapHeads } from './validate.js';

export const SCHEMA_VERSION = 1;

// The engine's limits (engine.info.limits; a test checks they agree) and the codec's own.
export const LIMITS = Object.freeze({
  maxTokens: 1024,
  maxDModel: 1024,
  maxTokenBytes: 1024, // UTF-8 bytes of one token
  maxSentence: 20000, // characters
  maxEntries: 1024 * 1024, // numbers in one matrix
  maxEntry: 1e6, // |a matrix entry| (the engine's bound: no intermediate overflows float32)
  maxCompressed: 16384, // characters of one '~' value
  maxHash: 4_000_000, // characters of the whole fragment
  maxParts: 256, // name=value parts read from one link (every field and every _hide is 100)
});

// The most characters one matrix entry takes as the page writes it (formatFloat32 within ±1e6:
// '-0.00000123456789', 17) and its separator: what bounds a '~' value's expansion (textLimit).
export const MAX_ENTRY_CHARS = 18;

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
//   textLimit(state) → n  matrix, bools, boolMatrix: the most characters its value can have
//               given earlier fields; a '~' value is decompressed no further (default: the
//               largest any state allows)
//   default     the value when no preset holds this key
// Fields are read in table order, so a rule may look at the fields above it.

// A token longer than the engine takes, as a field's problem (or null).
const tokenBytesProblem = (tokens) => {
  const bytes = longestToken(tokens, LIMITS.maxTokenBytes);
  return bytes > LIMITS.maxTokenBytes ? { key: 'share.ignored.tokenBytes', params: { bytes, max: LIMITS.maxTokenBytes } } : null;
};

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
      return tokenBytesProblem(sentenceTokens({ ...state, sentence }));
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
    textLimit: (state) => tokenCount(state) * state.dModel * MAX_ENTRY_CHARS,
  },
]);

// The names that are not fields: the version, the preset, the language and the view.
const RESERVED = new Set(['v', 'preset', 'lang', 'embed']);

// The lesson's fields (web/src/lesson/lesson-fields.js: step, selection, mask kinds, fill value,
// temperature, edited weights, …) join the table here. Their file must not import this one. A
// field with the same key as one above replaces it in place (the lesson's `mask` allows five
// kinds); a param used twice is an error. The codec adds what the lesson's table leaves to its
// validation: ranges (so that an out-of-range value is clamped and said so) and the defaults.
const weightsText = { textLimit: (state) => state.dModel * state.dModel * MAX_ENTRY_CHARS };
const LESSON_LIMITS = {
  head: { min: 1, max: LIMITS.maxDModel },
  padding: { textLimit: (state) => tokenCount(state) },
  customMask: { textLimit: (state) => tokenCount(state) * (tokenCount(state) + 1) },
  wq: weightsText,
  wk: weightsText,
  wv: weightsText,
  wo: weightsText,
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
// structure-fields.js), likewise. `tokenization` is read first: it decides T for every check below.
const STRUCTURE_LIMITS = {
  kvHeads: { min: 0, max: LIMITS.maxDModel },
  shuffle: { min: 0, max: MAX_SHUFFLE_SEED },
  source: { maxLength: LIMITS.maxSentence, check: (source, state) => tokenBytesProblem(sourceTokens({ ...state, source })) },
  sourcePadding: { textLimit: (state) => sourceTokens(state).length },
};
const STRUCTURE_TABLE = STRUCTURE_FIELDS.map((field) =>
  Object.freeze({ ...field, default: STRUCTURE_DEFAULTS[field.key] ?? null, ...STRUCTURE_LIMITS[field.key] }),
);
const FIRST = STRUCTURE_TABLE.filter((field) => field.key === 'tokenization');

// Every field the link carries, in reading order.
export const ALL_FIELDS = mergeTables(FIRST, FIELDS, LESSON_TABLE, STRUCTURE_TABLE);

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
      return runSteps(matrixRowsSteps(value)).texts.join(';');
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

// The value as it appears in the link (already escaped), in steps. A long matrix that does not
// compress comes as a JoinedText: its rows are joined only if the whole link is asked for (the
// address takes links of up to 64 K characters; joining 7.5 MB of text took 20 ms, twice).
function* linkTextSteps(field, value) {
  let plain; // the text, or a matrix's rows' texts (to be joined by ';')
  let escaped = null;
  let length;
  if (field.kind === 'matrix' && value !== null) {
    const rows = yield* matrixRowsSteps(value);
    // A matrix's text is digits, '.', '-', 'e', ',' and ';', which stay as they are; '+' only in
    // numbers of 1e21 and more.
    if (rows.plus) escaped = escapeValue((plain = rows.texts.join(';')));
    else plain = rows.texts;
    length = escaped?.length ?? rows.length;
  } else {
    plain = plainText(field, value);
    escaped = escapeValue(plain);
    length = escaped.length;
  }
  if (CAN_COMPRESS.has(field.kind) && length >= 256) {
    // "Clearly shorter": at most 70 % of the plain text (a few rows of typed numbers stay
    // readable), and small enough to read back. Compressing stops once it cannot be either.
    const room = Math.min(LIMITS.maxCompressed, Math.floor(0.7 * length) - 1);
    const packed = yield* compressSteps(plain, room, ';');
    if (packed !== null && packed.length + 1 <= 0.7 * length && packed.length <= LIMITS.maxCompressed) return COMPRESSED + packed;
  }
  return escaped ?? new JoinedText(plain, ';', length);
}

// Text made of pieces, joined when first used as a string; its length is known before.
class JoinedText {
  #pieces;
  #separator;
  #text = null;
  constructor(pieces, separator, length) {
    this.#pieces = pieces;
    this.#separator = separator;
    this.length = length;
  }
  toString() {
    this.#text ??= this.#pieces.join(this.#separator);
    return this.#text;
  }
}

// A matrix row's text in a link, kept by row: the shortest float32 decimal of a number takes
// about 2 µs, so the 1 000 × 1 024 X a reader edits would take 2 s each time the address is
// written. Kept with the row's float32 values: a row changed in place is written anew.
const rowTexts = new WeakMap();
const ENTRIES_PER_TEXT_STEP = 1 << 12;

// → { texts: each row's text, length: of them joined by ';', plus: whether one holds a '+' }
function* matrixRowsSteps(rows) {
  const texts = [];
  let length = Math.max(0, rows.length - 1);
  let plus = false;
  let formatted = 0;
  for (const row of rows) {
    let kept = rowTexts.get(row);
    formatted += row.length >> 4; // (checking a kept row costs about a sixteenth of writing it)
    if (kept === undefined || !sameFloat32Row(kept.values, row)) {
      const text = row.map(formatFloat32).join(',');
      kept = { values: Float32Array.from(row), text, plus: text.includes('+') };
      rowTexts.set(row, kept);
      formatted += row.length;
      if (formatted >= ENTRIES_PER_TEXT_STEP) {
        formatted = 0;
        yield;
      }
    }
    texts.push(kept.text);
    length += kept.text.length;
    plus ||= kept.plus;
  }
  return { texts, length, plus };
}

function sameFloat32Row(values, row) {
  if (values.length !== row.length) return false;
  for (let j = 0; j < row.length; j += 1) if (values[j] !== Math.fround(row[j])) return false;
  return true;
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
  if (a == null || b == null) return false;
  if (field.kind === 'matrix') return sameFloat32Matrix(a, b);
  // (compared as written, '1' or '0', without writing a million of them)
  const sameFlags = (x, y) => x.length === y.length && x.every((flag, i) => Boolean(flag) === Boolean(y[i]));
  if (field.kind === 'bools') return sameFlags(a, b);
  if (field.kind === 'boolMatrix') return a.length === b.length && a.every((row, r) => sameFlags(row, b[r]));
  return false;
}

// ---- reading one value -----------------------------------------------------------------------
// → { ok: true, value, clamped?: true } | { ok: false, key, params }

// (Spreads at most 82 code units: a value may be megabytes long.)
const shorten = (text) => {
  const whole = String(text);
  const chars = [...whole.slice(0, 82)];
  return chars.length > 40 || whole.length > 82 ? `${chars.slice(0, 40).join('')}…` : chars.join('');
};

const fail = (key, params = {}) => ({ ok: false, key, params });

// The kinds readStructuredSteps reads (in steps: a value may be megabytes).
const STRUCTURED = new Set(['matrix', 'bools', 'boolMatrix']);

// A matrix's entries parsed between two steps of the decoder (a few milliseconds' worth).
const ENTRIES_PER_STEP = 1 << 15;

// state: the fields read so far (for a '~' value's textLimit).
function readValue(field, text, state = {}) {
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
      return runSteps(readStructuredSteps(field, text, state));
  }
}

function clampNumber(field, value) {
  const min = field.min ?? -Infinity;
  const max = field.max ?? Infinity;
  if (value < min) return { ok: true, value: min, clamped: true };
  if (value > max) return { ok: true, value: max, clamped: true };
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}

function* readStructuredSteps(field, text, state) {
  if (field.nullable !== false && (text === '' || text === field.nullText)) return { ok: true, value: null };
  let plain = text;
  if (text.startsWith(COMPRESSED)) {
    const packed = text.slice(1);
    if (packed.length > LIMITS.maxCompressed) return fail('share.ignored.tooLong', { length: text.length });
    // Bounded by what it writes: 16 KB of '~' can stand for tens of millions of characters.
    const max = textLimit(field, state);
    const expanded = yield* decompressSteps(packed, max);
    if (!expanded.ok) return expanded.reason === 'tooLong' ? fail('share.ignored.expands', { max }) : fail('share.ignored.malformed');
    plain = expanded.text;
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
  let nextStep = ENTRIES_PER_STEP;
  for (const rowText of rowsText) {
    const fields = rowText.split(',');
    entries += fields.length;
    if (entries > LIMITS.maxEntries) return fail('share.ignored.tooLong', { length: text.length });
    if (entries >= nextStep) {
      nextStep = entries + ENTRIES_PER_STEP;
      yield;
    }
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

// The most characters a value of `field` can have after the fields in `state` (see textLimit).
function textLimit(field, state) {
  const limit = field.textLimit && Number.isInteger(state.dModel) && typeof state.sentence === 'string' ? field.textLimit(state) : NaN;
  if (Number.isFinite(limit) && limit >= 1) return limit;
  if (field.kind === 'bools') return 4096;
  if (field.kind === 'boolMatrix') return LIMITS.maxTokens * 4097;
  return LIMITS.maxEntries * MAX_ENTRY_CHARS;
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

// Splits the fragment into [name, raw value, part] (the name unescaped); a name that is not
// valid %-encoding is reported. At most LIMITS.maxParts parts are read (2 MB of '&' would be a
// million).
function readPairs(text, ignored) {
  const pairs = [];
  let from = 0;
  let parts = 0;
  while (from <= text.length) {
    let end = text.indexOf('&', from);
    if (end < 0) end = text.length;
    const part = text.slice(from, end);
    from = end + 1;
    if (part === '') continue;
    if (++parts > LIMITS.maxParts) {
      let count = parts;
      for (let at = text.indexOf('&', from); at >= 0; at = text.indexOf('&', at + 1)) count += 1;
      ignored.push({ param: '#', key: 'share.ignored.tooManyParts', params: { name: '#', count, max: LIMITS.maxParts } });
      break;
    }
    const eq = part.indexOf('=');
    const name = unescapePart(eq < 0 ? part : part.slice(0, eq));
    if (name === null) {
      ignored.push({ param: shorten(part), key: 'share.ignored.unreadable', params: { value: shorten(part) } });
      continue;
    }
    pairs.push([name, eq < 0 ? '' : part.slice(eq + 1), part]);
  }
  return pairs;
}

// The link's values by name, unescaped when first read: unescaping 2 MB of 'a+a+…' took 100 ms,
// and a value too long for its field need not be (rawLength). A value that is not valid
// %-encoding counts as not given, and is reported (`unreadable(part)`) when first read.
class LinkParams {
  #raw = new Map(); // name → [raw value, part]
  #text = new Map(); // name → text, or null
  #unreadable;
  constructor(unreadable) {
    this.#unreadable = unreadable;
  }
  set(name, raw, part) {
    this.#raw.set(name, [raw, part]);
  }
  /** Whether the link gives `name` (readably, unless `read` is false). */
  has(name, read = true) {
    return this.#raw.has(name) && (!read || this.get(name) !== undefined);
  }
  get(name) {
    if (!this.#raw.has(name)) return undefined;
    if (!this.#text.has(name)) {
      const [raw, part] = this.#raw.get(name);
      const text = unescapePart(raw);
      if (text === null) this.#unreadable(part);
      this.#text.set(name, text);
    }
    return this.#text.get(name) ?? undefined;
  }
  rawLength(name) {
    return this.#raw.get(name)?.[0].length ?? 0;
  }
  raw(name) {
    return this.#raw.get(name)?.[0] ?? '';
  }
  keys() {
    return this.#raw.keys();
  }
  *[Symbol.iterator]() {
    for (const name of this.#raw.keys()) {
      const text = this.get(name);
      if (text !== undefined) yield [name, text];
    }
  }
}

function unescapePart(raw) {
  try {
    // (split and join: a regular expression took 300 ms to replace the million '+' of 2 MB)
    return decodeURIComponent(raw.includes('+') ? raw.split('+').join(' ') : raw);
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
export function decodeHash(hash, options) {
  return runSteps(decodeSteps(hash, options));
}

/**
 * decodeHash in steps: a generator that yields every few milliseconds of work and returns what
 * decodeHash returns, for a page that reads a long link without blocking (runSliced, views/idle.js).
 */
export function* decodeSteps(hash, { fields = ALL_FIELDS } = {}) {
  const ignored = [];
  const noted = new Set(); // params said something about already
  const note = (param, key, params = {}) => {
    noted.add(param);
    ignored.push({ param, key, params: { name: param, ...params } });
  };
  let text = typeof hash === 'string' ? hash : '';
  if (text.startsWith('#')) text = text.slice(1);
  if (text.length > LIMITS.maxHash) {
    note('#', 'share.ignored.linkTooLong', { length: text.length });
    text = '';
  }

  // First occurrence of each name wins. Values are unescaped when read (see LinkParams).
  let params = new LinkParams((part) => ignored.push({ param: shorten(part), key: 'share.ignored.unreadable', params: { value: shorten(part) } }));
  for (const [name, raw, part] of readPairs(text, ignored)) {
    if (params.has(name, false)) note(shorten(name), 'share.ignored.duplicate');
    else params.set(name, raw, part);
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
    params = migrate(new Map(params), version);
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
    if (field.kind === 'string' && params.rawLength?.(field.param) > 9 * (field.maxLength ?? LIMITS.maxSentence)) {
      // Too long whatever it unescapes to (a character is at most 9 characters of %-encoding).
      const length = params.rawLength(field.param);
      note(field.param, 'share.ignored.tooLong', { value: shorten(params.raw(field.param)), length });
    } else if (params.has(field.param)) {
      const written = params.get(field.param);
      const read = STRUCTURED.has(field.kind) ? yield* readStructuredSteps(field, written, state) : readValue(field, written, state);
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
    if (params.has(field.param, false)) yield;
  }
  // (A value the link gave that was refused above is not said again to be "fitted".)
  const given = { has: (param) => params.has(param, false) && !noted.has(param) };
  if (fields.some((field) => LESSON_KEYS.has(field.key))) fitLesson(state, presetId, given, note);
  if (fields.some((field) => STRUCTURE_KEYS.has(field.key))) fitStructure(state, presetId, given, note);
  yield;

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
  for (const name of params.keys()) {
    if (!name.endsWith('_hide') || !params.has(name)) continue;
    const written = params.get(name);
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
  const draft = stateToDraft(state); // (its embeddingsText is written when first read)
  for (const [key, value] of Object.entries(state)) if (!CORE_KEYS.has(key) && !Object.hasOwn(draft, key)) draft[key] = value;
  return draft;
}

const CORE_KEYS = new Set(FIELDS.map((field) => field.key).filter((key) => key !== 'mask'));
// (STRUCTURE_KEYS is defined with fitStructure above.)
const LESSON_KEYS = new Set(LESSON_TABLE.map((field) => field.key).filter((key) => !CORE_KEYS.has(key)));

const STRUCTURE_KEYS = new Set(STRUCTURE_TABLE.map((field) => field.key));

// The rules of the head split and cross-attention fields (validateStructure, heads/structure-fields.js):
// kvHeads becomes a divisor of heads, the source padding follows the source; a source that is
// empty or too long goes back to the preset's, and cross-attention off if that fails too.
function fitStructure(state, presetId, params, note) {
  const fieldOf = (key) => STRUCTURE_TABLE.find((f) => f.key === key);
  const keys = [...STRUCTURE_KEYS];
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
    let culprits = STRUCTURE_TABLE.filter((f) => f.param === problem?.name).map((f) => f.key);
    if (key === 'heads.error.noSource' || key === 'heads.error.sourceTooMany') {
      culprits = sameValue(fieldOf('source'), state.source, baseValue(fieldOf('source'), presetId)) ? ['cross'] : ['source'];
    }
    const reset = culprits.length > 0 ? culprits : keys;
    note(fieldOf(reset[0]).param, key, { ...problem });
    for (const name of reset) state[name] = name === 'cross' ? false : baseValue(fieldOf(name), presetId);
  }
  for (const key of keys) state[key] = STRUCTURE_DEFAULTS[key] ?? null;
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
  return linkOf(runSteps(encodeStateSteps({ presetId, state }, { fields })), { lang, view });
}

/**
 * The expensive half of encodeHash in steps (a generator that yields every few milliseconds of
 * work, like decodeSteps): the state's values as link text. → parts for linkOf, which adds the
 * language and the view (the address and the embed link differ only there).
 */
export function* encodeStateSteps({ presetId, state }, { fields = ALL_FIELDS } = {}) {
  const id = Object.hasOwn(PRESETS, presetId) ? presetId : DEFAULT_PRESET;
  const written = [];
  for (const field of fields) {
    if (!Object.hasOwn(state, field.key)) continue;
    const value = state[field.key];
    if (sameValue(field, value, baseValue(field, id))) continue;
    written.push([field.param, yield* linkTextSteps(field, value)]);
  }
  return { id, written, fields };
}


/** Whether `state` is its preset's as loaded (encodeHash would write only the preset). */
export function isPresetState(presetId, state, { fields = ALL_FIELDS } = {}) {
  const id = Object.hasOwn(PRESETS, presetId) ? presetId : DEFAULT_PRESET;
  return fields.every((field) => !Object.hasOwn(state, field.key) || sameValue(field, state[field.key], baseValue(field, id)));
}

/** The link of encodeStateSteps's parts with a language and a view (see encodeHash). */
export function linkOf(state, options) {
  const parts = linkParts(state, options);
  return parts.length ? `#${parts.map((part) => (typeof part === 'string' ? part : `${part.param}=${part.value}`)).join('&')}` : '';
}

/** The length of linkOf(parts, options), without making it (a matrix's text may be megabytes). */
export function linkLength(state, options) {
  const parts = linkParts(state, options);
  return parts.reduce((sum, part) => sum + 1 + (typeof part === 'string' ? part.length : part.param.length + 1 + part.value.length), 0);
}

// The link's name=value parts in order: strings, and { param, value } for the state's values.
function linkParts({ id, written, fields }, { lang = null, view = {} } = {}) {
  const parts = [];
  if (id !== DEFAULT_PRESET) parts.push(`preset=${escapeValue(id)}`);
  const hideable = [...fields.map((field) => field.key), ...PAGE_PARTS];
  const hidden = new Set(view.hidden ?? []);
  const viewParts = [];
  if (view.embed) viewParts.push('embed=1');
  for (const name of hideable) if (hidden.has(name)) viewParts.push(`${name}_hide=1`);
  if (written.length > 0 || viewParts.length > 0) parts.push(`v=${SCHEMA_VERSION}`);
  for (const [param, value] of written) parts.push({ param, value });
  if (lang) parts.push(`lang=${escapeValue(lang)}`);
  parts.push(...viewParts);
  return parts;
}
