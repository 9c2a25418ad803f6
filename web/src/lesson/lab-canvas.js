// The softmax lab's table drawn on one canvas, from canvasFromTokens keys on (softmax-lab.js): its
// numbers all change together with τ, the row or the head, and laying out a text box for each took
// most of a frame; drawing them costs less, and only what changed is drawn (docs/performance.md).
// The table's looks are kept (lesson.css: table.lab-table), and so is the way in without a pointer:
// the lab is one tab stop, the arrow keys move an active key, and a live readout says its numbers.
//
// Nothing is computed here: the rows come formatted from the lab.
import { drawingContext } from '../render/canvas-context.js';
import { fontSetter } from '../render/canvas-font.js';
import { COLORS } from '../render/colors.js';
import { h } from '../render/dom.js';

const ROW_H = 22; // px, as a row of the table (0.82rem text, 2 px padding, its border)
const HEAD_H = 24;
const PAD = 8; // px, a cell's padding on each side
const NUM_W = 74; // px, a number's box (5.6em of 0.82rem)
const BAR_W = 150; // px, the weight's bar at 1
const FONT = '13px system-ui, "DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", sans-serif';
const BOLD = `700 ${FONT}`;
const TOKEN_MAX = 104; // px (8em): longer tokens end in "…"
// The columns: key, z, e^(z − max), weight (with its bar), naive e^z, naive weight.
const WEIGHT = 3;
const NAIVE = 4; // the naive columns start here

/**
 * t: the page's translator of the moment (a function returning one).
 * → { el, draw(table) } with table = {
 *     heads: [6 texts], widest: [6 texts a column must fit (its header's longest form)],
 *     rows: [{ key: 'the key's token', masked, texts: [z, exp, weight, naiveExp, naiveWeight],
 *              weight: 0…1, bad: [5 booleans] }],
 *     naive: boolean (the naive columns are shown; without, they keep their place, empty) }
 */
export function createLabCanvas(t) {
  const canvas = h('canvas', { 'aria-hidden': 'true' });
  const active = h('div', { className: 'lab-active' });
  const readout = h('span', { className: 'cg-readout', id: `lab-readout-${Math.random().toString(36).slice(2, 8)}`, 'aria-live': 'polite' });
  const el = h('div', { className: 'lab-canvas', tabindex: '0', role: 'group', 'aria-describedby': readout.id }, [canvas, active, readout]);
  const g = drawingContext(canvas);

  // Setting a font costs a style update (render/canvas-font.js): one font serves all but the
  // overflowed numbers (bold), so a redraw without them sets none (switching fonts for the
  // headers and the numbers took 0.7 ms a redraw at T = 32).
  const font = fontSetter(g);
  const useFont = font.use;

  let table = null;
  let widths = [];
  let size = ''; // what the canvas was sized for
  let measured = ''; // what the columns and the key labels were measured for
  let labels = []; // the key column's texts, "3 the", tokens cut to TOKEN_MAX with "…"
  let at = 0; // the active key

  // Column k's left and right edges.
  let edges = [0];
  const x0 = (k) => edges[k];
  const x1 = (k) => edges[k + 1];

  // The columns fit their widest texts; the canvas is resized (reallocated) only when they or the
  // number of rows change. Measured again only when the texts they fit change.
  function fit(next) {
    const dpr = window.devicePixelRatio || 1;
    const key = [next.widest.join('\u0001'), next.rows.map((row) => row.key).join('\u0001'), dpr].join('\u0002');
    if (key === measured) return;
    measured = key;
    useFont(FONT);
    const textW = (text) => Math.ceil(g.measureText(text).width);
    const fitted = (token) => {
      if (textW(token) <= TOKEN_MAX) return token;
      let end = token.length;
      while (end > 0 && textW(`${token.slice(0, end)}…`) > TOKEN_MAX) end -= 1;
      return `${token.slice(0, end)}…`;
    };
    labels = next.rows.map((row, j) => `${j + 1} ${fitted(row.key)}`);
    const keyW = Math.max(...labels.map(textW), textW(next.widest[0])) + 2 * PAD;
    const cols = [keyW, ...next.widest.slice(1).map((text, k) => Math.max(textW(text), k + 1 === WEIGHT ? BAR_W : NUM_W) + 2 * PAD)];
    const sized = `${cols.join(',')}|${next.rows.length}|${dpr}`;
    widths = cols;
    edges = cols.reduce((at, w) => [...at, at[at.length - 1] + w], [0]);
    if (sized === size) return;
    size = sized;
    const cssW = x1(cols.length - 1);
    const cssH = HEAD_H + next.rows.length * ROW_H;
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    canvas.style.width = `${cssW}px`;
    canvas.style.height = `${cssH}px`;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    font.reset(); // (a resize resets the context)
  }

  // What each cell shows (its text, colours and bar), as drawn: a redraw paints only the cells
  // that changed. Moving τ leaves the masked keys' cells as they were (at T = 32, row 5 under a
  // causal mask: 27 of 32 rows); switching naive softmax on or off paints its two columns only.
  let drawn = { frame: '', cells: [] };

  function draw(next) {
    table = next;
    const label = t()('lab.canvas');
    if (el.getAttribute('aria-label') !== label) el.setAttribute('aria-label', label);
    const { heads, rows, naive } = next;
    fit(next);
    const frame = `${size}\u0002${measured}`; // a new size or new columns: every cell again
    if (frame !== drawn.frame) drawn = { frame, cells: [] };

    // Each cell: its background, the line under it (none under the naive columns while they are
    // off), the weight's bar; its text is queued, to be drawn once every background is.
    const texts = [];
    const cell = (j, column, text, { ink, bold = false, background, line, bar = 0 }) => {
      const look = `${text}\u0001${ink}\u0001${bold}\u0001${background}\u0001${line}\u0001${bar}`;
      const k = (j + 1) * widths.length + column;
      if (drawn.cells[k] === look) return;
      drawn.cells[k] = look;
      const y = j < 0 ? 0 : HEAD_H + j * ROW_H;
      const height = j < 0 ? HEAD_H : ROW_H;
      g.fillStyle = background;
      g.fillRect(x0(column), y, widths[column], height - 1);
      g.fillStyle = line;
      g.fillRect(x0(column), y + height - 1, widths[column], 1);
      if (bar > 0) {
        g.fillStyle = COLORS.weightBar;
        g.fillRect(x1(WEIGHT) - PAD - BAR_W, y + 2, bar, ROW_H - 5);
      }
      if (text) texts.push([text, column, y + height / 2, ink, bold]);
    };
    const columnLook = (column) => (column >= NAIVE
      ? { background: naive ? COLORS.naive : COLORS.panel, line: naive ? COLORS.line : COLORS.panel }
      : { background: COLORS.panel, line: COLORS.line });
    heads.forEach((text, column) => cell(-1, column, column >= NAIVE && !naive ? '' : text, { ink: COLORS.muted, ...columnLook(column) }));
    rows.forEach((row, j) => {
      const ink = row.masked ? COLORS.faint : COLORS.ink;
      cell(j, 0, labels[j], { ink, ...columnLook(0) });
      row.texts.forEach((text, k) => {
        const column = k + 1;
        const look = columnLook(column);
        if (column >= NAIVE && !naive) cell(j, column, '', { ink, ...look });
        else if (row.bad[k]) cell(j, column, text, { ink: COLORS.danger, bold: true, ...look, background: COLORS.badBg });
        else cell(j, column, text, { ink, ...look, bar: column === WEIGHT ? Math.max(0, Math.min(1, row.weight)) * BAR_W : 0 });
      });
    });

    // The texts, the overflowed numbers (bold) last: one change of font at most.
    g.textBaseline = 'middle';
    for (const bold of [false, true]) {
      for (const [text, column, y, ink, isBold] of texts) {
        if (isBold !== bold) continue;
        useFont(bold ? BOLD : FONT);
        g.fillStyle = ink;
        g.textAlign = column === 0 ? 'left' : 'right';
        g.fillText(text, column === 0 ? PAD : x1(column) - PAD, y);
      }
    }
    if (at >= rows.length) at = rows.length - 1;
    placeActive();
    if (el.contains(document.activeElement)) say();
  }

  // ---- the active key: keyboard and pointer -------------------------------------------------------

  function placeActive() {
    active.style.cssText = `top:${HEAD_H + at * ROW_H}px;width:${x1(widths.length - 1)}px;height:${ROW_H}px`;
  }

  function say() {
    if (!table) return;
    const row = table.rows[at];
    const [z, exp, weight, naiveExp, naiveWeight] = row.texts;
    const params = { key: at + 1, token: row.key, z, exp, weight, naiveExp, naiveWeight };
    readout.textContent = t()(table.naive ? 'lab.canvasRowNaive' : 'lab.canvasRow', params);
  }

  function activate(j) {
    if (!table) return;
    at = Math.max(0, Math.min(table.rows.length - 1, j));
    placeActive();
    say();
  }

  const MOVES = { ArrowDown: 1, ArrowUp: -1, PageDown: 8, PageUp: -8 };
  el.addEventListener('keydown', (event) => {
    if (!table) return;
    if (event.key in MOVES) activate(at + MOVES[event.key]);
    else if (event.key === 'Home') activate(0);
    else if (event.key === 'End') activate(table.rows.length - 1);
    else return;
    event.preventDefault();
  });
  el.addEventListener('focus', () => say());
  el.addEventListener('click', (event) => {
    const y = event.clientY - canvas.getBoundingClientRect().top - HEAD_H;
    if (y >= 0) activate(Math.floor(y / ROW_H));
  });

  return { el, draw };
}
