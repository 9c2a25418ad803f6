// What the page shows while an exercise has open questions: the result and the lesson's extra
// runs with every entry those questions ask for (and every entry computed from one) taken out
// (hidden-entries.js). The views draw only these copies, so no text, label, tooltip, colour or
// export of theirs can hold an answer. No DOM.
import { hiddenEntries, redactResult, shownMatrices } from './hidden-entries.js';

// Two entries are one number when they agree to float32's precision (Q = X with identity weights,
// s₁₂ = s₂₁ when Q = K): showing either shows both.
const same = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
// 0 and ±1 are the mask's and identity weights' constants: equal to them says nothing of an answer.
const telling = (v) => Number.isFinite(v) && v !== 0 && Math.abs(v) !== 1;

/** The entries of `result` equal to an asked one, as cells. (A pattern's row asks which keys,
 *  not a value: an equal value elsewhere says nothing of it.) */
export function twinsOf(cells, result) {
  const matrices = shownMatrices(result);
  const values = [];
  for (const { name, head = null, row, col } of cells) {
    const m = matrices.find((entry) => entry.name === name && entry.head === head)?.matrix;
    if (m && col !== null && col !== undefined && row >= 0 && row < m.rows && col >= 0 && col < m.cols) values.push(m.data[row * m.cols + col]);
  }
  const wanted = values.filter(telling);
  if (!wanted.length) return [];
  const twins = [];
  const lo = Math.min(...wanted.map((w) => w - 1e-6 * Math.max(1, Math.abs(w))));
  const hi = Math.max(...wanted.map((w) => w + 1e-6 * Math.max(1, Math.abs(w))));
  for (const { name, head, matrix } of matrices) {
    const { data } = matrix;
    for (let n = 0; n < data.length; n += 1) {
      const v = data[n];
      if (v < lo || v > hi) continue; // (most entries: one comparison)
      if (wanted.some((w) => same(v, w))) twins.push({ name, head, row: Math.floor(n / matrix.cols), col: n % matrix.cols });
    }
  }
  return twins;
}

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
// The page asks for a presenter per change; one result and one set of questions make it once (a
// wrong answer draws the page again with the same questions open: nothing to hide anew).
export function createPresenter(cells, result, { overQueries = false } = {}) {
  const key = JSON.stringify([cells, overQueries]);
  if (!result) return makePresenter(cells, result, overQueries);
  if (!presenters.has(result)) presenters.set(result, new Map());
  const made = presenters.get(result);
  if (!made.has(key)) made.set(key, makePresenter(cells, result, overQueries));
  return made.get(key);
}
const presenters = new WeakMap();

function makePresenter(cells, result, overQueries) {
  const asked = cells.length ? [...cells, ...twinsOf(cells, result)] : cells;
  const hidden = asked.length ? hiddenEntries(asked, result, { overQueries }) : null;
  const made = new WeakMap();
  const redact = (run, names) => {
    if (!hidden || !run) return run;
    if (!made.has(run)) made.set(run, redactResult(run, hidden, names));
    return made.get(run);
  };
  return {
    hidden,
    /** What is hidden, as a key ('' when nothing is): a view drawn under another key may show it. */
    key: hidden ? `exercise:${JSON.stringify(cells)}` : '',
    /** Whether a question asks which keys the mask hides (the mask's kind and workbench wait). */
    hidesMask: cells.some((cell) => cell.name === 'mask' && (cell.col === null || cell.col === undefined)),
    result: (raw) => redact(raw),
    results(raw) {
      if (!hidden) return raw;
      // (the unscaled run's scores are QKᵀ: hidden as the dots they stand for)
      return { ...raw, get: (id) => redact(raw.get(id), id === 'dots' ? { scores: 'dots' } : undefined) };
    },
  };
}
