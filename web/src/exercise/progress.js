// A learner's answers, kept in the browser per exercise (localStorage), so that a reload finds
// them: { [question index]: { tries, correct, answer } }. A storage that is full, disabled or
// holding something else reads as no progress and never stops the page. No DOM.
import { textHash } from './exercise-text.js';

const PREFIX = 'attention-playground:exercise:';

/** A short, stable id of an exercise link's text. */
export const exerciseId = (text) => textHash(text);

const validEntry = (e) => e && typeof e === 'object' && Number.isInteger(e.tries) && e.tries >= 0 && typeof e.correct === 'boolean';

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
    if (!entry) continue;
    if (entry.correct || entry.tries >= 2) answered += 1; // (after two tries the answer is shown)
    if (entry.correct) correct += 1;
  }
  return { answered, correct, total: indices.length };
}
