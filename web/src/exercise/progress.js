// A learner's answers, kept in the browser per exercise (localStorage), so that a reload finds
// them: { [question index]: { tries, correct, answer, closed?, shown? } }. A storage that is full, disabled or
// holding something else reads as no progress and never stops the page. No DOM.
import { textHash } from './exercise-text.js';

const PREFIX = 'attention-playground:exercise:';

/** A short, stable id of an exercise link's text. */
export const exerciseId = (text) => textHash(text);

const validEntry = (e) => e && typeof e === 'object' && Number.isInteger(e.tries) && e.tries >= 0 && typeof e.correct === 'boolean';

// A number or pattern question closes on a right answer, the second wrong one, or "show"; a
// choice on its first answer (with two or three options, a second try would be a guess).
const TRIES = { number: 2, pattern: 2, choice: 1 };

/** Whether `entry`, just recorded for `question`, ends it (its answer is shown from now on). */
export const closes = (question, entry) => entry.correct || Boolean(entry.shown) || entry.tries >= TRIES[question.kind];

/** Whether a question with this progress entry is answered: right, or its answer shown. */
export const isDone = (entry) => Boolean(entry && (entry.correct || entry.closed || entry.shown || entry.tries >= 2));

export function loadProgress(storage, id) {
  try {
    const data = JSON.parse(storage?.getItem(PREFIX + id) ?? '{}');
    if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
    return Object.fromEntries(Object.entries(data).filter(([k, e]) => /^\d{1,3}$/.test(k) && validEntry(e)));
  } catch {
    return {};
  }
}

export function saveProgress(storage, id, progress) {
  try {
    storage?.setItem(PREFIX + id, JSON.stringify(progress));
  } catch {
    // (a full or disabled storage: the answers last as long as the page)
  }
}

/** { answered, correct, total } of `progress` for questions `indices`. */
export function scoreOf(progress, indices) {
  let answered = 0;
  let correct = 0;
  for (const i of indices) {
    const entry = progress[i];
    if (!isDone(entry)) continue;
    answered += 1;
    if (entry.correct && !entry.shown) correct += 1;
  }
  return { answered, correct, total: indices.length };
}
