// A matrix printed as a table: a labelled heatmap, built once per shape and labels, then
// updated in place (a new result only rewrites the cells whose text or colour changed). Pointing,
// keys and editing are matrix-input.js's; this file says which cell is where.
//
// Every printed cell carries data-matrix, data-head (per-head matrices), data-row and data-col
// (0-based), as on the first version of the page, for tests and course scripts; a head view's
// (spec.figure 'grid') data-hv instead of data-matrix, as the head views always had.
import { printed } from './policy.js';
import { colorScale, paletteRules } from './colors.js';
import { h } from './dom.js';
import { fmt } from './numbers.js';
import { attachMatrixInput } from './matrix-input.js';
import { overCell } from './matrix-edit.js';
import { watchOverflow } from './overflow-class.js';
import { ASKED_LOOK, cellLook, isAsked, looksMasked } from './cell-look.js';
import { createBareFrame, createMatrixFrame } from './matrix-frame.js';
import { barShare, writePlainLook } from './plain-look.js';
import { createGridFrame, gridHead } from './grid-frame.js';
import { sameNumbers } from './same-numbers.js';

const BLANK = { text: '', cls: 'blank' }; // an entry of a column shown empty
// A tooltip written into the cells' HTML (a fill's words may hold what HTML reads as markup).
const attributeText = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const plainLook = {}; // (rewritten for each entry of kind 'plain': writePlainLook)

let palettesInstalled = false;
function installPalettes() {
  if (palettesInstalled || document.querySelector('style[data-palettes]')) return;
  const style = document.createElement('style');
  style.dataset.palettes = 'lesson';
  // (with a masked entry of finite fill, class hid, partly transparent over the table's hatch)
  style.textContent = [paletteRules('signed', 'cs'), paletteRules('weights', 'cw')].join('\n');
  document.head.append(style);
  palettesInstalled = true;
}

/** spec, events and what it returns: render/matrix.js. */
export function createMatrixTable(spec, events) {
  const { name, head = null, rowLabels, colTokens, t } = spec;
  const inGrid = spec.figure === 'grid';
  if (!inGrid) installPalettes();
  const rows = spec.shownRows ?? printed(spec.rows);
  const cols = spec.shownCols ?? printed(spec.cols);
  const numbers = spec.numbers ?? true;

  let colHeads = []; // the header's cells (setColLabels rewrites them)
  function lessonHead() {
    // (an empty corner, over W's rows, is a plain cell: a header must name something)
    const corner = spec.corner ?? t('table.corner');
    const headRow = h('tr', {}, [corner ? h('th', { className: 'corner', scope: 'col', text: corner }) : h('td', { className: 'corner' })]);
    for (let c = 0; c < cols; c += 1) {
      const label = [h('span', { className: 'idx', text: spec.colLabels?.[c] ?? String(c + 1) })];
      if (colTokens) label.push(h('span', { className: 'tok', text: colTokens[c] }));
      colHeads.push(h('th', { scope: 'col', title: colTokens ? colTokens[c] : null }, label));
    }
    headRow.append(...colHeads);
    if (spec.sumColumn)
      headRow.append(h('th', { scope: 'col', className: 'sumhead', title: t('lesson.rowSum') }, [h('span', { className: 'idx', text: 'Σ' })]));
    return [headRow];
  }

  // The cells as one HTML string: only generated text (names, indices); row labels, which may be
  // reader text (tokens), are set through textContent afterwards. Built on the first update, not
  // here: a large page creates its views at once and fills them a few per task (view.js).
  const headAttr = head === null ? '' : ` data-head="${Number(head)}"`;
  const cellAttrs = `data-${inGrid ? 'hv' : 'matrix'}="${name}"${headAttr}`;
  const tabIndex = events ? ' tabindex="-1"' : ''; // a matrix only to look at has no keys
  const body = document.createElement('tbody');
  let cells = [];
  let sums = [];
  let built = false;
  let tabStop = null; // the one cell in the tab order (roving: the last one focused)
  // first: { matrix, mask, fill } of a head grid's first update, written into the HTML (setting
  // each cell's style, title and text after parsing made its first drawing much slower).
  function build(first = null) {
    built = true;
    table.classList.add('unfilled'); // until the first update: no hatch under the empty cells
    let html = '';
    for (let r = 0; r < rows; r += 1) {
      html += '<tr><th scope="row"></th>';
      for (let c = 0; c < cols; c += 1) {
        let look = '';
        if (first) {
          const k = r * cols + c;
          const n = r * first.matrix.cols + c;
          ({
            text: shownText[k],
            cls: shownClass[k],
            title: shownTitle[k],
          } = gridLook(r, c, first.matrix.data[n], first.mask?.data[n] === 1, first.fill, isAsked(first.matrix, n)));
          look = ` style="${shownClass[k]}" title="${attributeText(shownTitle[k])}">${shownText[k]}`;
        }
        html += `<td ${cellAttrs} data-row="${r}" data-col="${c}"${tabIndex}${look || '>'}</td>`;
      }
      if (spec.sumColumn) html += '<td class="rowsum"></td>';
      html += '</tr>';
    }
    body.innerHTML = html;
    body.querySelectorAll('th').forEach((th, r) => {
      th.textContent = rowLabels[r] ?? String(r + 1);
      th.title = th.textContent;
      if (spec.rowBands) th.style.borderLeft = `4px solid ${spec.rowBands(r)}`;
    });
    cells = Array.from(body.querySelectorAll('td[data-col]'));
    // Each cell holds one text node whose data is rewritten (cheaper than textContent).
    for (const cell of cells) if (!cell.firstChild) cell.append(document.createTextNode(''));
    sums = spec.sumColumn ? Array.from(body.querySelectorAll('td.rowsum')) : [];
    tabStop = events ? (cells[0] ?? null) : null;
    if (tabStop) tabStop.tabIndex = 0;
  }

  // The hatch of masked cells is the table's background (main.css): grey under scores, light
  // under weights; M's changes with the fill (yellow for a fill of 0, set in update()).
  const plain = spec.kind === 'plain';
  const classes = inGrid
    ? ['hv-table', numbers ? null : 'compact']
    : ['heatmap', plain ? 'plain' : spec.kind === 'weights' ? 'hatch-light' : 'hatch-grey'];
  if (colTokens) classes.push('square');
  if (spec.editable) classes.push('editable');
  if (spec.toggle) classes.push('toggle');
  const table = h('table', { className: classes.filter(Boolean).join(' ') }, [inGrid ? gridHead(spec, cols) : h('thead', {}, lessonHead()), body]);

  const frame = (inGrid ? createGridFrame : spec.figure === 'bare' ? createBareFrame : createMatrixFrame)(spec, rows, cols, table);
  const { el } = frame;
  if (!inGrid) watchOverflow(table.parentElement); // its labels sticky only when it can scroll (main.css)

  // What each cell shows now, to touch only the cells that change; and what it was drawn from,
  // to skip a matrix whose numbers did not change at all (most of them, after most changes).
  const shownText = new Array(rows * cols).fill(null);
  const shownClass = new Array(rows * cols).fill(null); // a palette class, or the fill's style
  const shownTitle = new Array(rows * cols).fill(null); // the tooltips of cells coloured by a fill
  let drawn = null; // { data, mask, extra }

  /**
   * matrix: { rows, cols, data }. options:
   *   mask: the result's mask (1 = masked), to grey masked entries and keep them out of the scale;
   *   fillText: how M prints a masked entry (kind 'mask');
   *   rowSums: text per row for the Σ column;
   *   fill(r, c, value) → { background, color, title? } | null: colours instead of the kind's
   *     palette (title: the tooltip, else the number);
   *   blankCols: columns shown empty, keeping their place (their header too).
   */
  function update(matrix, options = {}) {
    const { mask = null, fillText = '−∞', rowSums = null, fill = null, blankCols = [] } = options;
    const { data } = matrix;
    const extra = `${fillText}|${rowSums ? rowSums.join(',') : ''}|${blankCols.join(',')}`;
    // (A fill may change with the same numbers: the head colours when the heads change.)
    if (!fill && drawn && drawn.extra === extra && sameNumbers(drawn.data, data) && sameNumbers(drawn.mask, mask?.data ?? null)) return;
    // References, not copies: the engine never changes a result it handed out (every compute
    // returns new arrays), and a copy of a large matrix costs more than comparing it.
    if (!built && fill && inGrid) {
      build({ matrix, mask, fill }); // a head grid's first look is its HTML: nothing left to write
      drawn = { data, mask: mask?.data ?? null, extra };
      table.classList.remove('unfilled');
      return;
    }
    if (!built) build();
    drawn = { data, mask: mask?.data ?? null, extra };
    frame.drawOverview(matrix);
    const stride = matrix.cols;
    let scale = null;
    if (spec.kind !== 'mask' && !plain && !fill) {
      // The colour scale ignores masked entries, so a finite fill (−1e9) does not wash out the rest.
      scale = colorScale(spec.kind, data, mask && spec.kind === 'signed' ? mask.data : null);
    }
    if (spec.kind === 'mask') {
      table.classList.toggle('hatch-grey', fillText !== '0');
      table.classList.toggle('hatch-yellow', fillText === '0');
    }
    colHeads.forEach((th, c) => th.classList.toggle('blank', blankCols.includes(c)));
    let anyMasked = false;
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        const n = r * stride + c;
        const k = r * cols + c;
        const value = data[n];
        const isMasked = mask ? mask.data[n] === 1 : false;
        const look = blankCols.includes(c)
          ? BLANK
          : fill
            ? gridLook(r, c, value, isMasked, fill, isAsked(matrix, n))
            : isAsked(matrix, n)
              ? ASKED_LOOK
              : plain
                ? writePlainLook(plainLook, value, isMasked)
                : cellLook(spec.kind, value, isMasked, scale, fillText);
        const { text } = look;
        const cls = c === spec.barCol ? `${look.cls} bar` : look.cls;
        if (c === spec.barCol && shownText[k] !== text) cells[k].style.setProperty('--bar', `${barShare(value) * 100}%`);
        if (looksMasked(look)) anyMasked = true;
        if (fill && shownTitle[k] !== look.title) cells[k].title = shownTitle[k] = look.title;
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
          if (fill) cells[k].setAttribute('style', cls);
          else cells[k].className = cls;
          shownClass[k] = cls;
        }
      }
      if (rowSums && sums[r] && sums[r].textContent !== rowSums[r]) sums[r].textContent = rowSums[r];
    }
    frame.setLegend(scale);
    table.classList.remove('unfilled');
    frame.setMaskedKey(anyMasked, fillText);
  }

  // A cell coloured by a fill: its text, its style attribute (as compared) and its tooltip (the
  // number, or the fill's words for it); only generated text, as the cells' HTML.
  function gridLook(r, c, value, isMasked, fill, asked) {
    if (asked) return { text: numbers ? '?' : '', cls: 'background:var(--panel);font-weight:700', title: '?' };
    const style = fill(r, c, value);
    const number = fmt(value);
    return {
      text: !numbers ? '' : isMasked && spec.kind === 'weights' ? '0' : number,
      cls: style ? `background:${style.background};${style.color ? `color:${style.color}` : ''}` : '',
      title: style?.title ?? number,
    };
  }

  // The explained cell ('self') and the cells it depends on ('dep'), as data-hl on the cells.
  // Only the cells whose mark changes are written: a change that redraws the page marks the same
  // cells again (÷√d_k with a weight selected), and clearing them all first made Chromium restyle
  // every marked cell for nothing.
  let marked = new Map(); // td → kind
  function highlight(marks) {
    const next = new Map();
    const mark = (r, c, kind) => {
      const td = r < rows && c < cols ? cells[r * cols + c] : null;
      if (td && next.get(td) !== 'self') next.set(td, kind); // not built yet: a large page fills in slices
    };
    if (marks) {
      if (marks.self) mark(marks.self[0], marks.self[1], 'self');
      for (const [r, c] of marks.cells) mark(r, c, 'dep');
      for (const r of marks.rows) for (let c = 0; c < cols; c += 1) mark(r, c, 'dep');
      for (const c of marks.cols) for (let r = 0; r < rows; r += 1) mark(r, c, 'dep');
    }
    for (const td of marked.keys()) if (!next.has(td)) td.removeAttribute('data-hl');
    for (const [td, kind] of next) if (marked.get(td) !== kind) td.dataset.hl = kind;
    marked = next;
  }

  const entryOf = (td) => ({ r: Number(td.dataset.row), c: Number(td.dataset.col) });
  const { focusEntry } = !events
    ? { focusEntry: () => null }
    : attachMatrixInput(
        {
          root: table,
          rows,
          cols,
          entryAt(event) {
            const td = event.target.closest?.('td[data-col]');
            return td && body.contains(td) ? entryOf(td) : null;
          },
          focusedEntry: (event) => (event.target.matches?.('td[data-col]') ? entryOf(event.target) : null),
          onFocus({ r, c }) {
            const td = cells[r * cols + c];
            if (tabStop && tabStop !== td) tabStop.tabIndex = -1;
            td.tabIndex = 0;
            tabStop = td;
          },
          target(r, c) {
            const td = cells[r * cols + c];
            return td ? { el: td, box: td } : null;
          },
          editorAt(r, c) {
            const td = cells[r * cols + c];
            return td ? overCell(td) : null;
          },
          setError: frame.setError,
        },
        spec,
        events,
      );

  return {
    el,
    spec,
    kind: 'table',
    /** New texts for the column headers (spec.colLabels). */
    setColLabels(labels) {
      colHeads.forEach((th, c) => {
        if (th.firstChild.textContent !== labels[c]) th.firstChild.textContent = labels[c];
      });
    },
    focusEntry,
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
    setError: frame.setError,
    setSymbol: frame.setSymbol,
    highlight,
  };
}
