// The "shuffle tokens" experiment: the same input in another token order, and the comparison of
// the two outputs row by row after undoing the order. The engine computes both outputs (the
// page's plan asks for them: compute/plan.js); this file only reorders inputs and compares
// numbers. No DOM.
import { seededRandom } from '../state/random.js';

/**
 * A permutation of 0…T−1 from `seed`: order[p] is the typed position of the token that stands at
 * position p after shuffling. Never the identity when T ≥ 2 (a shuffle that moves nothing would
 * show nothing).
 */
export function shuffledOrder(T, seed) {
  const order = Array.from({ length: T }, (_, i) => i);
  const random = seededRandom(seed);
  for (let i = T - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  if (T >= 2 && order.every((v, i) => v === i)) order.push(order.shift());
  return order;
}

/** positionOf[i]: where typed token i stands after shuffling (the inverse of `order`). */
export function inverseOrder(order) {
  const inverse = new Array(order.length);
  order.forEach((typed, p) => {
    inverse[typed] = p;
  });
  return inverse;
}

/**
 * An engine config with its tokens (and hand-made embeddings) in `order`. The mask is switched
 * off and padding dropped: a causal mask is itself a statement about order, so with it the
 * outputs would change even without positions.
 */
export function reorderConfig(config, order) {
  const out = { ...config, tokens: order.map((i) => config.tokens[i]), mask: 'none' };
  for (const key of ['window', 'prefix', 'customMask', 'padding']) delete out[key];
  if (Array.isArray(config.embeddings)) out.embeddings = order.map((i) => config.embeddings[i]);
  return out;
}

/**
 * Compares output rows: typed token i's row of `typed` with the row of `shuffled` where that
 * token ended up. → { rows: [{ token, from, to, diff, same }], maxDiff, changed }, where diff is
 * the largest |difference| in the row and `same` means within `tolerance` (relative to the
 * largest |entry| of the typed output, at least 1).
 */
export function compareRows(typed, shuffled, order, tokens, tolerance = 1e-5) {
  const positionOf = inverseOrder(order);
  const cols = typed.cols;
  let scale = 1;
  for (const v of typed.data) scale = Math.max(scale, Math.abs(v));
  const rows = [];
  let maxDiff = 0;
  for (let i = 0; i < typed.rows; i += 1) {
    const p = positionOf[i];
    let diff = 0;
    for (let c = 0; c < cols; c += 1) {
      diff = Math.max(diff, Math.abs(typed.data[i * cols + c] - shuffled.data[p * cols + c]));
    }
    maxDiff = Math.max(maxDiff, diff);
    rows.push({ token: tokens[i], from: i, to: p, diff, same: diff <= tolerance * scale });
  }
  return { rows, maxDiff, changed: rows.filter((row) => !row.same).length };
}
