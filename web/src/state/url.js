// The link codec: the page's state ⇄ the URL fragment (#…, which browsers never send to a
// server). The fields are the schema's typed table (schema.js), from which reading, writing and
// the tests' random states derive, as tensorflow/playground's state.ts does. No DOM here.
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
import { LANGUAGES } from '../i18n/index.js';
import { DEFAULT_PRESET, PRESETS } from './presets.js';
import { stateToDraft, structureDraftOf } from './draft.js';
import { compressSteps, decompressSteps, runSteps } from './lz-bounded.js';
import {
  ALL_FIELDS,
  formatFloat32,
  formatValue,
  impliedView,
  LIMITS,
  MAX_ENTRY_CHARS,
  PAGE_PARTS,
  readValue,
  readValueSteps,
  RESERVED,
  SCHEMA_VERSION,
  STRUCTURED,
  sentenceTokens,
  WEIGHT_KEYS,
} from './schema.js';
import { validateLesson, validateStructure } from './validate.js';

// The codec's public names that the schema defines (so that a link's reader imports one module).
export { ALL_FIELDS, FIELDS, formatFloat32, LIMITS, PAGE_PARTS, SCHEMA_VERSION } from './schema.js';

// What `<name>_hide=1` accepts: every field's key and every page part.
export const HIDEABLE = Object.freeze([...ALL_FIELDS.map((field) => field.key), ...PAGE_PARTS]);

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

// Matrix entries compare as float32: the link keeps what the engine sees.
function sameFloat32Matrix(a, b) {
  if (a.length !== b.length) return false;
  return a.every((row, r) => row.length === b[r].length && row.every((v, c) => Math.fround(v) === Math.fround(b[r][c])));
}

// ---- values as text --------------------------------------------------------------------------

const COMPRESSED = '~';

// The value as it appears in the link (already escaped), in steps. A long matrix that does not
// compress comes as a JoinedText: its rows are joined only if the whole link is asked for (the
// address takes links of up to 64 K characters, and a large matrix's text is megabytes).
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
    plain = formatValue(field, value);
    escaped = escapeValue(plain);
    length = escaped.length;
  }
  if (packs(field) && length >= 256) {
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

// A matrix row's text in a link, kept by row: writing every entry of a large X anew each time the
// address is written would take seconds. Kept with the row's float32 values: a row changed in
// place is written anew.
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

// (Spreads at most 82 code units: a value may be megabytes long.)
const shorten = (text) => {
  const whole = String(text);
  const chars = [...whole.slice(0, 82)];
  return chars.length > 40 || whole.length > 82 ? `${chars.slice(0, 40).join('')}…` : chars.join('');
};

// A value's text in the link, a '~' one expanded first (state: the fields read so far, for its
// textLimit). → readValueSteps's result (schema.js)
function* readLinkValueSteps(field, text, state) {
  if (!packs(field) || !text.startsWith(COMPRESSED)) return yield* readValueSteps(field, text);
  const packed = text.slice(1);
  if (packed.length > LIMITS.maxCompressed) return fail('share.ignored.tooLong', { length: text.length });
  // Bounded by what it writes: 16 KB of '~' can stand for tens of millions of characters.
  const max = textLimit(field, state);
  const expanded = yield* decompressSteps(packed, max);
  if (expanded.ok) return yield* readValueSteps(field, expanded.text);
  return expanded.reason === 'tooLong' ? fail('share.ignored.expands', { max }) : fail('share.ignored.malformed');
}

const fail = (key, params = {}) => ({ ok: false, key, params });

// Whether a value of `field` may be written compressed ('~').
const packs = (field) => STRUCTURED.has(field.kind) || Boolean(field.compressible);

// The most characters a value of `field` can have after the fields in `state` (see textLimit).
function textLimit(field, state) {
  if (field.kind === 'string') return field.maxLength;
  const limit = field.textLimit && Number.isInteger(state.dModel) && typeof state.sentence === 'string' ? field.textLimit(state) : NaN;
  if (Number.isFinite(limit) && limit >= 1) return limit;
  if (field.kind === 'bools') return 4096;
  if (field.kind === 'boolMatrix') return LIMITS.maxTokens * 4097;
  return LIMITS.maxEntries * MAX_ENTRY_CHARS;
}

// The field's rules against the fields read before it: null, or { key, params }.
function checkValue(field, value, state) {
  if (field.shape && value !== null && value !== undefined) {
    const [wantRows, wantCols] = field.shape(state);
    const rows = value.length;
    const cols = rows > 0 ? value[0].length : 0;
    if (rows !== wantRows || cols !== wantCols) return { key: 'share.ignored.shape', params: { rows, cols, wantRows, wantCols } };
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

// The link's values by name, unescaped when first read: unescaping megabytes is slow, and a value
// too long for its field need not be (rawLength). A value that is not valid
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
    // (split and join: far faster than a regular expression on megabytes of '+')
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
 * decodeHash returns, for a page that reads a long link without blocking (runSliced, render/scheduler.js).
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
      const read = yield* readLinkValueSteps(field, written, state);
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
  for (const group of ['lesson', 'structure']) if (fields.some((field) => field.group === group)) fitGroup(group, state, presetId, given, note);
  if (Object.hasOwn(state, 'view') && !params.has('view', false)) state.view = impliedView([...params.keys()].filter(given.has));
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
// values, the structure's fields (its embeddingsText is written when first read).
export const draftOf = (state) => Object.assign(stateToDraft(state), structureDraftOf(state));

// The rules across the fields of a group (validate.js): they fit what they can (head, row and
// cell in range, padding and the custom mask to T, kvHeads to a divisor of heads, …) and refuse
// the rest. A refused value goes back to the preset's and the rules run again; what changed a
// value the link gave is reported.
const RULES = {
  lesson: (state) => {
    const checked = validateLesson(state, { T: sentenceTokens(state).length, dModel: state.dModel, heads: state.heads });
    return checked.ok ? { ok: true, values: checked.lesson } : checked;
  },
  structure: (state) => {
    const checked = validateStructure(state, { heads: state.heads, maxTokens: LIMITS.maxTokens });
    return checked.ok ? { ok: true, values: checked.fields } : checked;
  },
};
// The fields a refusal is about, when its params do not name one.
const CULPRITS = {
  'lesson.error.window': ['window'],
  'lesson.error.prefix': ['prefix'],
  'lesson.error.temperature': ['temperature'],
  'lesson.error.weights': WEIGHT_KEYS,
  'heads.error.noSource': ['source'],
  'heads.error.sourceTooMany': ['source'],
  'modern.error.cross': ['positional', 'alibi'],
};

function fitGroup(group, state, presetId, params, note) {
  const fields = ALL_FIELDS.filter((field) => field.group === group);
  const fieldOf = (key) => fields.find((field) => field.key === key);
  for (let attempt = 0; attempt <= fields.length + 1; attempt += 1) {
    const checked = RULES[group](state);
    if (checked.ok) {
      const fitted = checked.values;
      // Edited weights are d_model × d_model (the lesson's editor); shared key/value heads need
      // W_K and W_V of d_model × (kvHeads·d_k). The edited numbers win; kvHeads goes back to 0.
      const said = fitted.kvHeads > 0 && fitted.kvHeads !== state.heads && state.wq;
      if (said) {
        note(fieldOf('kvHeads').param, 'share.ignored.kvWeights', { value: fitted.kvHeads, used: 0 });
        fitted.kvHeads = 0;
      }
      for (const field of fields) {
        const value = fitted[field.key];
        if (params.has(field.param) && !(said && field.key === 'kvHeads') && !sameValue(field, value, state[field.key])) {
          note(field.param, 'share.ignored.fitted', { value: describe(field, state[field.key]), used: describe(field, value) });
        }
        state[field.key] = value;
      }
      return;
    }
    const { key, params: problem } = checked.error;
    let culprits = CULPRITS[key] ?? fields.filter((field) => field.param === problem?.name).map((field) => field.key);
    // A source that fails at the preset's value turns cross-attention off instead.
    if (culprits[0] === 'source' && sameValue(fieldOf('source'), state.source, baseValue(fieldOf('source'), presetId))) culprits = ['cross'];
    if (culprits.length === 0) culprits = fields.map((field) => field.key);
    note(fieldOf(culprits[0]).param, key, { ...problem });
    for (const name of culprits) state[name] = name === 'cross' ? false : baseValue(fieldOf(name), presetId);
  }
  // Still refused with every field at the preset's value: the defaults.
  for (const field of fields) state[field.key] = field.default;
}

function repaired(field, state, value) {
  if (field.repair) return field.repair(state, value);
  if (STRUCTURED.has(field.kind)) return null;
  return field.default ?? value;
}

// A value as a message shows it: numbers and words as they are, a matrix as 'rows × cols'.
function describe(field, value) {
  if (value === null || value === undefined) return field.nullText || '—';
  if (field.kind === 'matrix') return `${value.length} × ${value[0]?.length ?? 0}`;
  if (STRUCTURED.has(field.kind)) return shorten(formatValue(field, value));
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
    // (the view is written when it is not the one the link's other params point to)
    const base = field.key === 'view' ? impliedView(written.map(([param]) => param)) : baseValue(field, id);
    if (sameValue(field, value, base)) continue;
    written.push([field.param, yield* linkTextSteps(field, value)]);
  }
  return { id, written, fields };
}

/** Whether `state` computes what its preset as loaded does: where the reader looks (a field's
 *  `look`) does not count, unless `fields` says otherwise. */
export function isPresetState(presetId, state, { fields = ALL_FIELDS.filter((field) => !field.look) } = {}) {
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
