// The one matrix component: a heatmap of numbers that a learner points at, focuses, edits or
// toggles, printed as a table or drawn on a canvas as render/policy.js chose (spec.surface; a
// head's wide weight map: one pixel per entry, matrix-pixels.js); the softmax lab's rows too. They share the figure around
// them (matrix-frame.js; a head view's: grid-frame.js), the looks (cell-look.js), the pointer,
// keys and editing (matrix-input.js), and the markup contract: data-matrix (a head view's:
// data-hv), data-head, data-row, data-col on every printed cell; data-matrix and data-head on a canvas.
import { createMatrixCanvas } from './matrix-canvas.js';
import { createMatrixPixels } from './matrix-pixels.js';
import { createMatrixTable } from './matrix-table.js';

const SURFACES = { table: createMatrixTable, canvas: createMatrixCanvas, pixels: createMatrixPixels };

/**
 * spec: { name, head (null or 0-based), rows, cols, symbol, title, kind: 'signed' | 'weights' |
 *         'mask' | 'plain' (numbers without a palette), surface: 'table' | 'canvas' | 'pixels',
 *         rowLabels, colTokens (labels under the column numbers, or null), colLabels (texts in
 *         place of the column numbers), barCol (a column whose entries, 0…1, are bars too),
 *         editable, toggle, sumColumn, corner, tag ("from step 4"), tools: [{ id, label }], t,
 *         overview (false: past the printed corner, no map of every entry);
 *         unit: 'row' (read row by row: Home, End, the page keys), describe(r, c, texts of row r)
 *         (a canvas's readout), label (a canvas's name); figure: 'bare' (the cells alone);
 *         a head view's table (figure: 'grid', render/grid-frame.js): caption, shownRows and
 *         shownCols (its corner), numbers (false: bare cells), colLabels (null: none), bands(c)
 *         and rowBands(r) (a colour above each column, left of each row label),
 *         label (the pixels' canvas) }
 * events: { preview(ref), select(ref), toggle(row, col), edit(ref, value), focusEntry(ref) →
 *         element | null, each optional } with ref = { name, head, row, col }; focusEntry focuses
 *         that entry of whichever view shows the matrix then (an editor moving on asks for it).
 *         null: a matrix only to look at (no pointer, keys or editing).
 * → { el, spec, kind: 'table' | 'canvas', rows, cols (printed),
 *     update(matrix, { mask, fillText, rowSums, fill, blankCols }): draws a result, rewriting only
 *       what changed; fill(r, c, value) → { background, color, title? }: colours (and a tooltip
 *       other than the number) instead of the kind's palette (a table's); blankCols: columns
 *       shown empty, keeping their place;
 *     setColLabels(texts): new column headers (a table's or a canvas's);
 *     prepare(): builds what the first update would (true if there was anything to build);
 *     highlight({ self, cells, rows, cols } | null): the explained entry and what it depends on;
 *     focusEntry(row, col) → the focused element; setError(text | null); setSymbol(text) }
 */
export function createMatrix(spec, events) {
  return SURFACES[spec.surface ?? 'table'](spec, events);
}

/**
 * The one view cache of the figures that redraw on every change: the view kept under `key` in
 * `cache` (a Map the caller keeps, or null) while `layout` (sizes, labels, caption, language: any
 * JSON value, computed only with a cache) stays the same; else make()'s new view, kept.
 */
export function keptView(cache, key, layout, make) {
  if (!cache) return make();
  const text = JSON.stringify(layout());
  let kept = cache.get(key);
  if (!kept || kept.layout !== text) {
    kept = { layout: text, view: make() };
    cache.set(key, kept);
  }
  return kept.view;
}
