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
 * A presenter for one result: `results(raw)` → the plan's results (compute/runner.js) with every
 * asked entry taken out of every run a view reads (the raw ones when nothing is asked), and
 * `result(raw)` the same for one run. Copies are made once per raw run; lazy runs stay lazy.
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
    results(raw) {
      if (!hidden) return raw;
      // (the unscaled run's scores are QKᵀ: hidden as the dots they stand for)
      return { ...raw, get: (id) => redact(raw.get(id), id === 'dots' ? { scores: 'dots' } : undefined) };
    },
  };
}
