// The whole computation on screen, in the order of the course: X → Q, K, V → per head
// S, S + M, A, head_h → Concat → output. Every number comes from the engine's result.
import { subscript, superscript } from '../i18n/index.js';
import { h } from './dom.js';
import { MAX_SHOWN, renderHeatmap } from './heatmap.js';

// Printed cells the page builds at once. Past this, heads after the first are drawn when they
// come near the screen: a long sentence with many heads would otherwise take seconds per
// keystroke (each cell costs a few microseconds of DOM work).
export const EAGER_CELLS = 20000;

const shown = (rows, cols) => Math.min(rows, MAX_SHOWN) * Math.min(cols, MAX_SHOWN);

let lazyObserver = null;

// Runs `draw` (which fills `node`) once `node` is within a screen or two of the viewport.
function drawWhenNear(node, draw) {
  lazyObserver ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        lazyObserver.unobserve(entry.target);
        entry.target.lazyDraw?.();
      }
    },
    { rootMargin: '1500px 0px' },
  );
  node.lazyDraw = () => {
    delete node.lazyDraw;
    draw();
  };
  lazyObserver.observe(node);
}

// Whether a result is big enough for the lazy drawing and the layout shortcuts (.results.big).
export function isBig(result) {
  const { T, dModel, dK, heads } = result;
  return 6 * shown(T, dModel) + heads * (4 * shown(T, dK) + 3 * shown(T, T)) > EAGER_CELLS;
}

// result: engine.compute(...) output; state: the valid state it was computed from; t: translator.
// → the step sections, to put in the results container.
export function renderResults(result, state, t) {
  const tokens = result.tokens;
  const map = (matrix, name, options = {}) =>
    renderHeatmap({
      matrix,
      name,
      head: options.head,
      symbol: options.symbol ?? t(`sym.${name}`),
      title: t(`name.${name}`),
      kind: options.kind ?? 'signed',
      rowLabels: tokens,
      colTokens: options.square ? tokens : null,
      maskSource: options.maskSource,
      t,
    });

  const steps = [];

  steps.push(
    step(t('step.input.title'), [t('step.input.caption', { T: result.T, dModel: result.dModel })], [
      map(result.x, 'x'),
    ]),
  );

  steps.push(step(t('step.proj.title'), [t('step.proj.caption')], [map(result.q, 'q'), map(result.k, 'k'), map(result.v, 'v')]));

  const explain = [
    state.scale ? t('step.scores.scaled', { dK: result.dK }) : t('step.scores.unscaled'),
    state.mask === 'causal' ? t('step.masked.causal') : t('step.masked.none'),
    t('step.weights'),
    t('step.context'),
  ];
  // Forget the lazy heads of the previous result.
  lazyObserver?.disconnect();
  lazyObserver = null;
  const { T, dModel, dK } = result;
  const perHeadCells = 4 * shown(T, dK) + 3 * shown(T, T);
  let budget = EAGER_CELLS - 6 * shown(T, dModel);

  const heads = result.perHead.map((head, index) => {
    const sym = { h: superscript(index + 1), hs: subscript(index + 1) };
    const perHead = { head: index };
    const article = h('article', { className: 'head', dataset: { head: String(index) } }, [
      h('h3', { text: t('step.head.title', { h: index + 1 }) }),
      h('p', {
        className: 'caption',
        text: t('step.head.slices', { from: index * dK + 1, to: (index + 1) * dK }),
      }),
    ]);
    const draw = () => article.append(...headMatrices(head, perHead, sym));
    budget -= perHeadCells;
    if (index === 0 || budget >= 0) draw();
    else {
      article.style.minHeight = `${Math.min(T, MAX_SHOWN) * 2 * 26 + 200}px`;
      drawWhenNear(article, () => {
        article.style.minHeight = '';
        draw();
      });
    }
    return article;
  });

  function headMatrices(head, perHead, sym) {
    return [
      h('div', { className: 'matrices' }, [
        map(head.q, 'q', { ...perHead, symbol: t('sym.headQ', sym) }),
        map(head.k, 'k', { ...perHead, symbol: t('sym.headK', sym) }),
        map(head.v, 'v', { ...perHead, symbol: t('sym.headV', sym) }),
      ]),
      h('div', { className: 'matrices' }, [
        map(head.scores, 'scores', { ...perHead, square: true, symbol: t('sym.scores', sym) }),
        map(head.masked, 'masked', { ...perHead, square: true, symbol: t('sym.masked', sym) }),
        map(head.weights, 'weights', {
          ...perHead,
          square: true,
          kind: 'weights',
          maskSource: head.masked,
          symbol: t('sym.weights', sym),
        }),
        map(head.context, 'context', { ...perHead, symbol: t('sym.context', sym) }),
      ]),
    ];
  }
  steps.push(
    step(
      t('step.heads.title'),
      [t('step.heads.caption', { heads: result.heads, dK: result.dK })],
      heads,
      explain,
    ),
  );

  steps.push(
    step(t('step.out.title'), [], [map(result.concat, 'concat'), map(result.output, 'output')], [
      t('step.concat'),
      t('step.output'),
    ]),
  );

  return steps;
}

// One numbered step: a heading, caption paragraphs, an optional list of formulas, then content.
// Matrices go side by side; per-head articles stack.
function step(title, captions, content, formulas = []) {
  const isMatrices = content.every((node) => node.tagName === 'FIGURE');
  return h('section', { className: 'step' }, [
    h('h2', { text: title }),
    ...captions.map((text) => h('p', { className: 'caption', text })),
    formulas.length ? h('ul', { className: 'formulas' }, formulas.map((text) => h('li', { text }))) : null,
    isMatrices ? h('div', { className: 'matrices' }, content) : h('div', { className: 'heads' }, content),
  ]);
}
