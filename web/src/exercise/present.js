// What the page shows while an exercise has open questions: the result and the lesson's extra
// runs with every entry those questions ask for (and every entry computed from one) taken out
// (hidden-entries.js). The views draw only these copies, so no text, label, tooltip, colour or
// export of theirs can hold an answer. No DOM.
import { hiddenEntries, redactResult } from './hidden-entries.js';

/** The cells the open questions hide: a number question its cell, a pattern question its row. */
export function askedCells(open) {
  return open.flatMap(({ question: q }) => {
    if (q.kind === 'number') return [q.cell];
    if (q.kind === 'pattern') return [{ ...q.row, col: null }];
    return [];
  });
}

/**
 * A presenter for one result: `result(raw)` and `companions(raw)` → copies without the asked
 * entries (the raw ones when nothing is asked). Copies are made once per raw object; the lazy runs
 * of the companions (`dots`, `unmasked`) stay lazy.
 */
export function createPresenter(cells, result, { overQueries = false } = {}) {
  const hidden = cells.length ? hiddenEntries(cells, result, { overQueries }) : null;
  const made = new WeakMap();
  const redact = (run, names) => {
    if (!hidden || !run) return run;
    if (!made.has(run)) made.set(run, redactResult(run, hidden, names));
    return made.get(run);
  };
  return {
    hidden,
    result: (raw) => redact(raw),
    companions(raw) {
      if (!hidden || !raw) return raw;
      // The raw runs stay under their own names for the lesson's next call (companions.js); the
      // copy keeps the getters unread.
      const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(raw));
      return Object.defineProperties(copy, {
        result: { enumerable: true, value: redact(raw.result) },
        stable: { enumerable: true, value: redact(raw.stable) },
        compare: { enumerable: true, value: redact(raw.compare) },
        dots: { enumerable: true, get: () => redact(raw.dots, { scores: 'dots' }) },
        unmasked: { enumerable: true, get: () => redact(raw.unmasked) },
      });
    },
  };
}
