// The head views' small figure around a matrix table (spec.figure 'grid'): a caption of symbol
// and shape, the table in a scroll box, a note when only its corner is drawn; and the table's
// header: a colour band per column (the head it belongs to) above the column labels.
import { h } from './dom.js';
import { scrollWhenNeeded } from './overflow-class.js';

// The heading of the part a figure without a caption sits in (its name for a screen reader).
const headingAbove = (figure) => figure.closest('[data-hs-part], section')?.querySelector('h3, h4, h2')?.textContent ?? '';

/** spec: render/matrix.js; rows, cols: drawn; cells: the table (or canvas); below: an element
 *  under them, or null. → a frame as matrix-frame.js's. */
export function createGridFrame(spec, rows, cols, cells, below = null) {
  const { name, head = null, caption, t } = spec;
  const cut = rows < spec.rows || cols < spec.cols ? t('heads.cut', { rows, totalRows: spec.rows, cols, totalCols: spec.cols }) : '';
  const el = h('figure', { className: 'hv-grid', dataset: { hvFigure: name, ...(head === null ? {} : { head: String(head) }) } }, [
    caption
      ? h('figcaption', {}, [h('span', { className: 'sym', text: caption }), h('span', { className: 'shape', text: `${spec.rows} × ${spec.cols}` })])
      : null,
    scrollWhenNeeded(h('div', { className: 'hv-scroll' }, [cells]), () => `${caption || headingAbove(el) || name} ${spec.rows} × ${spec.cols}`),
    below,
    cut ? h('p', { className: 'hv-cut', text: cut }) : null,
  ]);
  const none = () => {}; // no legend, overview or editing in a head grid
  return { el, setLegend: none, setMaskedKey: none, drawOverview: none, setError: none, setSymbol: none };
}

/** The header rows, as one HTML string (an element each made the first drawing slower): bands(c)
 *  → a colour per column, or none; colLabels null: no label row (else the labels, or the column
 *  numbers). Labels are reader text: set as text afterwards. → <thead> */
export function gridHead({ bands, colLabels }, cols) {
  const thead = document.createElement('thead');
  let html = '';
  // The colour bands and the empty corner are plain cells: they name no column (a header must).
  if (bands)
    html += `<tr class="band" aria-hidden="true"><td></td>${Array.from({ length: cols }, (_, c) => `<td style="background:${bands(c)}"></td>`).join('')}</tr>`;
  if (colLabels !== null) html += `<tr class="cols"><td></td>${'<th scope="col"></th>'.repeat(cols)}</tr>`;
  thead.innerHTML = html;
  thead.querySelectorAll('tr.cols th[scope="col"]').forEach((th, c) => {
    th.textContent = colLabels?.[c] ?? String(c + 1);
    th.title = th.textContent;
  });
  return thead;
}
