// A matrix too large for a table of printed cells, drawn as pixels on a canvas: one block of
// pixels per entry, the same colour scales as the tables, masked (−∞) entries in hatched grey.
// Hovering (or moving the keyboard focus with the arrow keys) shows the entry's position and
// value below it. Drawing 512×512 entries takes a few milliseconds: one ImageData write.
import { COLORS, colorScale, palettePixels, pixelOf } from './colors.js';
import { formatCell } from './format.js';
import { h } from './dom.js';
import { THRESHOLDS } from './thresholds.js';

const MAX_PIXELS = THRESHOLDS.overviewPx;

// spec: { matrix: {rows, cols, data}, kind: 'signed' | 'weights', rowLabels?, colLabels?,
//         label: string (accessible name), describe(r, c, value) → string (the hover text) }
export function renderHeatmapCanvas({ matrix, kind, label, describe }) {
  const { rows, cols, data } = matrix;
  const scale = colorScale(kind, data);
  // Entries per pixel block: at least 1 pixel per entry; larger blocks for small matrices.
  const block = Math.max(1, Math.floor(MAX_PIXELS / Math.max(rows, cols)));
  const canvas = h('canvas', { className: 'heatmap-canvas', tabIndex: 0, role: 'img', 'aria-label': label });
  // One pixel per entry in the bitmap, scaled up by CSS without smoothing: exact and cheap. Past
  // MAX_PIXELS entries a side the screen shows at most MAX_PIXELS pixels anyway: the bitmap is that
  // size and each pixel takes the entry under it (what the browser's nearest-neighbour scaling
  // would pick), so T = 1024 writes 147 456 pixels instead of 1 048 576. The readout below still
  // reads every entry.
  const width = Math.min(cols, MAX_PIXELS);
  const height = Math.min(rows, MAX_PIXELS);
  canvas.width = width;
  canvas.height = height;
  canvas.style.width = `${cols <= MAX_PIXELS ? cols * block : MAX_PIXELS}px`;
  canvas.style.height = `${rows <= MAX_PIXELS ? rows * block : MAX_PIXELS}px`;
  canvas.style.imageRendering = 'pixelated';
  const context = canvas.getContext('2d');
  // Pixels straight from the palette's levels, one uint32 (RGBA, little-endian) per pixel: no
  // colour strings per entry (262 144 at T = 512).
  const image = context.createImageData(width, height);
  const pixels = new Uint32Array(image.data.buffer);
  const palette = palettePixels(kind);
  const masked = [pixelOf(COLORS.pixelMasked), pixelOf(COLORS.pixelCheck)];
  // The entry under each pixel column (the same for every row).
  const columnOf = Int32Array.from({ length: width }, (_, x) => (width === cols ? x : Math.floor((x * cols) / width)));
  // scale.levelOf inlined (a call per pixel doubles the time): the level of value v in [low, high].
  const [low, high] = scale.domain;
  const top = palette.length - 1;
  const perUnit = top / (high - low);
  for (let y = 0, p = 0; y < height; y += 1) {
    const r = height === rows ? y : Math.floor((y * rows) / height);
    const base = r * cols;
    for (let x = 0; x < width; x += 1, p += 1) {
      const c = columnOf[x];
      const value = data[base + c];
      if (value === -Infinity || Number.isNaN(value)) {
        pixels[p] = masked[(c + r) % 2 ? 0 : 1];
      } else {
        const unit = (value - low) * perUnit;
        pixels[p] = palette[Math.round(unit < 0 ? 0 : unit > top ? top : unit)];
      }
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
