// Positional encoding on the page: with "sinusoidal", the token vectors E, the positions P and
// their sum X = E + P as three matrices (all from the result); with "none", a note. Below, the
// "shuffle tokens" experiment: the same tokens in another order, without and with positions,
// compared row by row after undoing the order (positions/shuffle.js; the engine computes).
import katex from 'katex';

import { signedFill } from '../render/colors.js';
import { formatCell } from '../render/format.js';
import { h, placeChildren } from '../render/dom.js';
import { renderGrid } from '../heads/grid.js';
import { sameNumbers } from '../render/same-numbers.js';
import { scrollWhenNeeded } from '../render/overflow-class.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { compareRows, shuffledOrder } from './shuffle.js';

const { shuffleCols: COLS, shuffleRows: ROWS } = THRESHOLDS;

// The definition of "Attention Is All You Need", section 3.5 (text only: the engine computes P).
const FORMULA = String.raw`P_{pos,\,2i} = \sin\!\left(\frac{pos}{10000^{2i/d_{model}}}\right), \qquad P_{pos,\,2i+1} = \cos\!\left(\frac{pos}{10000^{2i/d_{model}}}\right)`;

function formula(tex) {
  const node = h('div', { className: 'pe-formula' });
  try {
    katex.render(tex, node, { displayMode: true, throwOnError: false });
  } catch {
    node.textContent = tex;
  }
  return node;
}

// 3.2e-8 rather than 0.000: the point is how small the difference is.
const small = (value) => (value === 0 ? '0' : value < 1e-3 ? value.toExponential(1).replace('-', '\u2212') : formatCell(value));

/** callbacks: { shuffle(seed) } */
export function createPositionsPanel(callbacks) {
  const el = h('section', { className: 'panel hv-panel pe', id: 'positions-view', dataset: { field: 'positionsView' } });
  el.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-pe]');
    if (!button) return;
    if (button.dataset.pe === 'shuffle') callbacks.shuffle(1 + Math.floor(Math.random() * 2147483646));
    else callbacks.shuffle(0);
  });

  function encodingPart({ result, t }) {
    if (!result.positions) {
      return [h('p', { className: 'caption', text: t('heads.pos.noneCaption') })];
    }
    const tokens = result.tokens;
    const grid = (matrix, name, caption) => renderGrid({ matrix, name, rowLabels: tokens, fill: signedFill(matrix), caption, t });
    return [
      h('p', { className: 'caption', text: t('heads.pos.sinCaption', { T: result.T, dModel: result.dModel }) }),
      formula(FORMULA),
      h('div', { className: 'pe-matrices' }, [
        grid(result.embeddings, 'pos-e', t('heads.pos.e')),
        h('div', { className: 'pe-term' }, [h('span', { className: 'op', text: '+' }), grid(result.positions, 'pos-p', t('heads.pos.p'))]),
        h('div', { className: 'pe-term' }, [h('span', { className: 'op', text: '=' }), grid(result.x, 'pos-x', t('heads.pos.x'))]),
      ]),
    ];
  }

  // The experiment's four runs (the page's plan computes them: compute/plan.js) compared row by row.
  function shuffleRuns(results, config, seed) {
    const order = shuffledOrder(config.tokens.length, seed);
    const runs = { order };
    for (const positional of ['none', 'sinusoidal']) {
      const typed = results.get(`shuffle.${positional}.typed`)?.output;
      const shuffled = results.get(`shuffle.${positional}.shuffled`)?.output;
      if (!typed || !shuffled) return null;
      runs[positional] = { typed, shuffled, ...compareRows(typed, shuffled, order, config.tokens) };
    }
    return runs;
  }

  function shufflePart({ state, t, results, config }) {
    const shuffled = state.shuffle > 0;
    const parts = [
      h('h3', { text: t('heads.shuffle.title') }),
      h('p', { className: 'caption', text: t('heads.shuffle.caption') }),
      h('div', { className: 'pe-buttons' }, [
        h('button', {
          type: 'button',
          className: 'choice',
          dataset: { pe: 'shuffle' },
          text: t(shuffled ? 'heads.shuffle.again' : 'heads.shuffle.button'),
        }),
        shuffled ? h('button', { type: 'button', className: 'choice', dataset: { pe: 'typed' }, text: t('heads.shuffle.typed') }) : null,
      ]),
    ];
    if (!shuffled) return parts;
    if (config.tokens.length < 2) {
      parts.push(h('p', { className: 'note', text: t('heads.shuffle.one') }));
      return parts;
    }
    if (results.waiting.positions === 'exercise') {
      parts.push(h('p', { className: 'note', text: t('exercise.panelWaits') }));
      return parts;
    }
    const run = shuffleRuns(results, config, state.shuffle);
    if (!run) {
      parts.push(h('p', { className: 'note', text: t('heads.shuffle.failed') }));
      return parts;
    }
    const { order, none, sinusoidal } = run;
    const tokens = config.tokens;
    parts.push(
      h('p', { className: 'pe-order' }, [
        h('span', { className: 'hs-label', text: t('heads.shuffle.typedOrder') }),
        ...tokens.slice(0, ROWS).map((token) => h('span', { className: 'chip', text: token })),
      ]),
      h('p', { className: 'pe-order' }, [
        h('span', { className: 'hs-label', text: t('heads.shuffle.newOrder') }),
        ...order.slice(0, ROWS).map((i) => h('span', { className: 'chip', text: tokens[i] })),
      ]),
      h('ul', { className: 'pe-summary' }, [
        h('li', {
          dataset: { peSummary: 'none' },
          className: none.changed === 0 ? 'same' : 'changed',
          text:
            none.changed === 0
              ? t('heads.shuffle.noneSame', { max: small(none.maxDiff) })
              : t('heads.shuffle.noneChanged', { n: none.changed, T: tokens.length, max: small(none.maxDiff) }),
        }),
        h('li', {
          dataset: { peSummary: 'sinusoidal' },
          className: sinusoidal.changed === 0 ? 'same' : 'changed',
          text:
            sinusoidal.changed === 0
              ? t('heads.shuffle.sinSame', { max: small(sinusoidal.maxDiff) })
              : t('heads.shuffle.sinChanged', { n: sinusoidal.changed, T: tokens.length, max: small(sinusoidal.maxDiff) }),
        }),
      ]),
    );
    // Row by row: where each token went, and how far its output row moved.
    const head = h('tr', {}, [
      h('th', { text: t('heads.shuffle.token') }),
      h('th', { text: t('heads.shuffle.position') }),
      h('th', { text: t('heads.shuffle.diffNone') }),
      h('th', { text: t('heads.shuffle.diffSin') }),
    ]);
    const verdict = (row) =>
      h('td', { className: row.same ? 'same' : 'changed', dataset: { peSame: row.same ? '1' : '0' } }, [
        h('span', { className: 'mark', text: row.same ? '=' : '≠' }),
        ` ${small(row.diff)}`,
      ]);
    const body = none.rows
      .slice(0, ROWS)
      .map((row, i) =>
        h('tr', { dataset: { peRow: String(i) } }, [
          h('th', { scope: 'row', text: row.token }),
          h('td', { text: `${row.from + 1} → ${row.to + 1}` }),
          verdict(row),
          verdict(sinusoidal.rows[i]),
        ]),
      );
    const table = h('table', { className: 'pe-table' }, [h('thead', {}, [head]), h('tbody', {}, body)]);
    parts.push(scrollWhenNeeded(h('div', { className: 'hv-scroll' }, [table]), t('heads.shuffle.title')));

    // The outputs themselves, typed order and shuffled order, rows labelled with their tokens.
    const shuffledTokens = order.map((i) => tokens[i]);
    const outputs = (runOf, key) =>
      h('div', { className: 'pe-pair', dataset: { pePair: key } }, [
        h('h4', { text: t(key === 'none' ? 'heads.shuffle.withoutTitle' : 'heads.shuffle.withTitle') }),
        h('div', { className: 'pe-matrices' }, [
          renderGrid({
            matrix: runOf.typed,
            name: `shuffle-${key}-typed`,
            rowLabels: tokens,
            fill: signedFill(runOf.typed),
            maxCols: COLS,
            maxRows: 16,
            caption: t('heads.shuffle.outTyped'),
            t,
          }),
          renderGrid({
            matrix: runOf.shuffled,
            name: `shuffle-${key}-shuffled`,
            rowLabels: shuffledTokens,
            fill: signedFill(runOf.typed),
            maxCols: COLS,
            maxRows: 16,
            caption: t('heads.shuffle.outShuffled'),
            t,
          }),
        ]),
      ]);
    parts.push(h('div', { className: 'pe-pairs' }, [outputs(none, 'none'), outputs(sinusoidal, 'sinusoidal')]));
    return parts;
  }

  // What the panel shows is kept while what it was built from is the same: most changes (τ, the
  // mask, a weight) change none of E, P and X, and rebuilding typeset the formula and laid out the
  // three matrices again each time. The shuffle's comparison, which depends on everything, is
  // built anew whenever the shuffle is on.
  let title = null;
  let encoding = { from: null, nodes: [] };
  let shuffle = { from: null, nodes: [] };
  const matricesOf = (result) => [result.embeddings, result.positions, result.x].map((m) => m?.data ?? null);
  const sameEncoding = (a, b) => a !== null && a.key === b.key && a.data.every((data, k) => sameNumbers(data, b.data[k]));

  function update(ctx) {
    const { result, state, t } = ctx;
    const titleText = t('heads.pos.title');
    if (title?.textContent !== titleText) title = h('h2', { text: titleText });
    const encodingFrom = {
      key: JSON.stringify([result.tokens, result.T, result.dModel, Boolean(result.positions), titleText]),
      data: matricesOf(result),
    };
    if (!sameEncoding(encoding.from, encodingFrom)) encoding = { from: encodingFrom, nodes: encodingPart(ctx) };
    const shuffleFrom = state.shuffle > 0 ? null : titleText;
    if (shuffleFrom === null || shuffle.from !== shuffleFrom) shuffle = { from: shuffleFrom, nodes: shufflePart(ctx).filter(Boolean) };
    placeChildren(el, [title, ...encoding.nodes, ...shuffle.nodes]);
  }

  return { el, update };
}
