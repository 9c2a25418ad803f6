// A matrix too large for a table of printed cells, drawn as pixels on a canvas: one block of
// pixels per entry, the same colour scales as the tables, masked (−∞) entries in hatched grey.
// Hovering (or moving the keyboard focus with the arrow keys) shows the entry's position and
// value below it. Drawing 512×512 entries takes a few milliseconds: one ImageData write.
import { colorScale, paletteBytes } from './colors.js';
import { formatCell } from './format.js';
import { h } from './dom.js';

const MAX_PIXELS = 384;  // the canvas is at most this wide and high (CSS pixels)
const MASKED_RGB = [200, 204, 212];
const CHECK_RGB = [230, 232, 236];

// spec: { matrix: {rows, cols, data}, kind: 'signed' | 'weights', rowLabels?, colLabels?,
//         label: string (accessible name), describe(r, c, value) → string (the hover text) }
export function renderHeatmapCanvas({ matrix, kind, label, describe }) {
  const { rows, cols, data } = matrix;
  const scale = colorScale(kind, data);
  // Entries per pixel block: at least 1 pixel per entry; larger blocks for small matrices.
  const block = Math.max(1, Math.floor(MAX_PIXELS / Math.max(rows, cols)));
  const canvas = h('canvas', { className: 'heatmap-canvas', tabIndex: 0, role: 'img', 'aria-label': label });
  // One pixel per entry in the bitmap, scaled up by CSS without smoothing: exact and cheap.
  canvas.width = cols;
  canvas.height = rows;
  canvas.style.width = `${cols * block}px`;
  canvas.style.height = `${rows * block}px`;
  canvas.style.imageRendering = 'pixelated';
  const context = canvas.getContext('2d');
  // Bytes straight from the palette's levels: no colour strings per entry (262 144 at T = 512).
  const image = context.createImageData(cols, rows);
  const pixels = image.data;
  const rgb = paletteBytes(kind);
  for (let r = 0, n = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1, n += 1) {
      const value = data[n];
      const p = n * 4;
      if (value === -Infinity || Number.isNaN(value)) {
        const grey = (c + r) % 2 ? MASKED_RGB : CHECK_RGB;
        pixels[p] = grey[0];
        pixels[p + 1] = grey[1];
        pixels[p + 2] = grey[2];
      } else {
        const level = scale.levelOf(value) * 3;
        pixels[p] = rgb[level];
        pixels[p + 1] = rgb[level + 1];
        pixels[p + 2] = rgb[level + 2];
      }
      pixels[p + 3] = 255;
    }
  }
  context.putImageData(image, 0, 0);

  const readout = h('p', { className: 'canvas-readout', 'aria-live': 'polite' });
  let focus = { r: 0, c: 0 };
  const show = (r, c) => {
    focus = { r, c };
    readout.textContent = describe(r, c, formatCell(data[r * cols + c]));
  };
  canvas.addEventListener('mousemove', (event) => {
    const box = canvas.getBoundingClientRect();
    const c = Math.min(cols - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * cols)));
    const r = Math.min(rows - 1, Math.max(0, Math.floor(((event.clientY - box.top) / box.height) * rows)));
    show(r, c);
  });
  canvas.addEventListener('keydown', (event) => {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    show(Math.min(rows - 1, Math.max(0, focus.r + move[0])), Math.min(cols - 1, Math.max(0, focus.c + move[1])));
  });
  canvas.addEventListener('focus', () => show(focus.r, focus.c));
  return h('div', { className: 'canvas-heatmap' }, [canvas, readout]);
}
