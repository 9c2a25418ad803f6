// The inputs every contender of bench/compare.mjs gets: the same bits for the same size, from a
// seeded PRNG, so that outputs can be compared element by element.
//
// Shapes (the project's vocabulary): T tokens, C = d_model, NH heads of width HS = C / NH.
//   x                  (T, C)   uniform in [−1, 1)
//   wq, wk, wv, wo     (C, C)   uniform in [−1/√C, 1/√C), so projections stay O(1)
// Matrices are row-major { rows, cols, data: Float32Array }, the engine's own matrix shape.
import { seededRandom } from '../web/src/state/random.js';

function uniformMatrix(rows, cols, bound, next) {
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < data.length; ++i) data[i] = (2 * next() - 1) * bound;
  return { rows, cols, data };
}

/** The benchmark's inputs for one size: { T, C, NH, HS, x, wq, wk, wv, wo }. */
export function makeInputs(T, C, NH, seed = 1234) {
  const next = seededRandom(seed ^ (T * 73856093) ^ (C * 19349663) ^ (NH * 83492791));
  const w = 1 / Math.sqrt(C);
  return {
    T,
    C,
    NH,
    HS: C / NH,
    x: uniformMatrix(T, C, 1, next),
    wq: uniformMatrix(C, C, w, next),
    wk: uniformMatrix(C, C, w, next),
    wv: uniformMatrix(C, C, w, next),
    wo: uniformMatrix(C, C, w, next),
  };
}

/** FLOPs of one forward: projections 8·T·C², scores and weighted sum 4·T²·C (mask work not counted). */
export const forwardFlops = (T, C) => 8 * T * C * C + 4 * T * T * C;

/** max over elements of |a − b| / max(1, |b|), with b the reference; NaN anywhere gives NaN. */
export function maxRelativeError(a, b) {
  if (a.length !== b.length) return NaN;
  let worst = 0;
  for (let i = 0; i < a.length; ++i) {
    const e = Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i]));
    if (Number.isNaN(e)) return NaN;
    if (e > worst) worst = e;
  }
  return worst;
}
