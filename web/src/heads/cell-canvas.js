// Grids of coloured cells painted as pixels: the small attention maps of the head split and its
// detail map once it is too wide to print numbers. A 64 × 64 table of cells costs 50–130 ms
// to build, style and lay out at T = 512; its pixels written as one ImageData take a few.
import { formatCell } from '../render/format.js';
import { h } from '../render/dom.js';
import { COLORS, palettePixels, pixelOf, weightLevel } from '../render/colors.js';

const PITCH = 12; // CSS pixels per entry of a detail map: an 11-pixel cell and a 1-pixel gap (heads.css)

/**
 * Paints the top-left rows × cols weights of a head on `canvas`: `cell` pixels a side per entry
 * and `gap` pixels of white between entries; viridis for a weight, grey where masked (with a
 * diagonal hatch when a cell is 6 pixels or more).
 */
export function paintWeights(canvas, { weights, mask, rows, cols, cell, gap = 0 }) {
  const pitch = cell + gap;
  const width = cols * pitch - gap;
  const height = rows * pitch - gap;
  canvas.width = width;
  canvas.height = height;
  const g = canvas.getContext('2d');
  if (!g) return canvas;
  const image = g.createImageData(width, height);
  const pixels = new Uint32Array(image.data.buffer);
  pixels.fill(pixelOf(COLORS.panel)); // the white between cells (the tables' cell borders)
  const masked = pixelOf(COLORS.headMasked);
  const viridis = palettePixels('viridis');
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const k = r * weights.cols + c;
      const color = mask.data[k] ? masked : viridis[weightLevel(weights.data[k])];
      for (let y = r * pitch, p0 = y * width + c * pitch; y < r * pitch + cell; y += 1, p0 += width) pixels.fill(color, p0, p0 + cell);
    }
  }
  g.putImageData(image, 0, 0);
  if (cell >= 6) {
    // The hatch: one stroked path for every masked cell.
    g.strokeStyle = COLORS.edge;
    g.beginPath();
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        if (!mask.data[r * weights.cols + c]) continue;
        g.moveTo(c * pitch, r * pitch + cell);
        g.lineTo(c * pitch + cell, r * pitch);
      }
    }
    g.stroke();
  }
  return canvas;
}

/**
 * The detail map of one head as a canvas of 11-pixel cells with the query tokens beside it:
 * what the compact table of renderGrid showed, without its 4 096 cells. Pointing at a cell (or
 * moving the keyboard focus with the arrow keys) prints its tokens and weight below it.
 * spec: { weights, mask, rowLabels, colLabels, head, maxRows, maxCols, label, t }
 * → <figure class="hv-grid hv-cells" data-hv-figure="detail-weights">
 */
export function renderWeightCells({ weights, mask, rowLabels, colLabels, head, maxRows, maxCols, label, t }) {
  const rows = Math.min(weights.rows, maxRows);
  const cols = Math.min(weights.cols, maxCols);
  const pitch = PITCH;
  // One pixel per entry, scaled up by CSS without smoothing; the white lines between cells are
  // a background over it (.hv-cells-gaps). Writing 12 × 12 pixels per entry took 15 ms at 64 × 64.
  const canvas = paintWeights(h('canvas', { className: 'hv-cells-canvas', tabIndex: 0, role: 'img', 'aria-label': label }), { weights, mask, rows, cols, cell: 1 });
  canvas.style.width = `${cols * pitch}px`;
  canvas.style.height = `${rows * pitch}px`;
  // Row labels as text (tokens come from the reader: textContent only), one per cell row.
  const labels = h('div', { className: 'hv-cells-rows', style: { lineHeight: `${pitch}px` } }, Array.from({ length: rows }, (_, r) => {
    const text = rowLabels[r] ?? String(r + 1);
    return h('div', { text, title: text });
  }));
  const readout = h('p', { className: 'canvas-readout', 'aria-live': 'polite' });
  let focus = { r: 0, c: 0 };
  // The readout of the figure the canvas is in when the reader points: a figure kept on screen
  // takes the canvas of a newer one (heads/part-keeper.js), whose listeners hold the new weights.
  const show = (r, c) => {
    focus = { r, c };
    const k = r * weights.cols + c;
    const value = mask.data[k] ? '0' : formatCell(weights.data[k]);
    const shownIn = canvas.closest('figure')?.querySelector('.canvas-readout') ?? readout;
    shownIn.textContent = `${rowLabels[r] ?? r + 1} → ${colLabels[c] ?? c + 1}: ${value}`;
  };
  canvas.addEventListener('mousemove', (event) => {
    const c = Math.min(cols - 1, Math.max(0, Math.floor(event.offsetX / pitch)));
    const r = Math.min(rows - 1, Math.max(0, Math.floor(event.offsetY / pitch)));
    show(r, c);
  });
  canvas.addEventListener('keydown', (event) => {
    const move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!move) return;
    event.preventDefault();
    show(Math.min(rows - 1, Math.max(0, focus.r + move[0])), Math.min(cols - 1, Math.max(0, focus.c + move[1])));
  });
  canvas.addEventListener('focus', () => show(focus.r, focus.c));
  const notes = [];
  if (rows < weights.rows || cols < weights.cols) {
    notes.push(h('p', { className: 'hv-cut', text: t('heads.cut', { rows, totalRows: weights.rows, cols, totalCols: weights.cols }) }));
  }
  return h('figure', { className: 'hv-grid hv-cells', dataset: { hvFigure: 'detail-weights', head: String(head) } }, [
    h('div', { className: 'hv-scroll' }, [
      h('div', { className: 'hv-cells-body' }, [labels, h('div', { className: 'hv-cells-map' }, [canvas, h('div', { className: 'hv-cells-gaps' })])]),
    ]),
    readout,
    ...notes,
  ]);
}
