// A head's weights as bare coloured cells on a canvas (spec.surface 'pixels'): its detail map
// once it has too many keys for printed numbers. One pixel per entry, scaled up by CSS without
// smoothing, the white lines between cells a background over it (heads.css .hv-cells-gaps). The
// figure is a head grid's (grid-frame.js), the pointer and keys matrix-input.js's; a readout
// under the map says the entry pointed at or focused.
import { h } from './dom.js';
import { fmt } from './numbers.js';
import { createGridFrame } from './grid-frame.js';
import { attachMatrixInput } from './matrix-input.js';
import { paintWeights } from './weight-pixels.js';

const PITCH = 12; // CSS px per entry: an 11-px cell and a 1-px gap

/** spec: render/matrix.js (figure 'grid', with colLabels and a label for the canvas). */
export function createMatrixPixels(spec) {
  const { rowLabels, colLabels } = spec;
  const rows = spec.shownRows;
  const cols = spec.shownCols;
  const canvas = h('canvas', { className: 'hv-cells-canvas', tabIndex: 0, role: 'img', 'aria-label': spec.label });
  canvas.style.width = `${cols * PITCH}px`;
  canvas.style.height = `${rows * PITCH}px`;
  // Row labels as text (tokens come from the reader: textContent only), one per cell row.
  const labels = h(
    'div',
    { className: 'hv-cells-rows', style: { lineHeight: `${PITCH}px` } },
    Array.from({ length: rows }, (_, r) => {
      const text = rowLabels[r] ?? String(r + 1);
      return h('div', { text, title: text });
    }),
  );
  const readout = h('p', { className: 'canvas-readout', 'aria-live': 'polite' });
  const body = h('div', { className: 'hv-cells-body' }, [
    labels,
    h('div', { className: 'hv-cells-map' }, [canvas, h('div', { className: 'hv-cells-gaps' })]),
  ]);
  const frame = createGridFrame(spec, rows, cols, body, readout);
  frame.el.classList.add('hv-cells');

  let drawn = null; // { matrix, mask }
  let at = { r: 0, c: 0 };
  // The readout of the figure the canvas is in: a figure kept on screen takes the canvas of a
  // newer one (heads/part-keeper.js), whose listeners hold the new weights.
  function show(r, c) {
    at = { r, c };
    if (!drawn) return;
    const k = r * drawn.matrix.cols + c;
    const value = drawn.mask?.data[k] ? '0' : fmt(drawn.matrix.data[k]);
    const shownIn = canvas.closest('figure')?.querySelector('.canvas-readout') ?? readout;
    shownIn.textContent = `${rowLabels[r] ?? r + 1} → ${colLabels?.[c] ?? c + 1}: ${value}`;
  }
  const clamp = (px, n) => Math.min(n - 1, Math.max(0, Math.floor(px / PITCH)));
  const showRef = ({ row, col }) => show(row, col);
  // Read-only: no editor, no toggle. The map is scrolled to as a whole (box: null).
  attachMatrixInput(
    {
      root: canvas,
      rows,
      cols,
      entryAt(event) {
        const box = canvas.getBoundingClientRect();
        return { r: clamp(event.clientY - box.top, rows), c: clamp(event.clientX - box.left, cols) };
      },
      focusedEntry: (event) => (event.target === canvas ? { ...at } : null),
      target(r, c) {
        at = { r, c };
        return { el: canvas, box: null };
      },
    },
    spec,
    { preview: showRef, select: showRef },
  );

  // (No highlight, focusEntry or prepare: no lesson step shows a head's map this way.)
  return {
    el: frame.el,
    spec,
    kind: 'pixels',
    rows,
    cols,
    /** matrix: the weights; options.mask: the result's mask (greyed, read as 0). */
    update(matrix, { mask }) {
      drawn = { matrix, mask };
      paintWeights(canvas, { weights: matrix, mask, rows, cols, cell: 1, palette: spec.palette });
    },
  };
}
