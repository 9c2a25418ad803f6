// Colour channels of the head views, kept apart on purpose: a head's identity is a categorical
// colour (d3's Tableau10; evenly spaced hues past ten heads) used for frames, bands, lines and
// tints; an attention weight's size is a sequential colour (viridis) used only as a cell fill.
// No DOM.
import { interpolateRainbow, interpolateViridis, schemeTableau10 } from 'd3-scale-chromatic';

/** The colour of head h (0-based) out of `heads`. */
export function headColor(h, heads) {
  if (heads <= schemeTableau10.length) return schemeTableau10[h];
  return interpolateRainbow(h / heads);
}

/** The same colour with opacity `alpha` (for tints behind printed numbers). */
export function tint(color, alpha) {
  const rgb = toRgb(color);
  return `rgba(${rgb[0]}, ${rgb[1]}, ${rgb[2]}, ${alpha})`;
}

function toRgb(color) {
  const hex = /^#([0-9a-f]{6})$/i.exec(color);
  if (hex) return [0, 2, 4].map((i) => parseInt(hex[1].slice(i, i + 2), 16));
  const rgb = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(color);
  return rgb ? rgb.slice(1, 4).map(Number) : [128, 128, 128];
}

// Viridis sampled once; a weight in [0, 1] picks one of LEVELS colours.
const LEVELS = 101;
const VIRIDIS = Array.from({ length: LEVELS }, (_, i) => interpolateViridis(i / (LEVELS - 1)));

/** The fill of an attention weight in [0, 1]. */
export function weightColor(w) {
  return VIRIDIS[weightLevel(w)];
}

// The same levels as bytes, [r, g, b] per level, for canvases written as ImageData (a call and a
// colour string per cell cost more than the cell: 9 216 cells per map at T ≥ 96).
export const VIRIDIS_RGB = Uint8Array.from(VIRIDIS.flatMap(toRgb));

/** The level of a weight: VIRIDIS_RGB[3 * level …] is weightColor(w) as bytes. */
export function weightLevel(w) {
  return Math.round(Math.min(1, Math.max(0, Number.isFinite(w) ? w : 0)) * (LEVELS - 1));
}

/** CSS stops for a legend bar from 0 to 1. */
export const weightStops = (n = 9) => Array.from({ length: n }, (_, i) => weightColor(i / (n - 1)));

/** Dark text on light fills, white on dark ones. */
export function textOn(color) {
  const [r, g, b] = toRgb(color).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#111' : '#fff';
}

/**
 * Which key/value head query head h reads: heads/kvHeads query heads share one, in order (the
 * engine's grouping; tests/js/heads-views.test.mjs checks it against perHead[h].k).
 */
export const kvHeadOf = (h, heads, kvHeads) => Math.floor(h / (heads / kvHeads));
