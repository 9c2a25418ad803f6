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
export const cellLook = (kind, value, isMasked, scale, fillText) => writeLook({}, kind, value, isMasked, scale, fillText);

// A palette class ('cs-12', 'cw-200 hid') made once: a canvas of T = 32 asks for one per entry on
// every change. Indexed by 2 × level (+ 1 when hidden behind the mask), per kind.
const CLASSES = { signed: [], weights: [] };
const classOf = (kind, level, hid) =>
  (CLASSES[kind][2 * level + (hid ? 1 : 0)] ??= `${kind === 'weights' ? 'cw' : 'cs'}-${level}${hid ? ' hid' : ''}`);

/** cellLook written into `look` (an object the caller keeps from one change to the next: the
 *  canvases held about 1 000 new ones each per change, 0.5 MB of a change of τ at T = 32). */
export function writeLook(look, kind, value, isMasked, scale, fillText) {
  let text;
  let cls;
  let level = -1;
  let hid = false;
  if (kind === 'mask') {
    text = value ? fillText : '0';
    cls = !value ? 'visible' : fillText === '0' ? 'mask-zero' : 'masked';
  } else if (Number.isNaN(value)) {
    text = 'NaN';
    cls = 'nan';
  } else if (value === Infinity) {
    text = '∞';
    cls = 'inf';
  } else if (value === -Infinity) {
    text = fmt(value);
    cls = 'masked';
  } else if (isMasked && value === 0 && kind === 'weights') {
    // A weight behind the mask: exactly 0, greyed.
    text = '0';
    cls = 'masked-zero';
  } else {
    level = scale.levelOf(value);
    text = fmt(value);
    cls = classOf(kind, level, isMasked);
    hid = isMasked;
  }
  look.text = text;
  look.cls = cls;
  look.level = level;
  look.hid = hid;
  return look;
}

/** An entry an exercise asks for (exercise/hidden-entries.js): its matrix's `hidden` flags say so,
 *  and its value is not in the page at all. */
export const ASKED_LOOK = Object.freeze({ text: '?', cls: 'asked', level: -1, hid: false });
export const isAsked = (matrix, n) => matrix.hidden?.[n] === 1;

/** True when the entry counts as masked for the legend's "masked" key. */
export const looksMasked = ({ cls, hid }) => hid || cls === 'masked' || cls === 'masked-zero' || cls === 'mask-zero';
