// An exercise as the link carries it (the `ex` field): JSON text of a title, the state it is
// about (`state`, pinned-state.js) and questions, each one of
//   { kind: 'number', cell: 'weights.1.2.1', tolerance?: 0.01, prompt?, hint? }   predict an entry
//   { kind: 'pattern', row: 'weights.1.2' | 'mask.2', find: 'zeros' | 'largest', prompt?, hint? }
//   { kind: 'choice', prompt, options: [text, …], check: hash, hint? }
// where a text is a string or { en, 'zh-CN' }. No number the core computes is in it: the page
// takes the answers of 'number' and 'pattern' from the engine's result. A choice's right option
// travels as a hash of its index and the options (`check`, choiceCheck), so that the link on the
// page does not show it; a hand-written link may give `answer: index` instead. Read defensively: a
// hostile link opens with its valid questions and a problem for each one left out. No DOM.
import { EXERCISE_LIMITS, formatCellRef, parseCellRef } from '../state/schema.js';

const DEFAULT_TOLERANCE = EXERCISE_LIMITS.defaultTolerance;
const LANGS = ['en', 'zh-CN'];
const PATTERN_FINDS = { weights: ['zeros', 'largest'], mask: ['zeros'] };

/** A short, stable hash of a text (FNV-1a, 32 bits, as 8 hex digits). */
export function textHash(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The `check` of a choice whose right option is `index` among `options` (read as texts). */
export const choiceCheck = (index, options) => textHash(`${index}|${JSON.stringify(options.map((o) => [o.en ?? '', o['zh-CN'] ?? '']))}`);

/** A text of the link as { en?, 'zh-CN'? } of strings, or null if it is not one. */
function readText(value) {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return value.length <= EXERCISE_LIMITS.textChars ? { en: value } : null;
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  const text = {};
  for (const lang of LANGS) {
    const s = value[lang];
    if (s === undefined) continue;
    if (typeof s !== 'string' || s.length > EXERCISE_LIMITS.textChars) return null;
    text[lang] = s;
  }
  return text;
}

/** A text in `lang`, else in the other language, else ''. */
export const textIn = (text, lang) => text?.[lang] ?? text?.en ?? text?.['zh-CN'] ?? '';

// 'weights.1.2' (head 1, row 2) or 'mask.2' → { name, head, row } 0-based, or null.
export function parseRowRef(textValue) {
  const parts = String(textValue ?? '').split('.');
  const numbers = parts.slice(1).map((p) => (/^\d{1,6}$/.test(p) && Number(p) >= 1 ? Number(p) - 1 : -1));
  if (numbers.some((n) => n < 0)) return null;
  if (parts[0] === 'weights' && numbers.length === 2) return { name: 'weights', head: numbers[0], row: numbers[1] };
  if (parts[0] === 'mask' && numbers.length === 1) return { name: 'mask', head: null, row: numbers[0] };
  return null;
}

export const formatRowRef = ({ name, head, row }) => (head === null ? `${name}.${row + 1}` : `${name}.${head + 1}.${row + 1}`);

function readQuestion(q) {
  if (!q || typeof q !== 'object' || Array.isArray(q)) return null;
  const prompt = readText(q.prompt);
  const hint = readText(q.hint);
  if (!prompt || !hint) return null;
  if (q.kind === 'number') {
    const cell = parseCellRef(q.cell);
    if (!cell || cell.name.startsWith('cmp-')) return null;
    const tolerance = q.tolerance === undefined ? DEFAULT_TOLERANCE : q.tolerance;
    if (typeof tolerance !== 'number' || !(tolerance >= 0 && tolerance <= EXERCISE_LIMITS.maxTolerance)) return null;
    return { kind: 'number', cell, tolerance, prompt, hint };
  }
  if (q.kind === 'pattern') {
    const row = parseRowRef(q.row);
    const find = q.find ?? 'zeros';
    if (!row || !PATTERN_FINDS[row.name].includes(find)) return null;
    return { kind: 'pattern', row, find, prompt, hint };
  }
  if (q.kind === 'choice') {
    if (!Array.isArray(q.options) || q.options.length < 2 || q.options.length > EXERCISE_LIMITS.options) return null;
    const options = q.options.map(readText);
    if (options.some((o) => !o || !textIn(o, 'en'))) return null;
    const answer = q.answer !== undefined ? q.answer : options.findIndex((_, k) => choiceCheck(k, options) === q.check);
    if (!Number.isInteger(answer) || answer < 0 || answer >= options.length || !textIn(prompt, 'en')) return null;
    return { kind: 'choice', prompt, options, answer, hint };
  }
  return null;
}

/**
 * The exercise a link's `ex` text describes → { exercise: { title, questions } | null, problems }
 * where problems are { key, params } for the page to say (questions left out, a text that is not
 * an exercise). Never throws.
 */
export function readExercise(text) {
  if (typeof text !== 'string' || text === '') return { exercise: null, problems: [] };
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { exercise: null, problems: [{ key: 'exercise.problem.notExercise', params: {} }] };
  }
  if (!data || typeof data !== 'object' || !Array.isArray(data.questions)) {
    return { exercise: null, problems: [{ key: 'exercise.problem.notExercise', params: {} }] };
  }
  const problems = [];
  const given = data.questions.length;
  if (given > EXERCISE_LIMITS.questions) problems.push({ key: 'exercise.problem.tooMany', params: { n: given, max: EXERCISE_LIMITS.questions } });
  const questions = [];
  data.questions.slice(0, EXERCISE_LIMITS.questions).forEach((q, i) => {
    const read = readQuestion(q);
    if (read)
      questions.push({ ...read, place: i }); // (its place in the link names it)
    else problems.push({ key: 'exercise.problem.question', params: { n: i + 1 } });
  });
  const title = readText(data.title) ?? {};
  // (a link of an older page has no state: the page pins the one it opened with)
  const state = typeof data.state === 'string' ? data.state : null;
  return { exercise: questions.length ? { title, state, questions } : null, problems };
}

const writeTextValue = (text) =>
  text && Object.keys(text).length ? (Object.keys(text).length === 1 && text.en !== undefined ? text.en : text) : undefined;

/** The `ex` text of an exercise (readExercise's inverse, up to the order of fields). */
export function writeExercise({ title = {}, state = null, questions }) {
  const out = {
    title: writeTextValue(title),
    state: state ?? undefined,
    questions: questions.map((q) => {
      const common = { prompt: writeTextValue(q.prompt), hint: writeTextValue(q.hint) };
      if (q.kind === 'number') return { kind: 'number', cell: formatCellRef(q.cell), tolerance: q.tolerance, ...common };
      if (q.kind === 'pattern') return { kind: 'pattern', row: formatRowRef(q.row), find: q.find, ...common };
      return { kind: 'choice', ...common, options: q.options.map(writeTextValue), check: choiceCheck(q.answer, q.options) };
    }),
  };
  return JSON.stringify(out);
}

/**
 * The questions whose cells lie in `result` (its heads, tokens and d_model), and one problem per
 * question left out. Run on every result: an exercise of 6 tokens opened on 3 keeps what fits.
 */
export function questionsInRange(exercise, result) {
  const kept = [];
  const problems = [];
  exercise.questions.forEach((q, i) => {
    const ok = q.kind === 'choice' || fits(q, result);
    if (ok) kept.push({ question: q, index: i });
    else problems.push({ key: 'exercise.problem.range', params: { n: q.place + 1 } });
  });
  return { kept, problems };
}

function fits(q, result) {
  const { name, head, row } = q.kind === 'number' ? q.cell : q.row;
  if (head !== null && head >= result.heads) return false;
  const matrix = matrixOf(result, { name, head });
  if (!matrix || row >= matrix.rows) return false;
  return q.kind === 'pattern' || q.cell.col < matrix.cols;
}

/** The matrix a cell or row names in a result; QKᵀ (`dots`) has the shape of the scores. */
export function matrixOf(result, { name, head }) {
  if (head === null) return result[name] ?? result.weights?.[name] ?? null;
  return result.perHead[head]?.[name === 'dots' ? 'scores' : name] ?? null;
}
