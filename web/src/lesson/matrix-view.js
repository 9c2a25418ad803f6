// One matrix on the page: a labelled heatmap whose cells can be pointed at (explanations),
// focused with the keyboard (one cell per matrix is in the tab order; arrows move), edited in
// place (X and the W matrices) or toggled (the mask M). Built once per shape and labels, then
// updated in place: a new result only rewrites the cells whose text or colour changed, which
// keeps re-rendering well inside a frame for T ≤ 32.
//
// Every printed cell carries data-matrix, data-head (per-head matrices), data-row and data-col
// (0-based), as on the first version of the page, for tests and course scripts.
import { colorScale, paletteRules } from '../views/colors.js';
import { h } from '../views/dom.js';
import { renderHeatmapCanvas } from '../views/heatmap-canvas.js';
import { fmt } from './numbers.js';

export const MAX_SHOWN = 48; // larger matrices show their top-left corner

let palettesInstalled = false;
function installPalettes() {
  if (palettesInstalled || document.querySelector('style[data-palettes]')) return;
  const style = document.createElement('style');
  style.dataset.palettes = 'lesson';
  // A masked entry with a finite fill (class hid) keeps its colour, 60 % opaque over the table's
  // hatch (main.css), so it reads as "masked" without a hatch painted per cell.
  const hid = (rules) => rules.replace(/^\.(c[sw]-\d+)\{background:([^;]+);.*$/gm, 'table.heatmap td.$1.hid{background:color-mix(in srgb, $2 60%, transparent)}');
  const signed = paletteRules('signed', 'cs');
  const weights = paletteRules('weights', 'cw');
  style.textContent = [signed, weights, hid(signed), hid(weights)].join('\n');
  document.head.append(style);
  palettesInstalled = true;
}

// Equal typed arrays (NaN equals NaN here), or both null. Float32 arrays are compared by their
// bits (about 10× faster at T = 512; a −0 against a 0 only costs a redraw).
function sameNumbers(a, b) {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  if (a instanceof Float32Array && b instanceof Float32Array) {
    const x = new Int32Array(a.buffer, a.byteOffset, a.length);
    const y = new Int32Array(b.buffer, b.byteOffset, b.length);
    for (let n = 0; n < x.length; n += 1) if (x[n] !== y[n]) return sameValues(a, b);
    return true;
  }
  return sameValues(a, b);
}

function sameValues(a, b) {
  for (let n = 0; n < a.length; n += 1) {
    if (a[n] !== b[n] && !(a[n] !== a[n] && b[n] !== b[n])) return false;
  }
  return true;
}


/** "W_Q" → W with a subscript Q; other symbols as text. */
export function symbolNode(text) {
  const match = /^(.*?)_([A-Za-z])$/.exec(text);
  if (!match) return h('span', { className: 'sym', text });
  return h('span', { className: 'sym' }, [match[1], h('sub', { text: match[2] })]);
}

/**
 * spec: { name, head (null or 0-based), symbol, title, kind: 'signed' | 'weights' | 'mask',
 *         rowLabels, colTokens (labels under the column numbers, or null), editable, toggle,
 *         sumColumn, tag (e.g. "from step 4"), tools: [{ id, label }], t }
 * → { el, spec, update(matrix, options), cells, index(row, col), setError(text) }
 */
export function createMatrixView(spec) {
  const { name, head = null, rowLabels, colTokens, t } = spec;
  installPalettes();
  const rows0 = spec.rows;
  const cols0 = spec.cols;
  const rows = Math.min(rows0, MAX_SHOWN);
  const cols = Math.min(cols0, MAX_SHOWN);

  const headRow = h('tr', {}, [h('th', { className: 'corner', scope: 'col', text: spec.corner ?? t('table.corner') })]);
  for (let c = 0; c < cols; c += 1) {
    const label = [h('span', { className: 'idx', text: String(c + 1) })];
    if (colTokens) label.push(h('span', { className: 'tok', text: colTokens[c] }));
    headRow.append(h('th', { scope: 'col', title: colTokens ? colTokens[c] : null }, label));
  }
  if (spec.sumColumn) headRow.append(h('th', { scope: 'col', className: 'sumhead', title: t('lesson.rowSum') }, [h('span', { className: 'idx', text: 'Σ' })]));

  // The cells as one HTML string: only generated text (names, indices); row labels, which may be
  // reader text (tokens), are set through textContent afterwards. Built on the first update, not
  // here: a large page creates its views at once and fills them a few per task (view.js).
  const headAttr = head === null ? '' : ` data-head="${Number(head)}"`;
  const body = document.createElement('tbody');
  let cells = [];
  let sums = [];
  let built = false;
  function build() {
    built = true;
    table.classList.add('unfilled'); // until the first update: no hatch under the empty cells
    let html = '';
    for (let r = 0; r < rows; r += 1) {
      html += '<tr><th scope="row"></th>';
      for (let c = 0; c < cols; c += 1) {
        html += `<td data-matrix="${name}"${headAttr} data-row="${r}" data-col="${c}" tabindex="-1"></td>`;
      }
      if (spec.sumColumn) html += '<td class="rowsum"></td>';
      html += '</tr>';
    }
    body.innerHTML = html;
    body.querySelectorAll('th').forEach((th, r) => {
      th.textContent = rowLabels[r];
      th.title = rowLabels[r];
    });
    cells = Array.from(body.querySelectorAll('td[data-col]'));
    // Each cell holds one text node whose data is rewritten (cheaper than textContent).
    for (const cell of cells) cell.append(document.createTextNode(''));
    sums = spec.sumColumn ? Array.from(body.querySelectorAll('td.rowsum')) : [];
    if (cells.length > 0) cells[0].tabIndex = 0;
  }

  // The hatch of masked cells is the table's background (main.css): grey under scores, light
  // under weights; M's changes with the fill (yellow for a fill of 0, set in update()).
  const classes = ['heatmap', spec.kind === 'weights' ? 'hatch-light' : 'hatch-grey'];
  if (colTokens) classes.push('square');
  if (spec.editable) classes.push('editable');
  if (spec.toggle) classes.push('toggle');
  const table = h('table', { className: classes.join(' ') }, [h('thead', {}, [headRow]), body]);

  const tools = (spec.tools ?? []).map((tool) =>
    h('button', { type: 'button', className: 'tool', dataset: { tool: tool.id, target: name }, text: tool.label }),
  );
  const caption = h('figcaption', {}, [
    symbolNode(spec.symbol),
    h('span', { className: 'shape', text: `${rows0} × ${cols0}` }),
    h('span', { className: 'name', text: spec.title }),
    spec.tag ? h('span', { className: 'from', text: spec.tag }) : null,
    tools.length ? h('span', { className: 'tools' }, tools) : null,
  ]);

  const lo = h('span', { className: 'lo' });
  const hi = h('span', { className: 'hi' });
  const bar = h('span', { className: 'bar' });
  const maskedKey = h('span', { className: 'masked-key', hidden: true }, [
    h('span', { className: 'swatch masked', 'aria-hidden': 'true' }),
    h('span', { text: t('legend.masked') }),
  ]);
  const legend = h('div', { className: 'legend' }, [lo, bar, hi, maskedKey]);
  const error = h('p', { className: 'cell-error', role: 'alert', hidden: true });
  const notes = [];
  // A matrix too large for printed cells is also drawn whole, one pixel block per entry, on a
  // canvas (fast enough to redraw at every keystroke for T = 512).
  const overview = rows < rows0 || cols < cols0 ? h('div', { className: 'overview' }) : null;
  if (overview) {
    notes.push(h('p', { className: 'truncated', text: t('legend.truncated', { rows, totalRows: rows0, cols, totalCols: cols0 }) }));
    notes.push(overview);
  }
  const el = h('figure', { className: `matrix m-${name}`, dataset: { matrixFigure: name, ...(head === null ? {} : { head: String(head) }) } }, [
    caption,
    h('div', { className: 'scroll' }, [table]),
    legend,
    error,
    ...notes,
  ]);

  // What each cell shows now, to touch only the cells that change; and what it was drawn from,
  // to skip a matrix whose numbers did not change at all (most of them, after most changes).
  const shownText = new Array(rows * cols).fill(null);
  const shownClass = new Array(rows * cols).fill(null);
  let legendKey = '';
  let drawn = null; // { data, mask, extra }
  let overviewDraws = 0;

  /**
   * matrix: { rows, cols, data }. options:
   *   mask: the result's mask (1 = masked), to grey masked entries and keep them out of the scale;
   *   fillText: how M prints a masked entry (kind 'mask');
   *   rowSums: text per row for the Σ column.
   */
  function update(matrix, options = {}) {
    const { mask = null, fillText = '−∞', rowSums = null } = options;
    const { data } = matrix;
    const extra = `${fillText}|${rowSums ? rowSums.join(',') : ''}`;
    if (drawn && drawn.extra === extra && sameNumbers(drawn.data, data) && sameNumbers(drawn.mask, mask?.data ?? null)) return;
    if (!built) build();
    // References, not copies: the engine never changes a result it handed out (every compute
    // returns new arrays), and copying 1 MB per matrix at T = 512 cost more than comparing it.
    drawn = { data, mask: mask?.data ?? null, extra };
    if (overview) {
      // In a task of its own: with the table, one matrix of T = 512 would take over 50 ms.
      const mine = ++overviewDraws;
      setTimeout(() => {
        if (mine !== overviewDraws) return; // a newer update draws it
        overview.replaceChildren(renderHeatmapCanvas({
          matrix,
          kind: spec.kind === 'signed' ? 'signed' : 'weights',
          label: `${spec.title} ${matrix.rows} × ${matrix.cols}`,
          describe: (r, c, value) => t('legend.canvasCell', { row: r + 1, col: c + 1, token: rowLabels[r] ?? '', value }),
        }));
      }, 0);
    }
    const stride = matrix.cols;
    let scale = null;
    if (spec.kind !== 'mask') {
      // The colour scale ignores masked entries, so a finite fill (−1e9) does not wash out the rest.
      scale = colorScale(spec.kind, data, mask && spec.kind === 'signed' ? mask.data : null);
    }
    if (spec.kind === 'mask') {
      table.classList.toggle('hatch-grey', fillText !== '0');
      table.classList.toggle('hatch-yellow', fillText === '0');
    }
    let anyMasked = false;
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const n = r * stride + c;
        const k = r * cols + c;
        const value = data[n];
        const isMasked = mask ? mask.data[n] === 1 : false;
        let text;
        let cls;
        if (spec.kind === 'mask') {
          text = value ? fillText : '0';
          cls = value ? (fillText === '0' ? 'mask-zero' : 'masked') : 'visible';
          if (value) anyMasked = true;
        } else if (Number.isNaN(value)) {
          text = 'NaN';
          cls = 'nan';
        } else if (value === Infinity) {
          text = '∞';
          cls = 'inf';
        } else if (value === -Infinity) {
          text = fmt(value);
          cls = 'masked';
          anyMasked = true;
        } else if (isMasked && value === 0 && spec.kind === 'weights') {
          // A weight behind the mask: exactly 0, greyed.
          text = '0';
          cls = 'masked-zero';
          anyMasked = true;
        } else {
          text = fmt(value);
          cls = `${spec.kind === 'weights' ? 'cw' : 'cs'}-${scale.cell(value).level}${isMasked ? ' hid' : ''}`;
        }
        if (shownText[k] !== text) {
          const node = cells[k].firstChild;
          if (node?.nodeType === 3 && cells[k].childNodes.length === 1) {
            node.data = text;
            shownText[k] = text;
          } else if (!cells[k].querySelector('input')) {
            cells[k].textContent = text; // restored after an edit
            shownText[k] = text;
          } // else: being edited; written by the next update after the edit
        }
        if (shownClass[k] !== cls) {
          cells[k].className = cls;
          shownClass[k] = cls;
        }
      }
      if (rowSums && sums[r] && sums[r].textContent !== rowSums[r]) sums[r].textContent = rowSums[r];
    }
    const key = spec.kind === 'mask' ? 'mask' : `${scale.domain[0]}|${scale.domain[1]}`;
    if (key !== legendKey) {
      legendKey = key;
      if (spec.kind === 'mask') {
        lo.textContent = '';
        hi.textContent = '';
        bar.style.display = 'none';
      } else {
        lo.textContent = spec.kind === 'weights' ? '0' : fmt(scale.domain[0]);
        hi.textContent = spec.kind === 'weights' ? '1' : fmt(scale.domain[1]);
        bar.style.background = `linear-gradient(to right, ${scale.stops(9).join(', ')})`;
      }
    }
    table.classList.remove('unfilled');
    maskedKey.hidden = !(anyMasked && (name === 'masked' || name === 'mask'));
  }

  return {
    el,
    spec,
    /** The printed cells, row by row (empty until the first update). */
    get cells() {
      return cells;
    },
    rows,
    cols,
    update,
    /** Builds the empty table now (the first update would): a large page does it in a task of
     *  its own, before the task that fills the cells. True if there was anything to build. */
    prepare() {
      if (built) return false;
      build();
      return true;
    },
    index: (r, c) => (r < rows && c < cols ? r * cols + c : -1),
    setError(text) {
      error.textContent = text ?? '';
      error.hidden = !text;
    },
  };
}
