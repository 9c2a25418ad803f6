// The lesson's page-state fields, in the shape of FIELDS in web/src/state/url.js
// ({ key, param, kind, values? }), for the address codec to merge. The values live in the same
// state object as the other fields (see lesson-state.js); all are plain JSON values.
//
// Merging notes for the codec:
// - `mask` replaces the entry of the same key in url.js FIELDS (same param, five kinds now).
// - Kinds already in the codec: 'string', 'int', 'enum', 'bool', 'matrix' (null = not edited,
//   i.e. the weights come from the generator). New kinds, with encodeLessonValue /
//   decodeLessonValue below doing the text form:
//     'float'      a finite number, written like the matrix entries (at most 4 decimals)
//     'bools'      boolean[] or null, one '0'/'1' per token: "00110"
//     'boolMatrix' boolean[][] or null, rows of '0'/'1' joined by '.': "011.001.000"
//   Compare 'bools', 'boolMatrix' and 'matrix' values by their encoded text, not with ===.
// - Whatever text the address holds, validateLesson() (lesson-state.js) accepts it or names the
//   problem, so the codec may hand raw strings through in the draft.
// - `head`, `row` and `cell` are 1-based, like the course's notation (s₂₁ is row 2, column 1).
import { formatNumber, parseDecimal } from '../state/parse.js';
import { STEP_IDS } from './steps.js';

export const MASK_KINDS = Object.freeze(['causal', 'none', 'window', 'prefix', 'custom']);
export const FILL_VALUES = Object.freeze(['-inf', '-1e9', '0']);
export const WEIGHT_KEYS = Object.freeze(['wq', 'wk', 'wv', 'wo']);

export const LESSON_FIELDS = Object.freeze([
  { key: 'step', param: 'step', kind: 'enum', values: STEP_IDS },
  { key: 'head', param: 'head', kind: 'int' },
  { key: 'row', param: 'row', kind: 'int' },
  { key: 'cell', param: 'cell', kind: 'string' },
  { key: 'mask', param: 'mask', kind: 'enum', values: MASK_KINDS },
  { key: 'window', param: 'win', kind: 'int' },
  { key: 'prefix', param: 'pre', kind: 'int' },
  { key: 'padding', param: 'pad', kind: 'bools' },
  { key: 'customMask', param: 'cm', kind: 'boolMatrix' },
  { key: 'maskFill', param: 'fill', kind: 'enum', values: FILL_VALUES },
  { key: 'maskBeforeScale', param: 'mbs', kind: 'bool' },
  { key: 'temperature', param: 'tau', kind: 'float' },
  { key: 'naive', param: 'naive', kind: 'bool' },
  { key: 'compare', param: 'cmp', kind: 'bool' },
  { key: 'wq', param: 'wq', kind: 'matrix' },
  { key: 'wk', param: 'wk', kind: 'matrix' },
  { key: 'wv', param: 'wv', kind: 'matrix' },
  { key: 'wo', param: 'wo', kind: 'matrix' },
]);

// The lesson part of a preset's state when it sets nothing special.
export const LESSON_DEFAULTS = Object.freeze({
  step: 'all',
  head: 1,
  row: 1,
  cell: '',
  mask: 'causal',
  window: 3,
  prefix: 2,
  padding: null,
  customMask: null,
  maskFill: '-inf',
  maskBeforeScale: false,
  temperature: 1,
  naive: false,
  compare: false,
  wq: null,
  wk: null,
  wv: null,
  wo: null,
});

const bit = (value) => (value ? '1' : '0');

/** The address text of a lesson value (for the kinds the codec does not know yet). */
export function encodeLessonValue(field, value) {
  switch (field.kind) {
    case 'float':
      return formatNumber(value);
    case 'bools':
      return value ? value.map(bit).join('') : '';
    case 'boolMatrix':
      return value ? value.map((row) => row.map(bit).join('')).join('.') : '';
    case 'matrix':
      return value ? value.map((row) => row.map(formatNumber).join(',')).join(';') : '';
    case 'bool':
      return value ? '1' : '0';
    default:
      return String(value);
  }
}

/**
 * The value of an address text, or undefined when the text cannot be read (validation then
 * reports it). '' reads as null for the nullable kinds.
 */
export function decodeLessonValue(field, text) {
  const s = String(text);
  switch (field.kind) {
    case 'float':
      return parseDecimal(s.trim()) ?? undefined;
    case 'int':
      return /^\s*\d{1,9}\s*$/.test(s) ? Number(s) : undefined;
    case 'bool':
      if (s === '1' || s === 'true') return true;
      if (s === '0' || s === 'false') return false;
      return undefined;
    case 'bools':
      if (s === '') return null;
      return /^[01]+$/.test(s) ? [...s].map((c) => c === '1') : undefined;
    case 'boolMatrix':
      if (s === '') return null;
      return /^[01]+(\.[01]+)*$/.test(s) ? s.split('.').map((row) => [...row].map((c) => c === '1')) : undefined;
    case 'matrix': {
      if (s === '' || s === 'token') return null;
      const rows = s.split(';').map((row) => row.split(',').map((entry) => parseDecimal(entry.trim())));
      return rows.every((row) => row.every((v) => v !== null)) ? rows : undefined;
    }
    case 'enum':
      return field.values.includes(s) ? s : undefined;
    default:
      return s;
  }
}
