// The page's colours, in one place: the heat scales of the numbers (each level with the text
// colour that keeps contrast on it), the masked fills and hatches, the head colours, the legends.
// Every text colour goes through one rule (legible, textOn): WCAG AA, 4.5:1 on what it sits on.
// Canvases and the SVG export read them here; CSS reads them as custom properties from
// styles/colors.css, which is written from this module (cssCustomProperties; a test keeps the two
// equal). No DOM.
import { interpolateGreens, interpolateRainbow, interpolateRdBu, interpolateViridis, schemeTableau10 } from 'd3-scale-chromatic';

// [r, g, b] of '#rrggbb' or 'rgb(r, g, b)' (what d3 returns); grey for anything else.
function toRgb(color) {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  const rgb = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(color);
  return rgb ? rgb.slice(1, 4).map(Number) : [128, 128, 128];
}

const toHex = (rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** `over` seen through `color` laid on it at opacity `alpha` (sRGB, as CSS and canvas blend). */
export function mix(color, alpha, over) {
  const [a, b] = [toRgb(color), toRgb(over)];
  return toHex(a.map((c, i) => alpha * c + (1 - alpha) * b[i]));
}

/** WCAG 2 relative luminance. */
export function luminance(color) {
  const [r, g, b] = toRgb(color).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours (1 … 21). */
export function contrast(one, other) {
  const [high, low] = [luminance(one), luminance(other)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

/** The contrast normal text needs (WCAG AA); every text colour of the page reaches it. */
export const MIN_CONTRAST = 4.5;
const worst = (ink, grounds) => Math.min(...[grounds].flat().map((ground) => contrast(ink, ground)));

/** Black or white, whichever contrasts more with every fill in `grounds` (one colour, or the
 *  colours of a patterned fill). Pure black: #111 fell under 4.5:1 on mid fills, black never does. */
export const textOn = (grounds) => (worst('#000000', grounds) >= worst('#ffffff', grounds) ? '#000000' : '#ffffff');

/** `ink` itself if it reaches 4.5:1 on every fill in `grounds`, else the same hue moved toward
 *  black (or white, on dark fills) just far enough: a grey stays a grey, an orange a brown. */
export function legible(ink, grounds) {
  if (worst(ink, grounds) >= MIN_CONTRAST) return ink;
  const toward = textOn(grounds);
  for (let k = 1; k <= 64; k += 1) {
    const moved = mix(toward, k / 64, ink);
    if (worst(moved, grounds) >= MIN_CONTRAST) return moved;
  }
  return toward;
}

/** Named colours; CSS has each as --<name in kebab-case>. */
export const COLORS = {
  ink: '#1d2330',
  muted: '#5b6475',
  line: '#d9dee7',
  panel: '#ffffff',
  page: '#f4f6f9',
  accent: '#2f5fb3',
  danger: '#a4262c', // also the text of a NaN, ∞ or overflowed number
  dangerBg: '#fdecec',
  badBg: '#ffe1e1', // behind a NaN, ∞ or overflowed number
  faint: '#8a93a3', // a weight behind the mask, a visible entry of M, a masked key
  maskedInk: '#4a5261', // a masked score (−∞)
  maskZeroInk: '#7a5b00', // a masked entry of M filled with 0
  labelBg: '#f7f8fb', // behind a matrix's labels and its Σ column
  sumInk: '#5b6474',
  naive: '#fbf6ff', // the naive softmax columns of the lab
  weightBar: '#7fbf8a', // a weight's bar in the lab
  headMasked: '#e4e7ec', // a masked cell of a head's map
  edge: '#b9c1cf', // an input's border, the hatch on a head's masked cell
  pixelMasked: '#c8ccd4', // a masked entry of a pixel heatmap, checkered with pixelCheck
  pixelCheck: '#e6e8ec',
  hlSelf: '#1f3f80', // the explained entry
  hlDep: '#e08a00', // what it depends on
};

/** The 8 px diagonal hatches behind masked entries: [fill, stroke]. CSS: --hatch-<name>. */
export const HATCHES = { grey: ['#e3e6eb', '#cfd4dc'], light: ['#f3f4f6', '#e9ebef'], yellow: ['#fff7d6', '#f5e6a8'] };
/** Stripes of 4 px, [one, other]: a chip that is switched off. CSS: --stripes-<name>. */
const STRIPES = { grey: HATCHES.grey, head: [COLORS.headMasked, '#f6f7f9'] };
/** The hatch tile's strokes, as [x0, y0, x1, y1] in its 8 × 8 pixels, 2.8 px wide. */
export const HATCH_LINES = [
  [-2, 2, 2, -2],
  [0, 8, 8, 0],
  [6, 10, 10, 6],
];

// Text drawn in these colours sits on these fills (a hatch: both its colours); each is made
// legible there once, so CSS, canvases and the SVG export get the same readable ink.
const INK_GROUNDS = {
  muted: [COLORS.panel, COLORS.page, COLORS.labelBg, ...HATCHES.grey],
  faint: [COLORS.panel, COLORS.labelBg, COLORS.headMasked, ...HATCHES.light],
  maskedInk: HATCHES.grey,
  maskZeroInk: HATCHES.yellow,
  sumInk: [COLORS.labelBg, COLORS.panel],
  danger: [COLORS.badBg, COLORS.dangerBg, COLORS.panel],
  accent: [COLORS.panel, COLORS.page],
};
for (const [name, grounds] of Object.entries(INK_GROUNDS)) COLORS[name] = legible(COLORS[name], grounds);

/** Masked entries of a table look like this (the SVG export, the heads' printed maps). */
export const MASKED_CELL = { background: HATCHES.grey[0], text: COLORS.muted };
export const HEAD_MASKED_CELL = { background: COLORS.headMasked, color: COLORS.faint };

/** The same colour with opacity `alpha` (for tints behind printed numbers). */
export function tint(color, alpha) {
  const [r, g, b] = toRgb(color);
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** The colour of head h (0-based) out of `heads`: Tableau10, evenly spaced hues past ten. */
export const headColor = (h, heads) => (heads <= schemeTableau10.length ? schemeTableau10[h] : interpolateRainbow(h / heads));
/** Head h's colour as text on the panels (Tableau's orange is 2.4:1 on white: made darker). */
export const headInk = (h, heads) => legible(headColor(h, heads), [COLORS.panel, COLORS.page]);

// The heat scales, each sampled once into `levels` colours with a readable text colour each (a
// page of 8 heads prints tens of thousands of cells; 256 levels look continuous).
//   signed   X, Q, K, V, scores, context, output: RdBu flipped, so that positive values are red
//   weights  the lesson's attention weights: Greens without its palest few percent, so that a
//            small weight is still visibly tinted
//   viridis  the head views' weights (a head's identity is its categorical colour there)
const SCALES = {
  signed: { levels: 256, at: (t) => interpolateRdBu(1 - t) },
  weights: { levels: 256, at: (t) => interpolateGreens(0.04 + 0.86 * t) },
  viridis: { levels: 101, at: interpolateViridis },
};

// A masked entry with a finite fill shows its colour at this opacity over the masked hatch.
export const HID_ALPHA = 0.6;
const HID_GROUNDS = [...HATCHES.grey, ...HATCHES.light];

// A masked entry's fill and text: the fill HID_ALPHA opaque over both hatches, and where the
// hatch's stripes leave neither black nor white at 4.5:1 (mid reds), the fill moved away from
// the text until they do.
function hidLook(background) {
  const grounds = (fill) => HID_GROUNDS.map((ground) => mix(fill, HID_ALPHA, ground));
  const text = textOn(grounds(background));
  const away = text === '#000000' ? '#ffffff' : '#000000';
  for (let k = 0; k <= 32; k += 1) {
    const hidBackground = mix(away, k / 32, background);
    if (worst(text, grounds(hidBackground)) >= MIN_CONTRAST) return { hidBackground, hidText: text };
  }
  return { hidBackground: away, hidText: text };
}

const palettes = {};
/** kind's levels, low → high: [{ background, text, hidBackground, hidText, level }]; hid*: a
 *  masked entry with a finite fill, hidBackground shown HID_ALPHA opaque over the hatch. */
export function palette(kind) {
  const { levels, at } = SCALES[kind];
  palettes[kind] ??= Array.from({ length: levels }, (_, level) => {
    const background = at(level / (levels - 1));
    return { background, text: textOn(background), ...hidLook(background), level };
  });
  return palettes[kind];
}

/** n CSS colours low → high, for a legend's bar. */
export const stops = (kind, n = 9) =>
  Array.from({ length: n }, (_, i) => palette(kind)[Math.round((i / (n - 1)) * (SCALES[kind].levels - 1))].background);

/** An opaque colour as the uint32 an RGBA pixel is in a little-endian Uint32Array over ImageData. */
export function pixelOf(color) {
  const [r, g, b] = toRgb(color);
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

const pixelPalettes = {};
/** kind's levels as pixels (for canvases written as ImageData: no colour string per entry). */
export const palettePixels = (kind) => (pixelPalettes[kind] ??= Uint32Array.from(palette(kind), ({ background }) => pixelOf(background)));

// CSS rules `.<prefix>-<level> { background; color }` for every level of a scale, so that a cell
// names its colour with a class instead of an inline style (much faster for big pages), and the
// same level masked (class hid): its colour HID_ALPHA opaque over the table's hatch (main.css).
export function paletteRules(kind, prefix) {
  const hid = `color-mix(in srgb, $COLOR ${HID_ALPHA * 100}%, transparent)`;
  return palette(kind)
    .map(
      ({ background, text, hidBackground, hidText }, level) =>
        `.${prefix}-${level}{background:${background};color:${text}}\n` +
        `table.heatmap td.${prefix}-${level}.hid{background:${hid.replace('$COLOR', hidBackground)};color:${hidText}}`,
    )
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

// kind: 'signed' (a domain symmetric in the matrix's largest |value|) | 'weights' | 'viridis'
// ([0, 1]); data: the matrix's values; skip: a mask whose masked entries stay out of the signed
// domain (see maxAbs).
// → { cell(value), levelOf(value) → palette index → { background, text, level }, color(value) → css colour,
//     stops(n) → css colours low→high, domain: [low, high] }
export function colorScale(kind, data = null, skip = null) {
  const colors = palette(kind);
  const max = kind === 'signed' ? maxAbs(data, skip) : 1;
  const [low, high] = kind === 'signed' ? [-max, max] : [0, 1];
  const top = colors.length - 1;
  const levelOf = (value) => Math.round(Math.min(1, Math.max(0, (value - low) / (high - low))) * top);
  const cell = (value) => colors[levelOf(value)];
  return { cell, levelOf, color: (value) => cell(value).background, stops: (n) => stops(kind, n), domain: [low, high] };
}

// (made at its first use, not as the page starts: its levels' legible colours are computed)
let viridis = null;
/** The head views' level of an attention weight in [0, 1] (NaN counts as 0), and its fill. */
export const weightLevel = (w) => (viridis ??= colorScale('viridis')).levelOf(Number.isFinite(w) ? w : 0);
export const weightColor = (w) => palette('viridis')[weightLevel(w)].background;
/** A grid's fill (heads/grid.js) of a signed matrix's entries. */
export function signedFill(matrix) {
  const scale = colorScale('signed', matrix.data);
  return (r, c, value) => {
    const { background, text } = scale.cell(value);
    return { background, color: text };
  };
}
/** A grid's fill of a head's weights, greyed where `mask` (rows × cols, 1 = masked) says so. */
export function weightFill(mask, kind = 'viridis') {
  const scale = colorScale(kind); // (viridis for the head views; the Train maps take the lesson's greens)
  return (r, c, w) => {
    if (mask.data[r * mask.cols + c]) return HEAD_MASKED_CELL;
    const { background, text } = scale.cell(Number.isFinite(w) ? w : 0);
    return { background, color: text };
  };
}

// The hatch tile as a CSS background: its fill, and the strokes as an SVG data URL.
function hatchCss([fill, stroke]) {
  const path = HATCH_LINES.map(([x0, y0, x1, y1]) => `M${x0} ${y0}L${x1} ${y1}`).join('');
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'><path d='${path}' stroke='${stroke}' stroke-width='2.8'/></svg>`;
  return `${fill} url("data:image/svg+xml,${svg.replace(/[<>#]/g, encodeURIComponent)}")`;
}

/** The text of styles/colors.css: every named colour and hatch as a custom property of :root. */
export function cssCustomProperties() {
  const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const lines = [
    ...Object.entries(COLORS).map(([name, color]) => `--${kebab(name)}: ${color};`),
    ...Object.entries(HATCHES).map(([name, colors]) => `--hatch-${name}: ${hatchCss(colors)};`),
    ...Object.entries(STRIPES).map(([name, [one, other]]) => `--stripes-${name}: repeating-linear-gradient(135deg, ${one} 0 4px, ${other} 4px 8px);`),
  ];
  return `/* Written from web/src/render/colors.js (tests/js/render-colors.test.mjs): edit the colours there. */\n:root {\n${lines.map((line) => `  ${line}`).join('\n')}\n}\n`;
}
