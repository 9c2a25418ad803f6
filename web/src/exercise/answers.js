// Checking a learner's answer against the engine's numbers. The values come from the result the
// page computed (never from the link); a 'dots' entry from the run without scaling. No DOM.
import { parseDecimal } from '../state/parse.js';
import { matrixOf } from './exercise-text.js';

const at = (m, r, c) => m.data[r * m.cols + c];

/** The core's value of a number question's cell: result, and `dots` (the unscaled run) for QKᵀ. */
export function expectedNumber(question, result, dots) {
  const { cell } = question;
  const source = cell.name === 'dots' ? dots : result;
  const matrix = source && matrixOf(source, cell.name === 'dots' ? { name: 'scores', head: cell.head } : cell);
  return matrix ? at(matrix, cell.row, cell.col) : Number.NaN;
}

/** Per key of a pattern question's row: whether it is one the question asks for. */
export function expectedPattern(question, result) {
  const matrix = matrixOf(result, question.row);
  const row = Array.from({ length: matrix.cols }, (_, c) => at(matrix, question.row.row, c));
  if (question.row.name === 'mask') return row.map((m) => m !== 0); // the masked keys
  if (question.find === 'zeros') return row.map((a) => a === 0);
  const top = Math.max(...row);
  return row.map((a) => a === top);
}

/**
 * A number answer as typed → { ok: false, reason: 'notNumber' } or { ok: true, correct, value }.
 * The tolerance is the teacher's, on the absolute difference.
 */
export function checkNumber(question, typed, expected) {
  // (One comma between digits is a decimal comma, as many learners write it: "0,55".)
  const text = String(typed ?? '')
    .trim()
    .replace(/^([−-]?\d+),(\d+)$/, '$1.$2');
  const value = parseDecimal(text);
  if (value === null) return { ok: false, reason: 'notNumber' };
  return { ok: true, value, correct: Math.abs(value - expected) <= question.tolerance + 1e-12 };
}

/**
 * marked: per key, whether the learner marked it. 'largest' asks for one key (any of equal largest
 * ones). → { correct, cells: per key true (right) / false (wrong) }
 */
export function checkPattern(question, marked, expected) {
  if (question.find === 'largest') {
    const picked = marked.flatMap((on, c) => (on ? [c] : []));
    const correct = picked.length === 1 && expected[picked[0]];
    return { correct, cells: marked.map((on, c) => (on ? expected[c] : true)) };
  }
  const cells = expected.map((want, c) => Boolean(marked[c]) === want);
  return { correct: cells.every(Boolean), cells };
}

export const checkChoice = (question, picked) => ({ correct: picked === question.answer });
