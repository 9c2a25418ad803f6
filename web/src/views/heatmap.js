// One matrix as a labelled heatmap table: row labels are the tokens, column labels the indices
// (1-based, plus the key token for T×T matrices). Every printed cell carries data-matrix,
// data-head (per-head matrices), data-row and data-col (0-based) for tests and course scripts.
import { colorScale, paletteRules } from './colors.js';
import { formatCell } from './format.js';
import { h } from './dom.js';

// Larger matrices are cut to their top-left corner: the DOM cannot hold 1024×1024 cells.
export const MAX_SHOWN = 48;

// The values of data-matrix.
export const MATRIX_NAMES = Object.freeze(['x', 'q', 'k', 'v', 'scores', 'masked', 'weights', 'context', 'concat', 'output']);

// spec: { matrix: {rows, cols, data}, name, head?, symbol, title, kind: 'signed' | 'weights',
//         rowLabels: string[], colTokens?: string[], maskSource?: matrix, t }
export function renderHeatmap(spec) {
  const { matrix, name, head, symbol, title, kind, rowLabels, colTokens, maskSource, t } = spec;
  if (!MATRIX_NAMES.includes(name)) throw new Error(`unknown matrix name ${name}`);
  const scale = colorScale(kind, matrix.data);
  const rows = Math.min(matrix.rows, MAX_SHOWN);
  const cols = Math.min(matrix.cols, MAX_SHOWN);

  const headRow = h('tr', {}, [h('th', { className: 'corner', scope: 'col', text: t('table.corner') })]);
  for (let c = 0; c < cols; c += 1) {
    const label = [h('span', { className: 'idx', text: String(c + 1) })];
    if (colTokens) label.push(h('span', { className: 'tok', text: colTokens[c] }));
    headRow.append(h('th', { scope: 'col', title: colTokens ? colTokens[c] : null }, label));
  }

  // The cells are written as one HTML string per table: a page can hold tens of thousands of
  // cells, and one parse is many times faster than a DOM call per attribute. The string holds
  // only what this function generates (matrix names, indices, colours, printed numbers); the
  // tokens, which come from the reader, are set afterwards through textContent.
  const prefix = kind === 'weights' ? 'cw' : 'cs';
  installPalettes();
  const headAttr = head === undefined ? '' : ` data-head="${Number(head)}"`;
  let html = '';
  let anyMasked = false;
  for (let r = 0; r < rows; r += 1) {
    html += '<tr><th scope="row"></th>';
    for (let c = 0; c < cols; c += 1) {
      const index = r * matrix.cols + c;
      const value = matrix.data[index];
      const attrs = `data-matrix="${name}"${headAttr} data-row="${r}" data-col="${c}"`;
      if (value === -Infinity) {
        // A masked score: printed −∞ and hatched grey, never coloured like a number.
        anyMasked = true;
        html += `<td class="masked" ${attrs}>${formatCell(value)}</td>`;
      } else if (maskSource && maskSource.data[index] === -Infinity) {
        // An attention weight behind the mask: exactly 0, shown as such and greyed.
        anyMasked = true;
        html += `<td class="masked-zero" ${attrs}>0</td>`;
      } else {
        html += `<td class="${prefix}-${scale.cell(value).level}" ${attrs}>${formatCell(value)}</td>`;
      }
    }
    html += '</tr>';
  }
  const body = document.createElement('tbody');
  body.innerHTML = html;
  body.querySelectorAll('th').forEach((th, r) => {
    th.textContent = rowLabels[r];
    th.title = rowLabels[r];
  });

  const table = h('table', { className: `heatmap ${colTokens ? 'square' : ''}` }, [
    h('thead', {}, [headRow]),
    body,
  ]);

  const caption = h('figcaption', {}, [
    h('span', { className: 'sym', text: symbol }),
    h('span', { className: 'shape', text: `${matrix.rows} × ${matrix.cols}` }),
    h('span', { className: 'name', text: title }),
  ]);

  const notes = [];
  if (rows < matrix.rows || cols < matrix.cols) {
    notes.push(
      h('p', {
        className: 'truncated',
        text: t('legend.truncated', { rows, totalRows: matrix.rows, cols, totalCols: matrix.cols }),
      }),
    );
  }

  return h('figure', { className: 'matrix', dataset: { matrixFigure: name } }, [
    caption,
    h('div', { className: 'scroll' }, [table]),
    renderLegend(scale, kind, anyMasked && name === 'masked', t),
    ...notes,
  ]);
}

// The colour classes (.cs-0 … .cs-255 signed, .cw-0 … .cw-255 weights), added to the page once.
let palettesInstalled = false;
function installPalettes() {
  if (palettesInstalled) return;
  const style = document.createElement('style');
  style.textContent = `${paletteRules('signed', 'cs')}\n${paletteRules('weights', 'cw')}`;
  document.head.append(style);
  palettesInstalled = true;
}

function renderLegend(scale, kind, showMasked, t) {
  const [low, high] = scale.domain;
  const bar = h('span', {
    className: 'bar',
    style: { background: `linear-gradient(to right, ${scale.stops(9).join(', ')})` },
  });
  const items = [
    h('span', { className: 'lo', text: kind === 'weights' ? '0' : formatCell(low) }),
    bar,
    h('span', { className: 'hi', text: kind === 'weights' ? '1' : formatCell(high) }),
  ];
  if (showMasked) {
    items.push(h('span', { className: 'swatch masked', 'aria-hidden': 'true' }));
    items.push(h('span', { text: t('legend.masked') }));
  }
  return h('div', { className: 'legend' }, items);
}
