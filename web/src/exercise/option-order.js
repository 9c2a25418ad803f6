// The order a choice's options are shown in: shuffled per exercise and question, the same on every
// reload, so that where the right option sits says nothing (teachers write it first). No DOM.
import { seededRandom } from '../state/random.js';

/** The option indices 0…n−1 in the order to show them, for question `index` of exercise `id`. */
export function optionOrder(id, index, n) {
  const random = seededRandom((Number.parseInt(id || '0', 16) ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const order = Array.from({ length: n }, (_, k) => k);
  for (let k = n - 1; k > 0; k -= 1) {
    const j = Math.floor(random() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
  return order;
}
