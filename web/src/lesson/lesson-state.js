// The lesson's part of the page state: checking it (whatever the address held), fitting it to
// the current T, d_model and heads, and turning it into engine options. Pure functions, no DOM.
import { decodeLessonValue, LESSON_DEFAULTS, LESSON_FIELDS, WEIGHT_KEYS } from './lesson-fields.js';
import { STEP_IDS } from './steps.js';

const MIN_TEMPERATURE = 0.01; // the engine's range (attention.d.ts)
const MAX_TEMPERATURE = 100;
const MAX_WIDTH = 100000; // window and prefix: any larger value means "everything" anyway

const FIELD_BY_KEY = Object.fromEntries(LESSON_FIELDS.map((f) => [f.key, f]));

// Matrix names a cell reference may use; per-head ones carry a head number.
const MODEL_NAMES = new Set(['x', 'wq', 'wk', 'wv', 'wo', 'q', 'k', 'v', 'mask', 'concat', 'output']);
const HEAD_NAMES = new Set(['q', 'k', 'v', 'dots', 'scores', 'masked', 'exps', 'weights', 'context', 'cmp-weights', 'cmp-context']);

/** A cell as text, 1-based like the course's notation: 'scores.1.2.1' (head 1, s₂₁), 'x.2.1'. */
export function formatCellRef({ name, head = null, row, col }) {
  return head === null ? `${name}.${row + 1}.${col + 1}` : `${name}.${head + 1}.${row + 1}.${col + 1}`;
}

/** The inverse of formatCellRef, 0-based: { name, head (null for model matrices), row, col } or null. */
export function parseCellRef(text) {
  const parts = String(text ?? '').split('.');
  const name = parts[0];
  const numbers = parts.slice(1).map((p) => (/^\d{1,6}$/.test(p) ? Number(p) - 1 : -1));
  if (numbers.some((n) => n < 0)) return null;
  if (numbers.length === 2 && MODEL_NAMES.has(name)) return { name, head: null, row: numbers[0], col: numbers[1] };
  if (numbers.length === 3 && HEAD_NAMES.has(name)) return { name, head: numbers[0], row: numbers[1], col: numbers[2] };
  return null;
}

// The shape of each matrix for a cell reference to be in range.
function shapeOf(name, { T, dModel }) {
  if (['x', 'q', 'k', 'v', 'concat', 'output'].includes(name)) return [T, dModel];
  if (['wq', 'wk', 'wv', 'wo'].includes(name)) return [dModel, dModel];
  return [T, T];
}

function cellInRange(ref, ctx) {
  if (!ref) return false;
  if (ref.head !== null && ref.head >= ctx.heads) return false;
  let [rows, cols] = shapeOf(ref.name, ctx);
  if (ref.head !== null && ['q', 'k', 'v', 'context', 'cmp-context'].includes(ref.name)) cols = ctx.dModel / ctx.heads;
  // Keys (columns of T × T matrices, rows of K and V) may be a source's in cross-attention, whose
  // length this state does not know: those are checked against the result when shown.
  if (cols === ctx.T) cols = Infinity;
  if (['k', 'v'].includes(ref.name)) rows = Infinity;
  return ref.row < rows && ref.col < cols;
}

// boolean[] to length n (new entries false); null when nothing is set.
export function fitFlags(flags, n) {
  if (!flags) return null;
  const fitted = Array.from({ length: n }, (_, i) => Boolean(flags[i]));
  return fitted.some(Boolean) ? fitted : null;
}

// boolean[][] to n × n (new entries false).
export function fitGrid(grid, n) {
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Boolean(grid?.[i]?.[j])));
}

const isFiniteMatrix = (m) => Array.isArray(m) && m.every((row) => Array.isArray(row) && row.every((v) => typeof v === 'number' && Number.isFinite(v)));

function typed(field, raw) {
  // A value from the address is text; from the page it is already typed.
  if (typeof raw === 'string' && field.kind !== 'string' && field.kind !== 'enum') return decodeLessonValue(field, raw);
  switch (field.kind) {
    case 'int':
      return Number.isInteger(raw) ? raw : undefined;
    case 'float':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
    case 'bool':
      return typeof raw === 'boolean' ? raw : undefined;
    case 'bools':
      return raw === null || (Array.isArray(raw) && raw.every((v) => typeof v === 'boolean')) ? raw : undefined;
    case 'boolMatrix':
      return raw === null || (Array.isArray(raw) && raw.every((r) => Array.isArray(r) && r.every((v) => typeof v === 'boolean'))) ? raw : undefined;
    case 'matrix':
      return raw === null || isFiniteMatrix(raw) ? raw : undefined;
    case 'enum':
      return field.values.includes(raw) ? raw : undefined;
    default:
      return typeof raw === 'string' ? raw : undefined;
  }
}

/**
 * draft: any object holding the lesson fields (typed values, or text from the address; missing
 * ones take LESSON_DEFAULTS). ctx: { T, dModel, heads } of the valid rest of the state.
 * → { ok: true, lesson } with every field fitted to ctx, or { ok: false, error: { key, params } }.
 * Fitting never fails: head, row and the selected cell are kept in range, padding and the
 * custom mask follow T, edited weights of another d_model are dropped.
 */
export function validateLesson(draft, ctx) {
  const lesson = {};
  for (const field of LESSON_FIELDS) {
    const raw = draft[field.key];
    if (raw === undefined) {
      lesson[field.key] = LESSON_DEFAULTS[field.key];
      continue;
    }
    const value = typed(field, raw);
    if (value === undefined) {
      return { ok: false, error: { key: 'lesson.error.value', params: { name: field.param, text: String(raw).slice(0, 40) } } };
    }
    lesson[field.key] = value;
  }
  const { T, dModel, heads } = ctx;

  if (!STEP_IDS.includes(lesson.step)) lesson.step = 'all';
  lesson.head = Math.min(Math.max(1, lesson.head), heads);
  lesson.row = Math.min(Math.max(1, lesson.row), T);
  if (lesson.cell !== '' && !cellInRange(parseCellRef(lesson.cell), ctx)) lesson.cell = '';

  if (lesson.window < 1 || lesson.window > MAX_WIDTH) {
    return { ok: false, error: { key: 'lesson.error.window', params: { T } } };
  }
  if (lesson.prefix > MAX_WIDTH) return { ok: false, error: { key: 'lesson.error.prefix', params: { T } } };
  if (!(lesson.temperature >= MIN_TEMPERATURE && lesson.temperature <= MAX_TEMPERATURE)) {
    return { ok: false, error: { key: 'lesson.error.temperature', params: { min: MIN_TEMPERATURE, max: MAX_TEMPERATURE } } };
  }
  lesson.padding = fitFlags(lesson.padding, T);
  if (lesson.customMask || lesson.mask === 'custom') lesson.customMask = fitGrid(lesson.customMask, T);

  // Edited weights come as all four or none; another d_model's edits no longer fit.
  const given = WEIGHT_KEYS.filter((key) => lesson[key] !== null);
  if (given.length > 0 && given.length < WEIGHT_KEYS.length) {
    return { ok: false, error: { key: 'lesson.error.weights', params: {} } };
  }
  const fits = (m) => m.length === dModel && m.every((row) => row.length === dModel);
  if (given.length > 0 && !WEIGHT_KEYS.every((key) => fits(lesson[key]))) {
    for (const key of WEIGHT_KEYS) lesson[key] = null;
  }
  return { ok: true, lesson };
}

/** The lesson fields of a valid state, as draft values (they are already plain values). */
export function lessonDraftOf(state) {
  const draft = {};
  for (const field of LESSON_FIELDS) draft[field.key] = state[field.key] ?? LESSON_DEFAULTS[field.key];
  return draft;
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
  if (state.wq) config.weights = { wq: state.wq, wk: state.wk, wv: state.wv, wo: state.wo };
  return config;
}

export { FIELD_BY_KEY };
