// Cell colours from d3-scale-chromatic. Signed values (X, Q, K, V, scores, context, output) use a
// diverging scale centred on 0 and symmetric in the matrix's largest |value|: blue below 0, red
// above. Attention weights lie in [0, 1] and use a sequential scale. No DOM here.
import { interpolateGreens, interpolateRdBu } from 'd3-scale-chromatic';

// Each scale is sampled once into LEVELS colours (with a readable text colour for each): a page
// of 8 heads prints tens of thousands of cells, and 256 levels look continuous.
const LEVELS = 256;

const INTERPOLATORS = {
  // RdBu runs red (0) → white (0.5) → blue (1); flipped so that positive values are red.
  signed: (t) => interpolateRdBu(1 - t),
  // The palest few percent are skipped so that a small weight is still visibly tinted.
  weights: (t) => interpolateGreens(0.04 + 0.86 * t),
};

const palettes = {};
function palette(kind) {
  if (!palettes[kind]) {
    palettes[kind] = Array.from({ length: LEVELS }, (_, i) => {
      const background = INTERPOLATORS[kind](i / (LEVELS - 1));
      return { background, text: textColorFor(background), level: i };
    });
  }
  return palettes[kind];
}

// CSS rules `.<prefix>-<level> { background; color }` for every level of a scale, so that a cell
// names its colour with a class instead of an inline style (much faster for big pages).
export function paletteRules(kind, prefix) {
  return palette(kind)
    .map(({ background, text }, level) => `.${prefix}-${level}{background:${background};color:${text}}`)
    .join('\n');
}

// Largest |value| over the finite entries (masked −∞ entries do not count); 1 if all are 0.
// skip: entries n with skip[n] truthy do not count either (a mask, 1 = masked); if that leaves
// none, every entry counts. An index loop: T = 512 gives 262 144 entries per matrix.
export function maxAbs(data, skip = null) {
  let max = 0;
  let counted = 0;
  for (let n = 0; n < data.length; n += 1) {
    if (skip && skip[n]) continue;
    counted += 1;
    const value = data[n];
    if (Number.isFinite(value) && Math.abs(value) > max) max = Math.abs(value);
  }
  if (skip && counted === 0) return maxAbs(data);
  return max > 0 ? max : 1;
}

// The palette's colours as bytes, [r, g, b] per level (for canvases written as ImageData).
const rgbPalettes = {};
export function paletteBytes(kind) {
  if (!rgbPalettes[kind]) {
    const bytes = new Uint8Array(LEVELS * 3);
    palette(kind).forEach(({ background }, level) => {
      const match = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(background);
      if (match) bytes.set(match.slice(1, 4).map(Number), level * 3);
    });
    rgbPalettes[kind] = bytes;
  }
  return rgbPalettes[kind];
}

// kind: 'signed' | 'weights'; data: the matrix's values (for the signed domain); skip: a mask
// whose masked entries stay out of the signed domain (see maxAbs).
// → { cell(value), levelOf(value) → palette index → { background, text, level }, color(value) → css colour,
//     stops(n) → css colours low→high, domain: [low, high] }
export function colorScale(kind, data, skip = null) {
  const colors = palette(kind);
  const max = kind === 'weights' ? 1 : maxAbs(data, skip);
  const [low, high] = kind === 'weights' ? [0, 1] : [-max, max];
  const levelOf = (value) => Math.round(Math.min(1, Math.max(0, (value - low) / (high - low))) * (LEVELS - 1));
  const cell = (value) => colors[levelOf(value)];
  return {
    cell,
    levelOf,
    color: (value) => cell(value).background,
    stops: (n) => Array.from({ length: n }, (_, i) => colors[Math.round((i / (n - 1)) * (LEVELS - 1))].background),
    domain: [low, high],
  };
}

// Dark text on light cells, white text on dark ones (WCAG relative luminance of an rgb() colour).
export function textColorFor(css) {
  const match = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(css);
  if (!match) return '#111';
  const [r, g, b] = match.slice(1, 4).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#111' : '#fff';
}
