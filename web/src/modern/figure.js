// The modern panels' matrices, each drawn by the one matrix component (render/matrix.js, a head
// view's figure 'grid'): a view kept per name while its layout stays, updated in place, so a
// step through tiles or cache rows rewrites only the cells that change.
import { HEAD_MASKED_CELL, signedFill, weightFill } from '../render/colors.js';
import { h } from '../render/dom.js';
import { createMatrix, keptView } from '../render/matrix.js';
import { scrollWhenNeeded } from '../render/overflow-class.js';
import { gridPresentation } from '../render/policy.js';

const SIDE = 64; // the engine's largest trace: every row and column of it is drawn

/**
 * cache: a Map kept by the panel; spec: { name, caption, rowLabels, colLabels?, t, numbers? }.
 * matrix: { rows, cols, data }. → the view (render/matrix.js: el, update, highlight)
 */
export function gridView(cache, spec, matrix) {
  const shown = gridPresentation({ rows: matrix.rows, cols: matrix.cols, maxRows: SIDE, maxCols: SIDE, numbers: spec.numbers });
  const layout = () => [matrix.rows, matrix.cols, shown, spec.caption, spec.rowLabels, spec.colLabels ?? [], spec.t('heads.cut', {})];
  return keptView(cache, spec.name, layout, () =>
    createMatrix(
      {
        figure: 'grid',
        surface: 'table',
        kind: 'signed',
        head: null,
        label: spec.caption,
        ...spec,
        rows: matrix.rows,
        cols: matrix.cols,
        shownRows: shown.rows,
        shownCols: shown.cols,
        numbers: shown.numbersInCells,
      },
      null,
    ),
  );
}

/**
 * A table's box, scrolling sideways when the panel is narrower than it (modern.css shows a shadow
 * where more is hidden); focusable only then, so that the arrow keys can scroll it.
 */
export const scrollBox = (label, children) => scrollWhenNeeded(h('div', { className: 'md-scroll' }, children), label);

/** A signed matrix's fill over its finite entries; −∞ (masked) entries greyed. */
export function finiteFill(matrix) {
  const finite = Float32Array.from(matrix.data, (v) => (Number.isFinite(v) ? v : 0));
  const fill = signedFill({ ...matrix, data: finite });
  return (r, c, value) => (value === -Infinity ? HEAD_MASKED_CELL : fill(r, c, value));
}

/** Attention weights in viridis, greyed where `mask` (1 = masked) says so. */
export const weightsFill = (mask) => weightFill(mask);

/** A plain fill (numbers without a palette). */
export const plainFill = () => null;

/** Bytes as B, KB, MB, GB (powers of 1 024), three significant digits. */
export function bytesText(bytes) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : Number(value.toPrecision(3))} ${units[unit]}`;
}

/** A small difference as 2.4e−7 (the point is how small), 0 as 0. */
export function smallText(value) {
  if (value === 0) return '0';
  if (Math.abs(value) < 1e-3) return value.toExponential(1).replace('-', '\u2212');
  return value.toFixed(4).replace('-', '\u2212');
}
