// The extra results some views of the lesson read beside the main one, all from the page's plan
// (compute/plan.js), which computes each once and keeps it while only later fields change:
// - `dots`: the run with scaling off, whose scores are QKᵀ itself (the "QKᵀ" step and the
//   "0.955/√3" line of an explanation), or the result itself when scaling is already off;
// - `stable`: with naive softmax on, the stable run, shown next to the naive one;
// - `compare`: the same input with the other of "none" and "causal" (bidirectional vs causal);
// - `unmasked`: the same input with mask "none" (what a row would read from the future without
//   the causal mask: the mask step's note, self-test question 3).
// `dots` and `unmasked` are getters: the plan computes them when first read. No DOM.
export { compareMaskOf } from '../compute/plan.js';

/** { result, dots, stable, compare, unmasked } of the page's results (runner.js). */
export function companionsOf(results) {
  return {
    result: results.get('main'),
    get dots() {
      return results.get('dots');
    },
    get unmasked() {
      return results.get('unmasked');
    },
    stable: results.get('stable'),
    compare: results.get('compare'),
  };
}

/** A copy of `ctx` with `fields` changed that keeps its getters (the lazy `dots`) unread. */
export function withFields(ctx, fields) {
  return Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)), fields);
}
