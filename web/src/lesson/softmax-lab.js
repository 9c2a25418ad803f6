// The softmax lab (step "softmax"), for one query row of one head: the scores s + m, the
// exponentials e^(z − max), their sum, the weights as bars with numbers, the row's entropy, and
// the controls that change them: temperature τ, √d_k scaling, naive softmax (e^z without
// subtracting the max, in float32, next to the stable result) and scaling X by 10.
// Every number is read from the engine's results (companions.js); none is computed here.
import { h } from '../views/dom.js';
import { parseDecimal } from '../state/parse.js';
import { factor, fmt } from './numbers.js';

const MIN_TAU = 0.01;
const MAX_TAU = 100;

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
    h('div', { className: 'lab-scroll' }, [table]),
    summary,
    notes,
  ]);

  let ctx = null;
  const say = (key, params) => {
    message.textContent = key ? t(key, params) : '';
    message.hidden = !key;
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
    for (const node of el.querySelectorAll('[data-i18n]')) node.textContent = tr(node.dataset.i18n);
    const i = state.row - 1;
    const hd = state.head - 1;

    const key = `${result.tokens.join('\u0001')}|${result.heads}|${tr('lab.head', { h: 1 })}`;
    if (key !== pickerKey) {
      pickerKey = key;
      rowPicker.replaceChildren(
        ...result.tokens.slice(0, 64).map((token, r) => h('button', { type: 'button', className: 'chip', dataset: { labRow: String(r) }, text: token })),
      );
      headPicker.replaceChildren(
        ...(result.heads > 1
          ? Array.from({ length: result.heads }, (_, k) => h('button', { type: 'button', className: 'choice', dataset: { labHead: String(k) }, text: tr('lab.head', { h: k + 1 }) }))
          : []),
      );
    }
    rowPicker.querySelectorAll('button').forEach((b, r) => b.setAttribute('aria-pressed', r === i ? 'true' : 'false'));
    headPicker.querySelectorAll('button').forEach((b, k) => b.setAttribute('aria-pressed', k === hd ? 'true' : 'false'));

    if (document.activeElement !== tauInput) tauInput.value = factor(state.temperature).replace('\u2212', '-');
    if (document.activeElement !== tauRange) tauRange.value = String(Math.log10(state.temperature));
    scaleBox.checked = state.scale;
    naiveBox.checked = state.naive;

    renderTable(ctx, i, hd);
  }

  let tableKey = '';
  let tableShape = '';
  let tableRows = [];
  const setText = (node, text) => {
    if (node.textContent !== text) node.textContent = text;
  };

  // The table's header and empty rows: [{ tr, th, z, exp, bar, num, naiveExp?, naiveWeight? }].
  function buildTable(keys, shown, naive, tau, tr) {
    const headCells = [
      h('th', { scope: 'col', text: tr('lab.key') }),
      h('th', { scope: 'col', text: `s + m${tau ? ` (z = (s + m)${tau})` : ''}` }),
      h('th', { scope: 'col', text: 'e^(z − max)' }),
      h('th', { scope: 'col', text: tr('lab.weight') }),
    ];
    if (naive) {
      headCells.push(h('th', { scope: 'col', className: 'naive', text: tr('lab.naiveExp') }));
      headCells.push(h('th', { scope: 'col', className: 'naive', text: tr('lab.naiveWeight') }));
    }
    tableRows = [];
    for (let j = 0; j < shown; j += 1) {
      const row = {
        th: h('th', { scope: 'row', title: keys[j] }, [`${j + 1} `, h('span', { className: 'tok', text: keys[j] })]),
        z: h('td', { dataset: { lab: 'z', key: String(j) } }),
        exp: h('td', { dataset: { lab: 'exp', key: String(j) } }),
        bar: h('span', { className: 'bar' }),
        num: h('span', { className: 'num' }),
      };
      const cells = [row.th, row.z, row.exp, h('td', { className: 'bar-cell', dataset: { lab: 'weight', key: String(j) } }, [row.bar, row.num])];
      if (naive) {
        row.naiveExp = h('td', { dataset: { lab: 'naive-exp', key: String(j) } });
        row.naiveWeight = h('td', { dataset: { lab: 'naive-weight', key: String(j) } });
        cells.push(row.naiveExp, row.naiveWeight);
      }
      row.tr = h('tr', {}, cells);
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
    const tau = state.temperature === 1 ? '' : ` / τ`;
    const keys = (result.source ?? result).tokens; // the source's in cross-attention
    const shown = Math.min(result.Tk, 64);
    // The rows are built once per shape, tokens and language, then rewritten in place (a new
    // table per change cost a layout of the whole lab at T = 32).
    const shape = [shown, Boolean(naive), keys.join('\u0001'), tau, tr('lab.key'), tr('lab.weight'), tr('lab.naiveExp')].join('|');
    if (shape !== tableShape) {
      tableShape = shape;
      buildTable(keys, shown, naive, tau, tr);
    }
    for (let j = 0; j < shown; j += 1) {
      const row = tableRows[j];
      const z = at(steady.masked, i, j);
      const weight = at(steady.weights, i, j);
      const masked = result.mask.data[i * result.Tk + j] === 1;
      row.tr.className = masked ? 'is-masked' : '';
      row.th.className = masked ? 'is-masked' : '';
      setText(row.z, fmt(z));
      setText(row.exp, fmt(at(steady.exps, i, j)));
      setText(row.num, fmt(weight));
      const width = `${Number.isFinite(weight) ? Math.max(0, Math.min(1, weight)) * 100 : 0}%`;
      if (row.bar.style.width !== width) row.bar.style.width = width;
      if (naive) {
        const e = at(naive.exps, i, j);
        const a = at(naive.weights, i, j);
        row.naiveExp.className = `naive${Number.isFinite(e) ? '' : ' bad'}`;
        row.naiveWeight.className = `naive${Number.isFinite(a) ? '' : ' bad'}`;
        setText(row.naiveExp, fmt(e));
        setText(row.naiveWeight, fmt(a));
      }
    }

    const sumE = steady.rowSum[i];
    const parts = [
      h('span', { dataset: { lab: 'max' }, text: `max z = ${fmt(steady.rowMax[i])}` }),
      h('span', { dataset: { lab: 'sum' }, text: `Σ e^(z − max) = ${fmt(sumE)}` }),
      h('span', { dataset: { lab: 'wsum' }, text: sumE === 0 ? `Σ a = 0` : `Σ a = ${fmt(sumE)} / ${fmt(sumE)} = 1` }),
      h('span', { dataset: { lab: 'entropy' }, text: tr('lab.entropy', { value: fmt(steady.entropy[i]) }) }),
    ];
    if (naive) parts.push(h('span', { className: 'naive', dataset: { lab: 'naive-sum' }, text: `${tr('lab.naiveSum')} = ${fmt(naive.rowSum[i])}` }));
    summary.replaceChildren(...parts);

    const list = [tr('lab.note.row', { token: `“${result.tokens[i]}”`, i: i + 1 })];
    if (state.temperature !== 1) list.push(tr(state.temperature < 1 ? 'lab.note.cold' : 'lab.note.hot', { tau: factor(state.temperature) }));
    if (!state.scale) list.push(tr('lab.note.unscaled'));
    if (sumE === 0) list.push(tr('explain.row.allMasked'));
    if (naive) {
      const row = Array.from({ length: result.Tk }, (_, j) => at(naive.exps, i, j));
      const overflow = row.filter((e) => e === Infinity).length;
      list.push(tr(overflow ? 'lab.note.overflow' : 'lab.note.naiveOk', { n: overflow }));
    }
    notes.replaceChildren(...list.map((text) => h('li', { text })));
  }

  return { el, update };
}
