// A matrix drawn on a canvas instead of a table, where render/policy.js says so (a row per token
// from T = 8, the weights from d_model = 16, every matrix past the printed corner): thousands of
// table cells cost Chromium tens of milliseconds of style, layout and paint per change. The
// figure around it (matrix-frame.js), the numbers and colours (cell-look.js) and the ways in
// (matrix-input.js) are the table's: the grid is one tab stop whose active entry the keys move,
// and a live readout says that entry in words.
// Highlights (the explained entry and what it depends on) and the active entry are outlines laid
// over the canvas, so pointing around never redraws it. A new result redraws only the entries
// whose text or colour changed, those in the view of the figure's scroll box first.
//
// The grid element carries data-matrix (and data-head), like a table's cells, for the page's
// export ("click a caption") and for tests; each outline carries data-hl, data-row and data-col.
import { COLORS, HATCHES, HATCH_LINES, HID_ALPHA, colorScale } from './colors.js';
import { printed } from './policy.js';
import { THRESHOLDS } from './thresholds.js';
import { drawingContext } from './canvas-context.js';
import { fontSetter } from './canvas-font.js';
import { h, setAttr } from './dom.js';
import { drawing } from './scheduler.js';
import { pageTopOf, watchSight, windowAt } from './window-sight.js';
import { ASKED_LOOK, isAsked, looksMasked, writeLook } from './cell-look.js';
import { createBareFrame, createMatrixFrame } from './matrix-frame.js';
import { barShare, writePlainLook } from './plain-look.js';
import { attachMatrixInput } from './matrix-input.js';
import { sameNumbers } from './same-numbers.js';

const CELL_H = 20; // px, as a table row (0.75rem text, 3 px padding)
const MIN_W = 40; // px, the narrowest column (a table cell's min-width)
const PAD = 5; // px between a number and its cell's right edge
const SUM_W = 32; // px, the Σ column
const FONT = '12px system-ui, "DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", sans-serif';
const BOLD = `700 ${FONT}`;
const TOKEN_FONT = '11px system-ui, "DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", sans-serif';
const COL_HEAD = 18; // px: the column numbers
const COL_HEAD_TOK = 32; // px: numbers and key tokens
const ROW_LABEL_MAX = 108; // px (9em): longer tokens end in "…"
const FIGURE_CHROME = 51; // px: the caption and the legend around the grid (measured on the page)
const ITALIC = `italic ${FONT}`;

// The table's looks (main.css, lesson.css) as canvas styles: background, text colour, centred.
const PLAIN = {
  masked: { text: COLORS.maskedInk },
  'masked-zero': { text: COLORS.faint },
  'mask-zero': { text: COLORS.maskZeroInk, hatch: 'yellow' },
  visible: { background: COLORS.panel, text: COLORS.faint },
  nan: { background: COLORS.badBg, text: COLORS.danger, bold: true },
  inf: { background: COLORS.badBg, text: COLORS.danger, bold: true },
  plain: { background: COLORS.panel, text: COLORS.ink },
  faint: { background: COLORS.panel, text: COLORS.faint },
  blank: { background: COLORS.panel, text: COLORS.panel },
  asked: { background: COLORS.panel, text: COLORS.ink, bold: true },
};
const BLANK = { text: '', cls: 'blank', level: -1, hid: false }; // an entry of a column shown empty

// The 8 px diagonal hatch of masked entries (the table's background image), as a pattern tile.
const tiles = {};
function hatchTile(which) {
  if (!tiles[which]) {
    const [background, stroke] = HATCHES[which];
    const tile = document.createElement('canvas');
    tile.width = 8;
    tile.height = 8;
    const g = tile.getContext('2d');
    g.fillStyle = background;
    g.fillRect(0, 0, 8, 8);
    g.strokeStyle = stroke;
    g.lineWidth = 2.8;
    g.beginPath();
    for (const [x0, y0, x1, y1] of HATCH_LINES) {
      g.moveTo(x0, y0);
      g.lineTo(x1, y1);
    }
    g.stroke();
    tiles[which] = tile;
  }
  return tiles[which];
}

const fitText = (g, text, width) => {
  if (g.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && g.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
};

// Every canvas's entries left for later, a few hundred (about a millisecond) per job.
const REST = { waitMs: THRESHOLDS.canvasRestWaitMs, costCapMs: 2 };

/** spec, events and what it returns: render/matrix.js. */
export function createMatrixCanvas(spec, events) {
  const { name, head = null, rowLabels, colTokens, t } = spec;
  const rows = spec.shownRows ?? printed(spec.rows);
  const cols = spec.shownCols ?? printed(spec.cols);
  const plain = spec.kind === 'plain';
  let colLabels = spec.colLabels ?? null; // texts in place of the column numbers
  const hatch = spec.kind === 'weights' ? 'light' : 'grey';

  // The labels are canvases too (a table's 100 header cells per matrix cost layout as well).
  const colHeads = h('canvas', { className: 'cg-cols', 'aria-hidden': 'true' });
  const rowHeads = h('canvas', { className: 'cg-rows', 'aria-hidden': 'true' });
  const canvas = h('canvas', { 'aria-hidden': 'true' });
  const marksLayer = h('div', { className: 'cg-marks' });
  const active = h('div', { className: 'cg-active' });
  // (not live: a move is said once, by the explanation's sentence, lesson/explain-panel.js)
  const readout = h('span', { className: 'cg-readout', id: `cg-${name}-${head ?? 'm'}-${Math.random().toString(36).slice(2, 8)}` });
  const body = h(
    'div',
    {
      className: `cg-body${spec.toggle ? ' toggle' : ''}${spec.editable ? ' editable' : ''}`,
      tabindex: '0',
      role: 'group',
      'aria-label': spec.label ?? `${spec.symbol} ${spec.title} ${spec.rows} × ${spec.cols}`,
      'aria-describedby': readout.id,
      dataset: { matrix: name, ...(head === null ? {} : { head: String(head) }) },
    },
    [canvas, marksLayer, active, readout],
  );
  const grid = h('div', { className: 'cgrid' }, [
    h('div', { className: 'cg-corner', text: spec.corner ?? t('table.corner') }),
    colHeads,
    rowHeads,
    body,
  ]);
  const frame = (spec.figure === 'bare' ? createBareFrame : createMatrixFrame)(spec, rows, cols, grid);
  // The test hook (tests/browser/README.md): the texts the canvas draws, a row per printed row,
  // as a reader reads them once it is drawn ('?' for an entry an exercise asks).
  body.printedTexts = () => Array.from({ length: rows }, (_, r) => shownText.slice(r * cols, (r + 1) * cols));

  // ---- drawing -----------------------------------------------------------------------------------

  // No bitmap until the first drawing (allocate): an opaque canvas's default one would show black.
  canvas.width = 0;
  canvas.height = 0;
  const context = drawingContext(canvas);
  const contextFont = fontSetter(context); // (setting a font costs a style update: render/canvas-font.js)
  const useFont = contextFont.use;
  const patterns = {};
  const pattern = (which) => (patterns[which] ??= context.createPattern(hatchTile(which), 'repeat'));
  // The column width is set once, at the first update, to fit "−0.000": resizing a canvas
  // reallocates it; a longer text (−1.00e9) is drawn narrower.
  let cellW = 0;
  const shownText = new Array(rows * cols).fill(null);
  const shownClass = new Array(rows * cols).fill(null);
  let shownSums = [];
  let drawn = null; // { data, mask, extra }: skip a matrix whose numbers did not change
  let latest = null; // { looks, data, dataCols, scale }: what each entry should show (and the readout says)
  // Each entry's look, rewritten in place by every update (writeLook): new objects per entry and
  // change were most of what the page allocated.
  const looks = Array.from({ length: rows * cols }, () => ({ text: '', cls: '', level: -1, hid: false }));
  let labelBox = { sideW: 0, headH: 0 }; // px: the row labels' width, the column labels' height

  // The figure's size is set when it is made (a canvas drawn later must not move the page); its
  // bitmaps are allocated at its first drawing (allocate): a page past the printed corner makes
  // some twenty 48 × 48 canvases at once, and allocating them all was most of its longest task.
  function resize(width) {
    cellW = width;
    const cssW = cols * cellW + (spec.sumColumn ? SUM_W : 0);
    const cssH = rows * CELL_H;
    canvas.style.width = `${cssW}px`;
    canvas.style.height = `${cssH}px`;
    grid.style.setProperty('--cw', `${cellW}px`);
    const headH = colTokens ? COL_HEAD_TOK : COL_HEAD;
    const side = rowHeads.getContext('2d');
    side.font = `500 ${FONT}`;
    let labelW = 0;
    for (let r = 0; r < rows; r += 1) labelW = Math.max(labelW, side.measureText(rowLabels[r] ?? '').width);
    const sideW = Math.ceil(Math.min(labelW, ROW_LABEL_MAX)) + 12;
    colHeads.style.width = `${cssW}px`;
    colHeads.style.height = `${headH}px`;
    rowHeads.style.width = `${sideW}px`;
    rowHeads.style.height = `${cssH}px`;
    labelBox = { sideW, headH };
    // Off screen on a big page the figure is skipped (content-visibility: auto, lesson.css) and
    // takes this size until it has been drawn once: its own (the .scroll box has a 1 px border
    // and is at most 75vh high), not the tables' guess, which put two or three side by side
    // where one fits, and moved the page as they came near.
    const boxH = Math.min(headH + 1 + cssH + 2, 0.75 * window.innerHeight);
    frame.el.style.containIntrinsicSize = `auto ${Math.ceil(sideW + 1 + cssW + 2)}px auto ${Math.ceil(boxH + FIGURE_CHROME)}px`;
    placeMarks();
  }

  // The bitmaps, once, before anything is drawn; → true if they were allocated now.
  let allocated = false;
  function allocate() {
    if (allocated) return false;
    allocated = true;
    const dpr = window.devicePixelRatio || 1;
    const cssW = cols * cellW + (spec.sumColumn ? SUM_W : 0);
    const cssH = rows * CELL_H;
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    context.setTransform(dpr, 0, 0, dpr, 0, 0);
    contextFont.reset(); // (resizing a canvas resets its state)
    context.fillStyle = COLORS.panel; // the 1 px gaps between entries (the table's white borders)
    context.fillRect(0, 0, cssW, cssH);
    context.textBaseline = 'middle';
    shownText.fill(null);
    shownClass.fill(null);
    shownSums = [];
    drawLabels(dpr);
    return true;
  }

  // Column numbers (and the key tokens of a T×T matrix) above, row tokens on the left; a token
  // too long for its place ends in "…" (as the tables' ellipsis).
  function drawLabels(dpr) {
    const { sideW } = labelBox;
    drawColLabels(dpr);
    const side = rowHeads.getContext('2d');
    rowHeads.width = Math.round(sideW * dpr);
    rowHeads.height = Math.round(rows * CELL_H * dpr);
    side.setTransform(dpr, 0, 0, dpr, 0, 0);
    side.font = `500 ${FONT}`; // (resizing a canvas resets its state)
    side.fillStyle = COLORS.ink;
    side.textAlign = 'right';
    side.textBaseline = 'middle';
    for (let r = 0; r < rows; r += 1) side.fillText(fitText(side, rowLabels[r] ?? '', ROW_LABEL_MAX), sideW - 6, r * CELL_H + (CELL_H - 1) / 2);
  }

  // The column numbers (or colLabels, blankCols left out), then the tokens under them: one font
  // each (setting a font parses it; switching per column cost 66 parses at T = 32).
  function drawColLabels(dpr) {
    headKey = `${colLabels}|${blankNow}`;
    const { headH } = labelBox;
    const headW = cols * cellW + (spec.sumColumn ? SUM_W : 0);
    colHeads.width = Math.round(headW * dpr);
    colHeads.height = Math.round(headH * dpr);
    const top = colHeads.getContext('2d');
    top.setTransform(dpr, 0, 0, dpr, 0, 0);
    top.textAlign = 'center';
    top.textBaseline = 'middle';
    top.font = `500 ${FONT}`;
    top.fillStyle = COLORS.muted;
    for (let c = 0; c < cols; c += 1) if (!blankNow.includes(c)) top.fillText(colLabels?.[c] ?? String(c + 1), c * cellW + cellW / 2, 9, cellW - 4);
    if (spec.sumColumn) top.fillText('Σ', cols * cellW + SUM_W / 2, 9);
    if (colTokens) {
      top.font = TOKEN_FONT;
      top.fillStyle = COLORS.ink;
      for (let c = 0; c < cols; c += 1) top.fillText(fitText(top, colTokens[c], cellW - 4), c * cellW + cellW / 2, 23);
    }
  }
  let headKey = null; // what the column labels were drawn for: colLabels and blankCols
  let blankNow = []; // the latest update's blankCols
  function drawHead() {
    if (allocated && `${colLabels}|${blankNow}` !== headKey) drawColLabels(window.devicePixelRatio || 1);
  }

  function textWidth(text) {
    useFont(FONT);
    return Math.ceil(context.measureText(text).width);
  }

  // In `font`: FONT, or BOLD for the ∞ and NaN entries (drawPending).
  function drawCell(r, c, look, colors, font, bar = 0) {
    useFont(font);
    const x = c * cellW;
    const y = r * CELL_H;
    const w = cellW - 1;
    const hgt = CELL_H - 1;
    const plain = PLAIN[look.cls];
    if (look.level >= 0) {
      if (look.hid) {
        // Masked with a finite fill: its colour partly opaque over the hatch (colors.js, hidLook).
        context.fillStyle = pattern(hatch);
        context.fillRect(x, y, w, hgt);
        context.globalAlpha = HID_ALPHA;
      }
      context.fillStyle = look.hid ? colors.hidBackground : colors.background;
      context.fillRect(x, y, w, hgt);
      context.globalAlpha = 1;
      context.fillStyle = look.hid ? colors.hidText : colors.text;
      context.textAlign = 'right';
      context.fillText(look.text, x + w - PAD, y + hgt / 2, w - 2 * PAD);
      return;
    }
    context.fillStyle = plain.background ?? pattern(plain.hatch ?? hatch);
    context.fillRect(x, y, w, hgt);
    if (bar > 0) {
      context.fillStyle = COLORS.weightBar;
      context.fillRect(x + 1, y + 2, bar * (w - 2), hgt - 4);
    }
    context.fillStyle = plain.text;
    context.textAlign = 'center';
    context.fillText(look.text, x + w / 2, y + hgt / 2, w - 2 * PAD);
  }

  // Entry k (row-major over the drawn rows × cols) with its look, noted as shown.
  function drawCellAt(k, look, data, dataCols, scale, font) {
    const r = Math.floor(k / cols);
    const c = k - r * cols;
    const value = data[r * dataCols + c];
    const bar = c === spec.barCol && look.cls !== 'blank' ? barShare(value) : 0;
    drawCell(r, c, look, look.level >= 0 ? scale.cell(value) : null, font, bar);
    shownText[k] = look.text;
    shownClass[k] = look.cls;
  }

  function drawSum(r, text) {
    useFont(ITALIC);
    const x = cols * cellW;
    const y = r * CELL_H;
    context.fillStyle = COLORS.labelBg;
    context.fillRect(x + 1, y, SUM_W - 1, CELL_H - 1);
    context.fillStyle = COLORS.sumInk;
    context.textAlign = 'center';
    context.fillText(text, x + SUM_W / 2, y + (CELL_H - 1) / 2);
  }

  /** matrix: { rows, cols, data }; options: { mask, fillText, rowSums, blankCols } as for a table. */
  function update(matrix, options = {}) {
    const { mask = null, fillText = '−∞', rowSums = null, blankCols = [] } = options;
    const { data } = matrix;
    const extra = `${fillText}|${rowSums ? rowSums.join(',') : ''}|${blankCols.join(',')}`;
    if (drawn && drawn.extra === extra && sameNumbers(drawn.data, data) && sameNumbers(drawn.mask, mask?.data ?? null)) return;
    allocate();
    drawn = { data, mask: mask?.data ?? null, extra };
    frame.drawOverview(matrix);
    // The colour scale ignores masked entries, so a finite fill (−1e9) does not wash out the rest.
    const scale = spec.kind === 'mask' || plain ? null : colorScale(spec.kind, data, mask && spec.kind === 'signed' ? mask.data : null);
    // pass 1: what each entry shows
    let anyMasked = false;
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const n = r * matrix.cols + c;
        const k = r * cols + c;
        const isMasked = mask ? mask.data[n] === 1 : false;
        const look = blankCols.includes(c)
          ? Object.assign(looks[k], BLANK)
          : isAsked(matrix, n)
            ? Object.assign(looks[k], ASKED_LOOK)
            : plain
              ? writePlainLook(looks[k], data[n], isMasked)
              : writeLook(looks[k], spec.kind, data[n], isMasked, scale, fillText);
        if (looksMasked(look)) anyMasked = true;
      }
    }
    // pass 2: redraw the entries whose text or look changed, those in the window now (those near
    // it just after the frame, the others in idle time, or when the box is scrolled to them: see
    // drawPending)
    latest = { looks, data, dataCols: matrix.cols, scale };
    const [c0, c1, r0, r1] = inView(true);
    for (let k = 0; k < looks.length; k += 1) {
      const look = looks[k];
      const r = Math.floor(k / cols);
      const c = k - r * cols;
      pending[k] = shownText[k] === look.text && shownClass[k] === look.cls ? 0 : c < c0 || c >= c1 || r < r0 || r >= r1 ? 1 : 2;
    }
    drawPending(2);
    pendingCount = 0;
    for (let k = 0; k < pending.length; k += 1) pendingCount += pending[k];
    if (pendingCount) {
      scheduleNear();
      scheduleRest();
    }
    if (rowSums && rowSums.some((text, r) => shownSums[r] !== text)) {
      for (let r = 0; r < rows; r += 1) {
        if (shownSums[r] === rowSums[r]) continue;
        drawSum(r, rowSums[r]);
        shownSums[r] = rowSums[r];
      }
    }
    blankNow = blankCols;
    drawHead();
    frame.setLegend(scale);
    frame.setMaskedKey(anyMasked, fillText);
    if (document.activeElement === body) say();
  }

  // ---- the entries in view first --------------------------------------------------------------------

  // A wide matrix's box shows part of it: a new result draws the entries in the box's view in the
  // frame that shows the change, those nearCols columns either side just after it (scheduleNear),
  // the others in idle time, or as the box is scrolled to them (its scroll events come before the
  // frame that shows the scroll). Text is most of an update's cost, so the box's rows are cut to
  // those in the window too (windowAt; those within nearPx of it just after the frame).
  const { nearCols, nearRows } = THRESHOLDS;
  // pending[k]: 0 = entry k shows its latest look; 1 = it does not yet; 2 = it is being drawn now
  const pending = new Uint8Array(rows * cols);
  let pendingCount = 0;
  let box = null; // { left, top, width, height } of the .scroll box's view, px; null: not known yet
  // { top, bottom }: the part of the box's view near the window (nearPx), px from the view's top,
  // as the observer last saw it; null: not known, all of the view (see watchSight below).
  // (Seen before the change's own layout: a change that moves the box by more than nearPx can
  // leave rows that came into the window to the idle drawing after its frame.)
  let sight = null;
  // px: the box's top in the page (its distance from the top of the document) when the observer
  // last reported; null: not known. With windowAt it says which rows are in the window at a change
  // without laying the page out. If the page above has moved since, the rows misjudged are one
  // frame late: the entries near the window are all drawn just after the frame anyway.
  let pageTop = null;
  const scroller = grid.parentElement;
  // The box's size, as it is laid out: read when it changes (no layout forced by an update). Its
  // first report comes in the frame that first lays the box out, after the layout and before the
  // paint: the entries in view are drawn there (see inView).
  new ResizeObserver(() => {
    box = { left: scroller.scrollLeft, top: scroller.scrollTop, width: scroller.clientWidth, height: scroller.clientHeight };
    drawInView();
  }).observe(scroller);
  scroller.addEventListener(
    'scroll',
    () => {
      if (box) Object.assign(box, { left: scroller.scrollLeft, top: scroller.scrollTop });
      drawInView();
    },
    { passive: true },
  );
  // The window's scrolling is followed in steps of a row or so (watchSight): the rows coming near
  // are drawn a frame after they come within nearPx, before they are in the window.
  watchSight(scroller, (entry) => {
    const { intersectionRect: seen, boundingClientRect: all } = entry;
    // A box not laid out now (a parked step's, a figure skipped off screen by content-visibility)
    // has no size: its sight is not known, so that a step shown again draws the rows in its view.
    sight = entry.isIntersecting && seen.height > 0 ? { top: seen.top - all.top - 1, bottom: seen.bottom - all.top - 1 } : null;
    pageTop = sight ? pageTopOf(entry) : null;
    drawInView();
  });

  // The entries left for later that have come into the box's view.
  function drawInView() {
    if (!pendingCount) return;
    const [c0, c1, r0, r1] = inView();
    let marked = 0;
    for (let r = r0; r < r1; r += 1) {
      for (let c = c0; c < c1; c += 1) {
        if (pending[r * cols + c] === 1) {
          pending[r * cols + c] = 2;
          marked += 1;
        }
      }
    }
    if (marked) pendingCount -= drawPending(2);
  }

  // [c0, c1, r0, r1): the columns and rows of entries in the box's view and near the window, with
  // margins; none while the box has never been laid out: a figure skipped off screen since it was
  // made (content-visibility: auto) is not painted, and the frame that lays it out draws its view
  // first (the observer above), not the change's handler, which it made longer (docs/performance.md).
  // windowOnly: the entries in the window itself (the rows with nearRows, for the observer's
  // steps), not those near it.
  function inView(windowOnly = false) {
    if (!box) return [0, 0, 0, 0];
    const x = box.left - labelBox.sideW - 1; // canvas px at the box's left edge
    const y = box.top - labelBox.headH - 1;
    let top = sight ? Math.max(0, sight.top) : 0;
    let bottom = sight ? Math.min(box.height, sight.bottom) : box.height;
    if (windowOnly && pageTop !== null) {
      const scrolled = windowAt.top - pageTop; // px: the window's top, from the box's top
      top = Math.max(top, scrolled - 1);
      bottom = Math.min(bottom, scrolled + windowAt.height - 1);
      if (bottom <= top) return [0, 0, 0, 0];
    }
    const margin = windowOnly ? 0 : nearCols;
    return [
      Math.max(0, Math.floor(x / cellW) - margin),
      Math.min(cols, Math.ceil((x + box.width) / cellW) + margin),
      Math.max(0, Math.floor((y + top) / CELL_H) - nearRows),
      Math.min(rows, Math.ceil((y + bottom) / CELL_H) + nearRows),
    ];
  }

  // Draws the entries marked `which` in pending (from latest), at most `limit`; returns how many.
  // Those in bold (∞, NaN) after the others: setting a canvas's font parses it, so it is switched
  // once per update, not per entry.
  function drawPending(which, limit = Infinity) {
    const { looks, data, dataCols, scale } = latest;
    let count = 0;
    const bold = [];
    for (let k = 0; k < looks.length && count < limit; k += 1) {
      if (pending[k] !== which) continue;
      pending[k] = 0;
      count += 1;
      if (looks[k].level < 0 && PLAIN[looks[k].cls].bold) bold.push(k);
      else drawCellAt(k, looks[k], data, dataCols, scale, FONT);
    }
    for (const k of bold) drawCellAt(k, looks[k], data, dataCols, scale, BOLD);
    return count;
  }

  // The entries near the window in a task just after the frame that shows the change (there
  // before a scroll brings them in, and not in that frame's time); the rest in idle time after it.
  const nearKey = { canvas: name, part: 'near' };
  const restKey = { canvas: name, part: 'rest' };
  // (The jobs return false: alike, they leave no cost noted per canvas in the scheduler.)
  const scheduleNear = () => drawing.afterFrame(nearKey, () => drawInView() ?? false);
  const scheduleRest = () => drawing.idle(restKey, drawRest, REST);
  function drawRest() {
    pendingCount -= drawPending(1, THRESHOLDS.canvasRestEntries);
    if (pendingCount > 0) scheduleRest();
    return false;
  }

  // ---- outlines: highlights and the active entry ----------------------------------------------------

  let marks = null;
  // What the outlines show now: every change that keeps a cell explained highlights it again
  // (τ with a weight hovered), and new outline nodes each time had Chromium restyle, lay out and
  // repaint them for nothing (as the tables' marks, matrix-table.js, which write only changes).
  let marksKey = '';
  function placeMarks() {
    const boxes = [];
    if (marks) {
      const box = (kind, r, c, w, hgt) => boxes.push({ kind, r, c, x: c * cellW, y: r * CELL_H, w: w * cellW, h: hgt * CELL_H });
      // The dependencies first, the explained entry last: its outline stays on top.
      for (const [r, c] of marks.cells) if (r < rows && c < cols) box('dep', r, c, 1, 1);
      for (const r of marks.rows) if (r < rows) box('dep', r, 0, cols, 1);
      for (const c of marks.cols) if (c < cols) box('dep', 0, c, 1, rows);
      if (marks.self && marks.self[0] < rows && marks.self[1] < cols) box('self', marks.self[0], marks.self[1], 1, 1);
    }
    const key = boxes.map((b) => `${b.kind} ${b.r} ${b.c} ${b.x} ${b.y} ${b.w} ${b.h}`).join('|');
    if (key !== marksKey)
      marksLayer.replaceChildren(
        ...boxes.map((b) => {
          const node = h('div', { className: 'cg-mark', dataset: { hl: b.kind, row: String(b.r), col: String(b.c) } });
          if (b.w === cellW * cols && cols > 1) node.dataset.col = 'all'; // a whole row
          if (b.h === CELL_H * rows && rows > 1) node.dataset.row = 'all'; // a whole column
          node.style.cssText = `left:${b.x}px;top:${b.y}px;width:${b.w}px;height:${b.h}px`;
          return node;
        }),
      );
    marksKey = key;
    placeActive();
  }

  /** marks: { self: [r, c] | null, cells: [[r, c]], rows: [r], cols: [c] } or null. */
  function highlight(next) {
    if (!next && !marks) return;
    marks = next;
    if (cellW) placeMarks();
  }

  // ---- the active entry: what the keys move and the readout says (matrix-input.js) -------------

  let at = { r: 0, c: 0 };

  let activeCss = '';
  function placeActive() {
    const css =
      spec.unit === 'row'
        ? `left:0;top:${at.r * CELL_H}px;width:${cols * cellW}px;height:${CELL_H}px`
        : `left:${at.c * cellW}px;top:${at.r * CELL_H}px;width:${cellW}px;height:${CELL_H}px`;
    if (css === activeCss) return; // (rewriting the same style still restyles the outline)
    activeCss = css;
    active.style.cssText = css;
  }

  function say() {
    if (!latest) return;
    const value = latest.looks[at.r * cols + at.c].text;
    // spec.describe(r, c, texts of row r): the readout of a matrix whose entries say more together.
    readout.textContent = spec.describe
      ? spec.describe(
          at.r,
          at.c,
          latest.looks.slice(at.r * cols, (at.r + 1) * cols).map((look) => look.text),
        )
      : t('legend.canvasCell', { row: at.r + 1, col: at.c + 1, token: rowLabels[at.r] ?? '', value });
  }

  function activate(r, c) {
    at = { r, c };
    placeActive();
    say();
  }

  function entryAt(event) {
    const box = canvas.getBoundingClientRect();
    const c = Math.floor((event.clientX - box.left) / (cellW || MIN_W));
    const r = Math.floor((event.clientY - box.top) / CELL_H);
    return r >= 0 && r < rows && c >= 0 && c < cols ? { r, c } : null;
  }

  // A press must not focus the grid before the click has said which entry it is on (a press in
  // the open editor places its caret).
  body.addEventListener('mousedown', (event) => {
    if (event.target.localName !== 'input' && entryAt(event)) event.preventDefault();
  });

  const { focusEntry } = attachMatrixInput(
    {
      root: body,
      rows,
      cols,
      entryAt,
      focusedEntry: (event) => (event.target === body ? { ...at } : null),
      onFocus: say,
      target(r, c) {
        activate(r, c);
        return { el: body, box: active };
      },
      // Over the entry, growing leftwards from its right edge as a table cell's editor does
      // (input.cell-input in lesson.css): the canvas does not change under it.
      editorAt(r, c) {
        if (!latest) return null;
        const canvasW = cols * cellW + (spec.sumColumn ? SUM_W : 0);
        let editor = null;
        return {
          before: latest.looks[r * cols + c].text,
          place(input) {
            editor = input;
            input.style.cssText = `top:${r * CELL_H}px;right:${canvasW - (c + 1) * cellW}px;width:${cellW}px;height:${CELL_H}px`;
            body.append(input);
          },
          unplace: () => editor.remove(),
          refocus: () => body.focus(),
        };
      },
      setError: frame.setError,
    },
    spec,
    events,
  );

  // Sized now: a canvas drawn later (view.js draws those off screen in idle time) must not move
  // the page when it is.
  // Columns with labels fit the widest of those it is made with.
  resize(Math.max(MIN_W, ...[...(colLabels ?? []), '\u22120.000'].map((text) => textWidth(text) + 2 * PAD + 1)));

  return {
    el: frame.el,
    spec,
    kind: 'canvas',
    /** New texts for the column headers (spec.colLabels). */
    setColLabels(labels) {
      colLabels = labels;
      drawHead();
    },
    rows,
    cols,
    update,
    prepare: allocate, // the bitmaps, in a slice of their own before the first update (view.js)
    highlight,
    setError: frame.setError,
    setSymbol(text) {
      frame.setSymbol(text);
      setAttr(body, 'aria-label', `${text} ${spec.title} ${spec.rows} × ${spec.cols}`);
    },
    focusEntry,
  };
}
