// What one printed entry looks like, the same for a table cell and a canvas cell: its text and
// its look — a palette level (cs-12, cw-200), 'hid' added for a masked entry with a finite fill,
// or one of 'masked', 'masked-zero', 'nan', 'inf', and for M 'visible' / 'masked' / 'mask-zero'.
// Printing only: the value comes from the engine. No DOM.
import { fmt } from './numbers.js';

/**
 * kind: 'signed' | 'weights' | 'mask'; value: the entry; isMasked: the result's mask says so;
 * scale: colorScale(...) for signed and weights; fillText: how M prints a masked entry.
 * → { text, cls, level (palette index or -1), hid (finite fill behind the mask) }
 */
export function cellLook(kind, value, isMasked, scale, fillText) {
  if (kind === 'mask') {
    if (!value) return { text: '0', cls: 'visible', level: -1, hid: false };
    return { text: fillText, cls: fillText === '0' ? 'mask-zero' : 'masked', level: -1, hid: false };
  }
  if (Number.isNaN(value)) return { text: 'NaN', cls: 'nan', level: -1, hid: false };
  if (value === Infinity) return { text: '∞', cls: 'inf', level: -1, hid: false };
  if (value === -Infinity) return { text: fmt(value), cls: 'masked', level: -1, hid: false };
  // A weight behind the mask: exactly 0, greyed.
  if (isMasked && value === 0 && kind === 'weights') return { text: '0', cls: 'masked-zero', level: -1, hid: false };
  const level = scale.levelOf(value);
  return { text: fmt(value), cls: `${kind === 'weights' ? 'cw' : 'cs'}-${level}${isMasked ? ' hid' : ''}`, level, hid: isMasked };
}

/** True when the entry counts as masked for the legend's "masked" key. */
export const looksMasked = ({ cls }) => cls === 'masked' || cls === 'masked-zero' || cls === 'mask-zero';
