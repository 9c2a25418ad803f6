// A head's attention weights painted as pixels: the small maps of the head split, and its detail
// map once it is too wide to print numbers (matrix-pixels.js): a table of thousands of cells costs
// far more to build, style and lay out than its pixels written as one ImageData.
import { COLORS, colorScale, palettePixels, pixelOf } from './colors.js';

/**
 * Paints the top-left rows × cols weights of a head on `canvas`: `cell` pixels a side per entry
 * and `gap` pixels of white between entries; viridis for a weight (or `palette`: the Train maps
 * take the lesson's greens), grey where masked (with a diagonal hatch when a cell is 6 pixels or more).
 */
export function paintWeights(canvas, { weights, mask, rows, cols, cell, gap = 0, palette = 'viridis' }) {
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
  const colors = palettePixels(palette);
  const scale = colorScale(palette);
  const level = (w) => scale.levelOf(Number.isFinite(w) ? w : 0);
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const k = r * weights.cols + c;
      const color = mask.data[k] ? masked : colors[level(weights.data[k])];
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
