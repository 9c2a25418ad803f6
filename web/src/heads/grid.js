// A small matrix table for the head views: numbers printed when the matrix is narrow, small
// squares with the number in a tooltip when it is wide. The caller decides each cell's
// background (a head tint, a weight colour…). Cells carry data-hv (the matrix), data-head,
// data-row and data-col (0-based) — not data-matrix, which belongs to the lesson's tables.
import { gridPresentation } from '../render/policy.js';
import { formatCell } from '../render/format.js';
import { h, setText } from '../render/dom.js';

/**
 * spec: { matrix, name, head?, rowLabels, colLabels?, colHeads?: (c) → head index for the band,
 *         bandColor?: (c) → css, fill(r, c, value) → { background, color? } | null,
 *         text?(r, c, value) → string | undefined (instead of the printed number),
 *         maxRows?, maxCols?, numbers?: boolean, caption?: string, t }
 * cache: a Map the caller keeps between its redraws, or null. The figure last built for the same
 *   name and head is then given new numbers in place when nothing else about it changed (size,
 *   labels, bands, caption, language): a view that redraws on every change (the head split, about
 *   600 cells at T = 32) spent most of its time building and parsing the same tables again.
 * → <figure class="hv-grid">
 */
export function renderGrid(spec, cache = null) {
  const { matrix, name, head, rowLabels, colLabels, bandColor, fill, caption, t } = spec;
  const { rows, cols, numbersInCells: numbers } = gridPresentation({ rows: matrix.rows, cols: matrix.cols, maxRows: spec.maxRows, maxCols: spec.maxCols, numbers: spec.numbers });
  const headAttr = head === undefined || head === null ? '' : ` data-head="${Number(head)}"`;
  const cut = rows < matrix.rows || cols < matrix.cols ? t('heads.cut', { rows, totalRows: matrix.rows, cols, totalCols: matrix.cols }) : '';
  const layout = cache && JSON.stringify([
    matrix.rows, matrix.cols, rows, cols, numbers, caption ?? '', cut,
    Array.from({ length: rows }, (_, r) => rowLabels[r] ?? null),
    colLabels === null ? null : Array.from({ length: cols }, (_, c) => colLabels?.[c] ?? null),
    bandColor ? Array.from({ length: cols }, (_, c) => bandColor(c)) : null,
  ]);
  const key = `${name}|${head ?? ''}`;
  const kept = cache?.get(key);
  if (kept && kept.layout === layout) {
    refill(kept, spec, rows, cols, numbers);
    return kept.figure;
  }

  // Header: an optional colour band per column (the head it belongs to), then the labels.
  let html = '<thead>';
  if (bandColor) {
    html += '<tr class="band"><th></th>';
    for (let c = 0; c < cols; c += 1) html += `<th style="background:${bandColor(c)}"></th>`;
    html += '</tr>';
  }
  if (colLabels !== null) {
    html += '<tr class="cols"><th></th>';
    for (let c = 0; c < cols; c += 1) html += '<th scope="col"></th>';
    html += '</tr>';
  }
  html += '</thead><tbody>';
  const fills = []; // per cell: the background and colour written, for refill
  for (let r = 0; r < rows; r += 1) {
    html += '<tr><th scope="row"></th>';
    for (let c = 0; c < cols; c += 1) {
      const value = matrix.data[r * matrix.cols + c];
      const style = fill?.(r, c, value);
      fills.push(style ? `${style.background}|${style.color ?? ''}` : '|');
      const css = style ? ` style="background:${style.background};${style.color ? `color:${style.color}` : ''}"` : '';
      const text = numbers ? (spec.text?.(r, c, value) ?? formatCell(value)) : '';
      html += `<td data-hv="${name}"${headAttr} data-row="${r}" data-col="${c}"${css} title="${formatCell(value)}">${text}</td>`;
    }
    html += '</tr>';
  }
  html += '</tbody>';
  const table = document.createElement('table');
  table.className = `hv-table${numbers ? '' : ' compact'}`;
  table.innerHTML = html;
  // Labels come from the reader (tokens): set as text, never as HTML.
  table.querySelectorAll('tbody th').forEach((th, r) => {
    th.textContent = rowLabels[r] ?? String(r + 1);
    th.title = th.textContent;
  });
  const colCells = table.querySelectorAll('thead tr.cols th[scope="col"]');
  colCells.forEach((th, c) => {
    th.textContent = colLabels?.[c] ?? String(c + 1);
    th.title = th.textContent;
  });

  const figure = h('figure', { className: 'hv-grid', dataset: { hvFigure: name, ...(head === undefined || head === null ? {} : { head: String(head) }) } }, [
    caption ? h('figcaption', {}, [h('span', { className: 'sym', text: caption }), h('span', { className: 'shape', text: `${matrix.rows} × ${matrix.cols}` })]) : null,
    h('div', { className: 'hv-scroll' }, [table]),
    cut ? h('p', { className: 'hv-cut', text: cut }) : null,
  ]);
  cache?.set(key, { layout, figure, cells: [...table.querySelectorAll('tbody td')], fills });
  return figure;
}

// The cells of a kept table (row-major) get the numbers, tooltips and fills of `spec.matrix`, as
// renderGrid builds them; what is already there is not written again.
function refill({ cells, fills }, { matrix, fill, text }, rows, cols, numbers) {
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) {
      const k = r * cols + c;
      const td = cells[k];
      const value = matrix.data[r * matrix.cols + c];
      const style = fill?.(r, c, value);
      const written = style ? `${style.background}|${style.color ?? ''}` : '|';
      if (fills[k] !== written) {
        td.style.background = style?.background ?? '';
        td.style.color = style?.color ?? '';
        fills[k] = written;
      }
      const title = formatCell(value);
      if (td.title !== title) td.title = title;
      const shown = numbers ? (text?.(r, c, value) ?? title) : '';
      setText(td, shown); // (the text node's data: a new text node is laid out anew)
    }
  }
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
