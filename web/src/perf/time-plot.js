// The T-versus-time plot of the performance panel: measured milliseconds against T on linear
// axes, so that the T² term shows as an upward bend. SVG, built with render/dom.js's svgEl; every text
// goes in through textContent.
import { svgEl } from '../render/dom.js';

const WIDTH = 320;
const HEIGHT = 180;
const PAD = { left: 44, right: 10, top: 10, bottom: 30 };

// points: [{ T, ms }] in increasing T; labels: { x, y } axis titles.
export function renderTimePlot(points, labels) {
  const svg = svgEl('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'time-plot', role: 'img', 'aria-label': `${labels.y} / ${labels.x}` });
  if (points.length === 0) return svg;
  const maxT = Math.max(...points.map((p) => p.T));
  const maxMs = Math.max(...points.map((p) => p.ms), 1e-3);
  const x = (T) => PAD.left + (T / maxT) * (WIDTH - PAD.left - PAD.right);
  const y = (ms) => HEIGHT - PAD.bottom - (ms / maxMs) * (HEIGHT - PAD.top - PAD.bottom);
  svg.append(svgEl('line', { x1: PAD.left, y1: HEIGHT - PAD.bottom, x2: WIDTH - PAD.right, y2: HEIGHT - PAD.bottom, class: 'axis' }));
  svg.append(svgEl('line', { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom, class: 'axis' }));
  svg.append(svgEl('text', { x: PAD.left - 4, y: PAD.top + 8, 'text-anchor': 'end', class: 'tick' }, maxMs.toFixed(maxMs < 10 ? 1 : 0)));
  svg.append(svgEl('text', { x: PAD.left - 4, y: HEIGHT - PAD.bottom, 'text-anchor': 'end', class: 'tick' }, '0'));
  svg.append(svgEl('text', { x: WIDTH - PAD.right, y: HEIGHT - PAD.bottom + 12, 'text-anchor': 'end', class: 'tick' }, String(maxT)));
  svg.append(svgEl('text', { x: (WIDTH + PAD.left) / 2, y: HEIGHT - 4, 'text-anchor': 'middle', class: 'title' }, labels.x));
  svg.append(svgEl('text', { x: 10, y: HEIGHT / 2, transform: `rotate(-90 10 ${HEIGHT / 2})`, 'text-anchor': 'middle', class: 'title' }, labels.y));
  svg.append(svgEl('polyline', { points: points.map((p) => `${x(p.T)},${y(p.ms)}`).join(' '), class: 'line' }));
  for (const p of points) {
    const dot = svgEl('circle', { cx: x(p.T), cy: y(p.ms), r: 3, class: 'dot' });
    dot.append(svgEl('title', {}, `T = ${p.T}: ${p.ms.toFixed(2)} ms`));
    svg.append(dot);
  }
  return svg;
}
