// A small matrix table of the head views, drawn by the one matrix component (render/matrix.js,
// spec.figure 'grid'): numbers printed when the matrix is narrow, small squares with the number
// in a tooltip when it is wide. The caller decides each cell's colours (a head tint, a weight
// colour…). Cells carry data-hv (the matrix), data-head, data-row and data-col (0-based).
import { gridPresentation } from '../render/policy.js';
import { createMatrix, keptView } from '../render/matrix.js';
import { h } from '../render/dom.js';

const noFill = () => null; // the plain cells of the split's output

/**
 * spec: { matrix, name, head?, rowLabels, colLabels? (null: no label row), bandColor?: (c) → css,
 *         rowBands?: (r) → css (a border left of each row label),
 *         fill(r, c, value) → { background, color? } | null, mask? (a weight behind it prints 0),
 *         maxRows?, maxCols?, numbers?: boolean, caption?: string, t,
 *         surface?: 'pixels' (a weight map as bare cells on a canvas) with its label, palette?
 *         (its colours: 'viridis' unless given) }
 * cache: a Map the caller keeps between its redraws, or null: the figure last made for the same
 *   name and head then takes the new numbers in place while its layout (size, labels, bands,
 *   caption, language) stays, as a view that redraws on every change needs.
 * → <figure class="hv-grid">
 */
export function renderGrid(spec, cache = null) {
  const { matrix, name, head = null, rowLabels, colLabels, bandColor, caption, t } = spec;
  const {
    rows,
    cols,
    numbersInCells: numbers,
  } = gridPresentation({ rows: matrix.rows, cols: matrix.cols, maxRows: spec.maxRows, maxCols: spec.maxCols, numbers: spec.numbers });
  const layout = () => [
    matrix.rows,
    matrix.cols,
    rows,
    cols,
    numbers,
    caption ?? '',
    t('heads.cut', {}),
    Array.from({ length: rows }, (_, r) => rowLabels[r] ?? null),
    colLabels === null ? null : Array.from({ length: cols }, (_, c) => colLabels?.[c] ?? null),
    bandColor ? Array.from({ length: cols }, (_, c) => bandColor(c)) : null,
    spec.rowBands ? Array.from({ length: rows }, (_, r) => spec.rowBands(r)) : null,
  ];
  const view = keptView(cache, `${name}|${head ?? ''}`, layout, () =>
    createMatrix(
      {
        figure: 'grid',
        surface: spec.surface ?? 'table',
        palette: spec.palette, // (a weight map's colours: viridis unless given)
        kind: spec.mask ? 'weights' : 'signed',
        name,
        head,
        caption,
        label: spec.label,
        t,
        rows: matrix.rows,
        cols: matrix.cols,
        shownRows: rows,
        shownCols: cols,
        numbers,
        rowLabels,
        colLabels,
        bands: bandColor,
        rowBands: spec.rowBands,
      },
      null,
    ),
  );
  view.update(matrix, { mask: spec.mask ?? null, fill: spec.fill ?? noFill });
  return view.el;
}

/** The columns c0…c1−1 of a matrix, as a new matrix (a view for drawing one head's block). */
export function columns(matrix, c0, c1) {
  const cols = c1 - c0;
  const data = new Float32Array(matrix.rows * cols);
  for (let r = 0; r < matrix.rows; r += 1) data.set(matrix.data.subarray(r * matrix.cols + c0, r * matrix.cols + c1), r * cols);
  return { rows: matrix.rows, cols, data };
}

/** A legend bar for attention weights (viridis from 0 to 1). */
export function weightLegend(stops, t) {
  return h('div', { className: 'hv-legend' }, [
    h('span', { text: '0' }),
    h('span', { className: 'bar', style: { background: `linear-gradient(to right, ${stops.join(', ')})` } }),
    h('span', { text: '1' }),
    h('span', { className: 'muted', text: t('heads.legend.weight') }),
  ]);
}
