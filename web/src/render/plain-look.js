// How an entry of kind 'plain' looks (numbers without a heat palette: the softmax lab's rows):
// its text, and 'plain', 'faint' (masked), 'nan' or 'inf' (overflowed, marked as in every matrix).
// No DOM.
import { fmt } from './numbers.js';

/** writeLook (cell-look.js) for kind 'plain': the look written into `look`. */
export function writePlainLook(look, value, isMasked) {
  look.text = fmt(value);
  look.cls = Number.isNaN(value) ? 'nan' : value === Infinity ? 'inf' : isMasked ? 'faint' : 'plain';
  look.level = -1;
  look.hid = false;
  return look;
}

/** The share of a bar drawn under an entry (a weight): its value within 0…1, 0 for NaN. */
export const barShare = (value) => (Number.isFinite(value) ? Math.max(0, Math.min(1, value)) : 0);
