// The softmax lab (step "softmax"), for one query row of one head: the scores s + m, the
// exponentials e^(z − max), their sum, the weights as bars with numbers, the row's entropy, and
// the controls that change them: temperature τ, √d_k scaling, naive softmax (e^z without
// subtracting the max, in float32, next to the stable result) and scaling X by 10.
// Every number is read from the engine's results (companions.js); none is computed here.
import { h, keyedChildren, setAlternatives, setAttr, setHidden, setText, writeText } from '../render/dom.js';
import { labPresentation } from '../render/policy.js';
import { parseDecimal } from '../state/parse.js';
import { createLabCanvas } from './lab-canvas.js';
import { factor, fmt } from '../render/numbers.js';

const MIN_TAU = 0.01;
const MAX_TAU = 100;
const Z_HEAD_TAU = 's + m (z = (s + m) / τ)'; // the z column's header when τ ≠ 1

const at = (m, r, c) => m.data[r * m.cols + c];

/**
 * callbacks: { change(partial lesson), setScale(boolean), scaleEmbeddings(factor), t() }
 * → { el, update(ctx) }; ctx: { result, stable, state, t }
 */
export function createSoftmaxLab(callbacks) {
  const t = (...args) => callbacks.t()(...args);
  const rowPicker = h('span', { className: 'lab-rows' });
  const headPicker = h('span', { className: 'lab-heads' });
  const tauRange = h('input', { id: 'lesson-tau-range', type: 'range', min: '-2', max: '2', step: '0.01' });
  const tauInput = h('input', { id: 'lesson-tau', type: 'text', inputmode: 'decimal', spellcheck: 'false', size: '6' });
  const scaleBox = h('input', { id: 'lesson-scale', type: 'checkbox' });
  const naiveBox = h('input', { id: 'lesson-naive', type: 'checkbox' });
  const times10 = h('button', { type: 'button', className: 'tool', id: 'lesson-x10', dataset: { i18n: 'lab.x10' } });
  const div10 = h('button', { type: 'button', className: 'tool', id: 'lesson-x01', dataset: { i18n: 'lab.x01' } });
  const message = h('p', { className: 'lesson-error', role: 'alert', hidden: true });
  const table = h('table', { className: 'lab-table' });
  // From canvasFromTokens keys on, the table is drawn on a canvas instead (lab-canvas.js).
  const labCanvas = createLabCanvas(callbacks.t);
  const summary = h('p', { className: 'lab-summary' });
  const notes = h('ul', { className: 'lab-notes' });
  const el = h('div', { className: 'lab', id: 'softmax-lab' }, [
    h('h3', { dataset: { i18n: 'lab.title' } }),
    h('div', { className: 'lab-pick' }, [
      h('span', { className: 'lab-label', dataset: { i18n: 'lab.row' } }),
      rowPicker,
      headPicker,
    ]),
    h('div', { className: 'lab-controls' }, [
      h('label', { className: 'param' }, [h('span', { dataset: { i18n: 'lab.tau' } }), tauRange, tauInput]),
      h('label', { className: 'opt' }, [scaleBox, ' ', h('span', { dataset: { i18n: 'lab.scale' } })]),
      h('label', { className: 'opt' }, [naiveBox, ' ', h('span', { dataset: { i18n: 'lab.naive' } })]),
      h('span', { className: 'tools' }, [times10, div10]),
    ]),
    message,
    h('div', { className: 'lab-scroll' }, [table, labCanvas.el]),
    summary,
    notes,
  ]);

  let ctx = null;
  const say = (key, params) => {
    setText(message, key ? t(key, params) : '');
    setHidden(message, !key);
  };

  function setTau(value) {
    if (value === null || !(value >= MIN_TAU && value <= MAX_TAU)) {
      say('lesson.error.temperature', { min: MIN_TAU, max: MAX_TAU });
      tauInput.setAttribute('aria-invalid', 'true');
      return;
    }
    tauInput.removeAttribute('aria-invalid');
    say(null);
    callbacks.change({ temperature: value });
  }

  tauRange.addEventListener('input', () => {
    // The slider moves τ on a log scale, 0.01 … 100, in steps a reader can read back.
    const value = Number((10 ** Number(tauRange.value)).toPrecision(2));
    tauInput.value = String(value);
    setTau(value);
  });
  tauInput.addEventListener('input', () => setTau(parseDecimal(tauInput.value.trim().replace('\u2212', '-'))));
  scaleBox.addEventListener('change', () => callbacks.setScale(scaleBox.checked));
  naiveBox.addEventListener('change', () => callbacks.change({ naive: naiveBox.checked }));
  times10.addEventListener('click', () => callbacks.scaleEmbeddings(10));
  div10.addEventListener('click', () => callbacks.scaleEmbeddings(0.1));
  rowPicker.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-lab-row]');
    if (button) callbacks.change({ row: Number(button.dataset.labRow) + 1 });
  });
  headPicker.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-lab-head]');
    if (button) callbacks.change({ head: Number(button.dataset.labHead) + 1 });
  });

  let pickerKey = '';
  function update(next) {
    ctx = next;
    const { result, state } = ctx;
    const tr = ctx.t;
    for (const node of el.querySelectorAll('[data-i18n]')) setText(node, tr(node.dataset.i18n));
    const i = state.row - 1;
    const hd = state.head - 1;

    const key = `${result.tokens.join('\u0001')}|${result.heads}|${tr('lab.head', { h: 1 })}`;
    if (key !== pickerKey) {
      pickerKey = key;
      rowPicker.replaceChildren(
        ...result.tokens.slice(0, labPresentation({ queries: result.T, keys: result.Tk }).queries).map((token, r) => h('button', { type: 'button', className: 'chip', dataset: { labRow: String(r) }, text: token })),
      );
      headPicker.replaceChildren(
        ...(result.heads > 1
          ? Array.from({ length: result.heads }, (_, k) => h('button', { type: 'button', className: 'choice', dataset: { labHead: String(k) }, text: tr('lab.head', { h: k + 1 }) }))
          : []),
      );
    }
    rowPicker.querySelectorAll('button').forEach((b, r) => setAttr(b, 'aria-pressed', r === i ? 'true' : 'false'));
    headPicker.querySelectorAll('button').forEach((b, k) => setAttr(b, 'aria-pressed', k === hd ? 'true' : 'false'));

    if (document.activeElement !== tauInput) tauInput.value = factor(state.temperature).replace('\u2212', '-');
    if (document.activeElement !== tauRange) tauRange.value = String(Math.log10(state.temperature));
    scaleBox.checked = state.scale;
    naiveBox.checked = state.naive;

    renderTable(ctx, i, hd);
  }

  let tableKey = '';
  let tableShape = '';
  let tableRows = [];
  let tauHead = null;

  // A number's box in the table: fixed in size and contained (contain: strict in lesson.css), so
  // a new number is laid out inside it alone, not the table around it (at T = 32, laying out
  // the whole table again cost milliseconds on every change of τ, row or head).
  const box = (text = '') => h('span', { className: 'v', text });
  // A box's text, written only when it changes (compared with what was written: reading
  // textContent back for ~200 boxes per change cost more than the compare).
  const put = (node, text) => {
    if (node.shownText === text) return;
    node.shownText = text;
    writeText(node, text);
  };

  // The table's header and empty rows, the naive columns included (shown by the class
  // with-naive): [{ tr, th, z, exp, weight, naiveExp, naiveWeight }].
  function buildTable(keys, shown, tr) {
    tauHead = h('th', { scope: 'col' });
    const headCells = [
      h('th', { scope: 'col', text: tr('lab.key') }),
      tauHead,
      h('th', { scope: 'col', text: 'e^(z − max)' }),
      h('th', { scope: 'col', text: tr('lab.weight') }),
      h('th', { scope: 'col', className: 'naive', text: tr('lab.naiveExp') }),
      h('th', { scope: 'col', className: 'naive', text: tr('lab.naiveWeight') }),
    ];
    tableRows = [];
    for (let j = 0; j < shown; j += 1) {
      const row = {
        th: h('th', { scope: 'row', title: keys[j] }, [`${j + 1} `, h('span', { className: 'tok', text: keys[j] })]),
        z: box(),
        exp: box(),
        weight: box(),
        naiveExp: box(),
        naiveWeight: box(),
      };
      row.naiveExpCell = h('td', { className: 'naive', dataset: { lab: 'naive-exp', key: String(j) } }, [row.naiveExp]);
      row.naiveWeightCell = h('td', { className: 'naive', dataset: { lab: 'naive-weight', key: String(j) } }, [row.naiveWeight]);
      row.tr = h('tr', {}, [
        row.th,
        h('td', { dataset: { lab: 'z', key: String(j) } }, [row.z]),
        h('td', { dataset: { lab: 'exp', key: String(j) } }, [row.exp]),
        h('td', { className: 'bar-cell', dataset: { lab: 'weight', key: String(j) } }, [row.weight]),
        row.naiveExpCell,
        row.naiveWeightCell,
      ]);
      tableRows.push(row);
    }
    table.replaceChildren(h('thead', {}, [h('tr', {}, headCells)]), h('tbody', {}, tableRows.map((row) => row.tr)));
  }

  function renderTable({ result, stable, state, t: tr }, i, hd) {
    // With naive softmax on, the page's result is the naive one and `stable` the stable run.
    const naive = state.naive ? result.perHead[hd] : null;
    const steady = (state.naive ? stable : result)?.perHead[hd];
    if (!steady) {
      table.replaceChildren();
      setHidden(labCanvas.el, true);
      tableKey = '';
      tableShape = '';
      return;
    }
    // Redrawn only when something in it changed.
    const rowKey = (head) => (head ? [head.masked, head.exps, head.weights].map((m) => m.data.subarray(i * m.cols, (i + 1) * m.cols).join(',')).join(';') : '');
    const key = [i, hd, state.temperature, state.scale, result.tokens.join('\u0001'), (result.source ?? result).tokens.join('\u0001'), tr('lab.key'), rowKey(steady), rowKey(naive),
      steady.rowSum[i], steady.entropy[i], naive?.rowSum[i]].join('|');
    if (key === tableKey) return;
    tableKey = key;
    const keys = (result.source ?? result).tokens; // the source's in cross-attention
    const { keys: shown, kind } = labPresentation({ queries: result.T, keys: result.Tk });
    const zHead = state.temperature === 1 ? 's + m' : Z_HEAD_TAU;
    // The row's numbers, as shown: [{ masked, z, exp, weight, naiveExp, naiveWeight }].
    const rows = Array.from({ length: shown }, (_, j) => ({
      masked: result.mask.data[i * result.Tk + j] === 1,
      z: at(steady.masked, i, j),
      exp: at(steady.exps, i, j),
      weight: at(steady.weights, i, j),
      naiveExp: naive ? at(naive.exps, i, j) : NaN,
      naiveWeight: naive ? at(naive.weights, i, j) : NaN,
    }));
    const onCanvas = kind === 'canvas';
    setHidden(table, onCanvas);
    setHidden(labCanvas.el, !onCanvas);
    if (onCanvas) drawCanvas(keys, rows, zHead, Boolean(naive), tr);
    else fillTable(keys, rows, zHead, Boolean(naive), tr);

    const sumE = steady.rowSum[i];
    const parts = [
      ['max', `max z = ${fmt(steady.rowMax[i])}`],
      ['sum', `Σ e^(z − max) = ${fmt(sumE)}`],
      ['wsum', sumE === 0 ? `Σ a = 0` : `Σ a = ${fmt(sumE)} / ${fmt(sumE)} = 1`],
      ['entropy', tr('lab.entropy', { value: fmt(steady.entropy[i]) })],
      // Always in the summary, unseen without naive softmax (as its columns): switching it on or
      // off then moves nothing. Unseen, it keeps its last sum (or a dash before the first run).
      ['naive-sum', `${tr('lab.naiveSum')} = ${naive ? fmt(naive.rowSum[i]) : (summaryNaive ?? '—')}`],
    ];
    if (naive) summaryNaive = fmt(naive.rowSum[i]);
    if (summary.childElementCount !== parts.length) {
      summary.replaceChildren(...parts.map(([lab]) => h('span', { className: lab === 'naive-sum' ? 'naive' : undefined, dataset: { lab } })));
    }
    // Rewritten only where a text changed (each new element would be laid out again).
    parts.forEach(([, text], k) => setText(summary.children[k], text));
    summary.classList.toggle('with-naive', Boolean(naive));

    renderNotes(result, state, i, sumE, naive, tr);
  }

  // The table's rows are built once per shape, tokens and language, then rewritten in place (a
  // new table per change cost a layout of the whole lab at T = 32).
  function fillTable(keys, rows, zHead, naive, tr) {
    const shape = [rows.length, keys.join('\u0001'), tr('lab.key'), tr('lab.weight'), tr('lab.naiveExp'), tr('lab.naiveWeight')].join('|');
    if (shape !== tableShape) {
      tableShape = shape;
      buildTable(keys, rows.length, tr);
    }
    setText(tauHead, zHead);
    if (table.classList.contains('with-naive') !== naive) table.classList.toggle('with-naive', naive);
    rows.forEach(({ masked, z, exp, weight, naiveExp, naiveWeight }, j) => {
      const row = tableRows[j];
      const rowClass = masked ? 'is-masked' : '';
      if (row.tr.className !== rowClass) {
        row.tr.className = rowClass;
        row.th.className = rowClass;
      }
      put(row.z, fmt(z));
      put(row.exp, fmt(exp));
      put(row.weight, fmt(weight));
      // The bar is the box's background, sized by --bar (lesson.css): the box keeps its size, so
      // Chromium repaints it alone. A bar of its own (an absolutely positioned element) changed
      // the bounds of its paint chunk with each new weight, and every such frame had Chromium
      // sort the whole page into layers again (1.4 ms of ÷√d_k on the worked example).
      const width = `${Number.isFinite(weight) ? Math.max(0, Math.min(1, weight)) * 100 : 0}%`;
      if (row.weight.barWidth !== width) {
        row.weight.barWidth = width;
        row.weight.style.setProperty('--bar', width);
      }
      // The naive columns are hidden without naive softmax: their numbers are left as they were.
      if (naive) {
        const expClass = `naive${Number.isFinite(naiveExp) ? '' : ' bad'}`;
        const weightClass = `naive${Number.isFinite(naiveWeight) ? '' : ' bad'}`;
        if (row.naiveExpCell.className !== expClass) row.naiveExpCell.className = expClass;
        if (row.naiveWeightCell.className !== weightClass) row.naiveWeightCell.className = weightClass;
        put(row.naiveExp, fmt(naiveExp));
        put(row.naiveWeight, fmt(naiveWeight));
      }
    });
  }

  function drawCanvas(keys, rows, zHead, naive, tr) {
    const heads = [tr('lab.key'), zHead, 'e^(z − max)', tr('lab.weight'), tr('lab.naiveExp'), tr('lab.naiveWeight')];
    labCanvas.draw({
      heads,
      widest: heads.map((text, k) => (k === 1 ? Z_HEAD_TAU : text)), // the z column fits both forms
      naive,
      rows: rows.map(({ masked, z, exp, weight, naiveExp, naiveWeight }, j) => ({
        key: keys[j],
        masked,
        texts: [fmt(z), fmt(exp), fmt(weight), naive ? fmt(naiveExp) : '', naive ? fmt(naiveWeight) : ''],
        weight: Number.isFinite(weight) ? weight : 0,
        bad: [false, false, false, naive && !Number.isFinite(naiveExp), naive && !Number.isFinite(naiveWeight)],
      })),
    });
  }

  // The notes under the table, one <li> per kind, kept and rewritten in place (replacing them all
  // laid out the list again on every change of τ). The naive-softmax note keeps its place when
  // naive softmax is off, unseen, and holds both of its texts on top of each other, showing one:
  // its height is the taller one's, so switching naive softmax on or off, or an overflow
  // appearing, does not move the page below (it moved by the note's 2-3 lines, and laying out
  // and repainting all that took about as long as a frame).
  const noteItems = new Map(); // kind → <li>
  let summaryNaive = null;
  const naiveOk = h('span');
  const naiveOverflow = h('span');
  const naiveNote = h('li', { className: 'lab-naive-note' }, [h('span', { className: 'lab-alt' }, [naiveOk, naiveOverflow])]);
  let lastOverflow = 0;

  function renderNotes(result, state, i, sumE, naive, tr) {
    const list = [['row', tr('lab.note.row', { token: `“${result.tokens[i]}”`, i: i + 1 })]];
    // The τ note is there at τ = 1 too, so that moving the slider off 1 does not push the page
    // below down by a line.
    const tauNote = state.temperature === 1 ? 'lab.note.plain' : state.temperature < 1 ? 'lab.note.cold' : 'lab.note.hot';
    list.push(['tau', tr(tauNote, { tau: factor(state.temperature) })]);
    // The scaling note is there either way, its two texts on top of each other, one shown: turning
    // ÷√d_k on or off then moves nothing below (a line added under the lab moved the rest of the
    // page, 1 828 elements at T = 8, and all of it was laid out and painted again).
    list.push(['scale', [tr('lab.note.scaled'), tr('lab.note.unscaled')], state.scale ? 0 : 1]);
    if (sumE === 0) list.push(['allMasked', tr('explain.row.allMasked')]);
    const items = keyedChildren(notes, noteItems, list.map(([kind]) => kind), () => h('li'));
    list.forEach(([, text, shown], k) => {
      if (!Array.isArray(text)) return setText(items[k], text);
      const li = items[k];
      if (!li.firstChild) li.append(h('span', { className: 'lab-alt' }));
      setAlternatives(li.firstChild, text, shown);
    });
    if (naive) {
      const row = Array.from({ length: result.Tk }, (_, j) => at(naive.exps, i, j));
      lastOverflow = row.filter((e) => e === Infinity).length;
    }
    if (naiveNote.parentNode !== notes || naiveNote.nextSibling) notes.append(naiveNote);
    setText(naiveOk, tr('lab.note.naiveOk'));
    setText(naiveOverflow, tr('lab.note.overflow', { n: lastOverflow }));
    const shown = !naive ? 'none' : lastOverflow ? 'overflow' : 'ok';
    if (naiveNote.dataset.shown !== shown) naiveNote.dataset.shown = shown;
  }

  return { el, update };
}
