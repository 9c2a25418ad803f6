// The softmax lab (step "softmax"), for one query row of one head: the scores s + m, the
// exponentials e^(z − max), their sum, the weights as bars with numbers, the row's entropy, and
// the controls that change them: temperature τ, √d_k scaling, naive softmax (e^z without
// subtracting the max, in float32, next to the stable result), scaling X by 10, and the axis the
// softmax normalises (keys, or queries: the course's misconception, whose row sums are shown).
// Every number is read from the engine's results (companions.js); none is computed here.
import { h, keyedChildren, setAlternatives, setAttr, setHidden, setText } from '../render/dom.js';
import { labPresentation } from '../render/policy.js';
import { createMatrix } from '../render/matrix.js';
import { createRelativeNote } from './relative-note.js';
import { parseDecimal } from '../state/parse.js';
import { fieldOf } from '../state/schema.js';
import { factor, fmt } from '../render/numbers.js';

const { min: MIN_TAU, max: MAX_TAU } = fieldOf('temperature');
const Z_HEAD_TAU = 's + m (z = (s + m) / τ)'; // the z column's header when τ ≠ 1
// The table's columns: z, e^(z − max), the weight (with its bar), naive e^z, naive weight.
const WEIGHT = 2;
const NAIVE_COLS = [3, 4];

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
  // The softmax's axis: a radio pair, keys (each row, right) or queries (each column, wrong).
  const axisBoxes = ['keys', 'queries'].map((axis) =>
    h('input', { type: 'radio', name: 'lesson-softmax-over', value: axis, id: `lesson-softmax-over-${axis}` }),
  );
  const times10 = h('button', { type: 'button', className: 'tool', id: 'lesson-x10', dataset: { i18n: 'lab.x10' } });
  const div10 = h('button', { type: 'button', className: 'tool', id: 'lesson-x01', dataset: { i18n: 'lab.x01' } });
  const message = h('p', { className: 'lesson-error', role: 'alert', hidden: true });
  // The table: a matrix of the row's keys (render/matrix.js), a table or a canvas as policy.js says.
  const tableBox = h('div', { className: 'lab-scroll' });
  const summary = h('p', { className: 'lab-summary' });
  const notes = h('ul', { className: 'lab-notes' });
  const relative = createRelativeNote({ change: (partial) => callbacks.change(partial) });
  const el = h('details', { className: 'lab', id: 'softmax-lab', open: true }, [
    h('summary', {}, [h('h3', { dataset: { i18n: 'lab.title' } })]),
    h('div', { className: 'lab-pick' }, [h('span', { className: 'lab-label', dataset: { i18n: 'lab.row' } }), rowPicker, headPicker]),
    h('div', { className: 'lab-controls' }, [
      h('label', { className: 'param' }, [h('span', { dataset: { i18n: 'lab.tau' } }), tauRange, tauInput]),
      h('label', { className: 'opt' }, [scaleBox, ' ', h('span', { dataset: { i18n: 'lab.scale' } })]),
      h('label', { className: 'opt' }, [naiveBox, ' ', h('span', { dataset: { i18n: 'lab.naive' } })]),
      h('span', { className: 'tools' }, [times10, div10]),
    ]),
    h('div', { className: 'lab-controls lab-axis', role: 'radiogroup', 'aria-labelledby': 'lesson-softmax-over-label' }, [
      h('span', { className: 'lab-label', id: 'lesson-softmax-over-label', dataset: { i18n: 'lab.axis' } }),
      ...axisBoxes.map((box) => h('label', { className: 'opt' }, [box, ' ', h('span', { dataset: { i18n: `lab.axis.${box.value}` } })])),
    ]),
    message,
    tableBox,
    summary,
    notes,
    relative.el,
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
  for (const box of axisBoxes) box.addEventListener('change', () => box.checked && callbacks.change({ softmaxOver: box.value }));
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
        ...result.tokens
          .slice(0, labPresentation({ queries: result.T, keys: result.Tk }).queries)
          .map((token, r) => h('button', { type: 'button', className: 'chip', dataset: { labRow: String(r) }, text: token })),
      );
      headPicker.replaceChildren(
        ...(result.heads > 1
          ? Array.from({ length: result.heads }, (_, k) =>
              h('button', { type: 'button', className: 'choice', dataset: { labHead: String(k) }, text: tr('lab.head', { h: k + 1 }) }),
            )
          : []),
      );
    }
    rowPicker.querySelectorAll('button').forEach((b, r) => setAttr(b, 'aria-pressed', r === i ? 'true' : 'false'));
    headPicker.querySelectorAll('button').forEach((b, k) => setAttr(b, 'aria-pressed', k === hd ? 'true' : 'false'));

    if (document.activeElement !== tauInput) tauInput.value = factor(state.temperature).replace('\u2212', '-');
    if (document.activeElement !== tauRange) tauRange.value = String(Math.log10(state.temperature));
    scaleBox.checked = state.scale;
    naiveBox.checked = state.naive;
    for (const box of axisBoxes) box.checked = box.value === (state.softmaxOver ?? 'keys');

    renderTable(ctx, i, hd);
    if (result.perHead[hd]) relative.update(ctx, i, hd);
    if (rowAsked) setHidden(relative.el, true); // (it names the row's largest weight)
  }

  // Whether an exercise asks for an entry of the row (exercise/present.js): then its numbers are
  // "?" in the table, the summary and the notes.
  let rowAsked = false;
  const askedIn = (m, i) => Boolean(m?.hidden?.subarray(i * m.cols, (i + 1) * m.cols).includes(1));

  let tableKey = '';
  let matrix = null; // the table's view, made again for new keys, surface or language
  let matrixKey = '';

  function renderTable({ result, stable, state, t: tr }, i, hd) {
    // With naive softmax on, the page's result is the naive one and `stable` the stable run.
    const naive = state.naive ? result.perHead[hd] : null;
    const steady = (state.naive ? stable : result)?.perHead[hd];
    rowAsked = Boolean(steady) && (askedIn(steady.weights, i) || askedIn(steady.exps, i) || askedIn(steady.masked, i));
    if (!steady) {
      tableBox.replaceChildren();
      matrix = null;
      matrixKey = '';
      tableKey = '';
      return;
    }
    // Redrawn only when something in it changed.
    const rowKey = (head) =>
      head ? [head.masked, head.exps, head.weights].map((m) => m.data.subarray(i * m.cols, (i + 1) * m.cols).join(',')).join(';') : '';
    const overQueries = state.softmaxOver === 'queries';
    const key = [
      i,
      hd,
      state.temperature,
      state.scale,
      overQueries,
      result.tokens.join('\u0001'),
      (result.source ?? result).tokens.join('\u0001'),
      tr('lab.key'),
      rowKey(steady),
      rowKey(naive),
      steady.rowSum[i],
      steady.entropy[i],
      naive?.rowSum[i],
      steady.weightSum.join(','),
    ].join('|');
    if (key === tableKey) return;
    tableKey = key;
    const keys = (result.source ?? result).tokens; // the source's in cross-attention
    const { keys: shown, kind } = labPresentation({ queries: result.T, keys: result.Tk });
    const heads = [
      state.temperature === 1 ? 's + m' : Z_HEAD_TAU,
      overQueries ? tr('lab.expColumn') : 'e^(z − max)',
      tr(overQueries ? 'lab.weightColumn' : 'lab.weight'),
      tr('lab.naiveExp'),
      tr('lab.naiveWeight'),
    ];
    const made = [shown, kind, keys.slice(0, shown).join('\u0001'), ...heads.slice(1)].join('|');
    if (made !== matrixKey) {
      matrixKey = made;
      matrix = createMatrix(
        {
          name: 'lab',
          rows: shown,
          cols: heads.length,
          shownRows: shown,
          shownCols: heads.length,
          kind: 'plain',
          surface: kind,
          figure: 'bare',
          unit: 'row',
          rowLabels: keys.slice(0, shown).map((token, j) => `${j + 1} ${token}`),
          colLabels: [Z_HEAD_TAU, ...heads.slice(1)], // (the columns fit z's longer header)
          colTokens: null,
          corner: tr('lab.key'),
          barCol: WEIGHT,
          label: tr('lab.canvas'),
          describe: (j, c, [z, exp, weight, naiveExp, naiveWeight]) =>
            callbacks.t()(naiveShown ? 'lab.canvasRowNaive' : 'lab.canvasRow', { key: j + 1, token: keys[j], z, exp, weight, naiveExp, naiveWeight }),
          t: tr,
        },
        {},
      );
      tableBox.replaceChildren(matrix.el);
    }
    // The row's numbers, a key per row: z, e^(z − max), weight, naive e^z, naive weight.
    const data = new Float64Array(shown * heads.length);
    const masked = new Uint8Array(shown * heads.length);
    const hidden = rowAsked ? new Uint8Array(shown * heads.length) : null;
    const flag = (m, j) => (m?.hidden?.[i * m.cols + j] === 1 ? 1 : 0);
    for (let j = 0; j < shown; j += 1) {
      data.set(
        [
          at(steady.masked, i, j),
          at(steady.exps, i, j),
          at(steady.weights, i, j),
          naive ? at(naive.exps, i, j) : NaN,
          naive ? at(naive.weights, i, j) : NaN,
        ],
        j * heads.length,
      );
      hidden?.set(
        [flag(steady.masked, j), flag(steady.exps, j), flag(steady.weights, j), flag(naive?.exps, j), flag(naive?.weights, j)],
        j * heads.length,
      );
      if (result.mask.data[i * result.Tk + j] === 1) masked.fill(1, j * heads.length, (j + 1) * heads.length);
    }
    naiveShown = Boolean(naive);
    matrix.setColLabels(heads);
    matrix.update({ rows: shown, cols: heads.length, data, hidden }, { mask: { data: masked }, blankCols: naive ? [] : NAIVE_COLS });

    const sumE = steady.rowSum[i];
    const num = (value) => (rowAsked ? '?' : fmt(value));
    // Over queries the row's Σ e^(z − max) mixes the columns' maxima: the columns' sum is shown.
    const parts = [
      ['max', `max z = ${num(steady.rowMax[i])}`],
      ['sum', overQueries ? tr('lab.columnSums') : `Σ e^(z − max) = ${num(sumE)}`],
      [
        'wsum',
        overQueries ? tr('lab.rowSum', { value: num(steady.weightSum[i]) }) : sumE === 0 ? `Σ a = 0` : `Σ a = ${num(sumE)} / ${num(sumE)} = 1`,
      ],
      ['entropy', tr('lab.entropy', { value: num(steady.entropy[i]) })],
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
    summary.classList.toggle('over-queries', overQueries);

    renderNotes(result, state, i, sumE, naive, tr, steady);
  }
  let naiveShown = false; // the readout says the naive numbers too

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

  function renderNotes(result, state, i, sumE, naive, tr, steady) {
    const list = [['row', tr('lab.note.row', { token: `“${result.tokens[i]}”`, i: i + 1 })]];
    if (state.softmaxOver === 'queries') {
      list.push(['axis', tr('lab.note.queries', { token: `“${result.tokens[i]}”`, sum: rowAsked ? '?' : fmt(steady.weightSum[i]) })]);
      list.push(['rowSums', tr('lab.note.rowSums', { sums: rowSumsText(result, steady) })]);
    }
    // The τ note is there at τ = 1 too, so that moving the slider off 1 does not push the page
    // below down by a line.
    const tauNote = state.temperature === 1 ? 'lab.note.plain' : state.temperature < 1 ? 'lab.note.cold' : 'lab.note.hot';
    list.push(['tau', tr(tauNote, { tau: factor(state.temperature) })]);
    // The scaling note is there either way, its two texts on top of each other, one shown: turning
    // ÷√d_k on or off then moves nothing below (a line added under the lab moved the rest of the
    // page, 1 828 elements at T = 8, and all of it was laid out and painted again).
    list.push(['scale', [tr('lab.note.scaled'), tr('lab.note.unscaled')], state.scale ? 0 : 1]);
    if (sumE === 0) list.push(['allMasked', tr('explain.row.allMasked')]);
    const items = keyedChildren(
      notes,
      noteItems,
      list.map(([kind]) => kind),
      () => h('li'),
    );
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

// Every shown query row's Σ_j a_ij as the core computed it: "1 Your 0.412 · 2 journey 1.305 …".
function rowSumsText(result, head) {
  const shown = labPresentation({ queries: result.T, keys: result.Tk }).queries;
  const asked = (r) => head.weights.hidden?.subarray(r * head.weights.cols, (r + 1) * head.weights.cols).includes(1);
  return result.tokens
    .slice(0, shown)
    .map((token, r) => `${r + 1} ${token} ${asked(r) ? '?' : fmt(head.weightSum[r])}`)
    .join(' · ');
}
