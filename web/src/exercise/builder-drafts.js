// A question the teacher is still writing: what it lacks before the page can ask it (a new
// choice starts empty, so this is guidance under it, not an error), and which step of the lesson
// an embedded quiz opens on. The builder's form of a question: texts as { en, 'zh-CN' }. No DOM.
import { producerOf, STEPS } from '../lesson/steps.js';
import { EXERCISE_LIMITS, parseCellRef } from '../state/schema.js';
import { parseRowRef } from './exercise-text.js';

const written = (text) => Object.values(text ?? {}).some((value) => value.trim() !== '');

/** A typed tolerance as a number (a decimal comma read); NaN for an empty field. */
export const readTolerance = (typed) => (String(typed).trim() === '' ? Number.NaN : Number(String(typed).trim().replace(',', '.')));

/**
 * What `q` still needs: { texts: [{ key, params }] (texts to write, in either language),
 * tolerance: whether the tolerance is not a number the page takes }. Nothing missing: it can be asked.
 */
export function missingParts(q) {
  const texts = [];
  if (q.kind === 'choice') {
    if (!written(q.prompt)) texts.push({ key: 'builder.part.prompt', params: {} });
    q.options.forEach((option, k) => {
      if (!written(option)) texts.push({ key: 'builder.part.option', params: { n: k + 1 } });
    });
  }
  const tolerance = q.kind === 'number' && !(q.tolerance >= 0 && q.tolerance <= EXERCISE_LIMITS.maxTolerance);
  return { texts, tolerance };
}

export const isComplete = (q) => {
  const { texts, tolerance } = missingParts(q);
  return texts.length === 0 && !tolerance;
};

// The step that shows what a number or pattern question asks.
function stepOf(q) {
  const ref = q.kind === 'number' ? parseCellRef(q.cell) : parseRowRef(q.row);
  return ref ? producerOf(ref.name, ref.head !== null) : null;
}

/**
 * The lesson as an embedded quiz shows it: { step, hidden } (the link's step and hidden parts).
 * The first step a question asks about (the stepper leads to the others); a quiz of choices only
 * keeps the teacher's step, or with all steps shown, the first screen's weights without the lesson.
 */
export function quizView(questions, step) {
  const asked = new Set(questions.map((q) => (q.kind === 'choice' ? null : stepOf(q))));
  const first = STEPS.find((s) => asked.has(s.id));
  if (first) return { step: first.id, hidden: [] };
  return step === 'all' ? { step, hidden: ['lesson'] } : { step, hidden: [] };
}

/**
 * Why each of the builder's ask buttons is unavailable for the selected cell (parsed, or null)
 * with `count` questions written: { entry, zeros, largest, choice } → an i18n key, or null.
 */
export function askBlocks(cell, count) {
  const full = count >= EXERCISE_LIMITS.questions ? 'builder.why.full' : null;
  const needs = (ok, key) => full ?? (!cell ? 'builder.why.noCell' : ok ? null : key);
  return {
    entry: needs(cell && !cell.name.startsWith('cmp-'), 'builder.why.compare'),
    zeros: needs(cell && ['weights', 'mask'].includes(cell.name), 'builder.why.row'),
    largest: needs(cell?.name === 'weights', 'builder.why.largest'),
    choice: full,
  };
}
