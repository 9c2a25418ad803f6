// The first screen's figure: the attention weights A of one head, made from the same spec and
// component as the softmax step's, so that a learner sees attention before the steps that make it.
// A weight picked here is the lesson's selected cell (its explanation, the link), and one button
// goes down to where it is computed.
import { h, setHidden, setText } from '../render/dom.js';
import { createMatrix } from '../render/matrix.js';
import { fmt, sub } from '../render/numbers.js';
import { watchNear } from '../render/window-sight.js';
import { parseCellRef, weightsEdited } from '../state/schema.js';
import { galleryItems } from '../share/gallery.js';
import { drawOptions, figureSpec } from './step-plan.js';

// The gallery's examples a random page points to: the course's worked example, a trained head.
const MEANINGFUL = ['journey', 'trained-previous'];
let hashes = null;
const galleryHashes = () => (hashes ??= Object.fromEntries(galleryItems().map((item) => [item.id, item.hash || '#'])));

/** node: the overview's section; actions: { setHead(h), select(ref), goToSelected() }. */
export function createOverview(node, actions) {
  const title = h('h2', { id: 'overview-title' });
  const tabs = h('div', { className: 'head-tabs', role: 'group' });
  const holder = h('div', { className: 'overview-matrix' });
  const caption = h('p', { className: 'caption' });
  const pickedText = h('span');
  const goButton = h('button', { type: 'button', className: 'link' });
  const picked = h('p', { className: 'overview-picked' }, [pickedText, ' ', goButton]);
  // Random weights say nothing: the figure says so, with one click to attention that means something.
  const randomText = h('span');
  const meaningful = MEANINGFUL.map((id) => h('a', { dataset: { gallery: id } }));
  const randomNote = h('p', { className: 'overview-random', dataset: { prose: '' } }, [randomText, ' ', meaningful[0], ' · ', meaningful[1]]);
  node.replaceChildren(title, tabs, holder, picked, randomNote, caption);

  tabs.addEventListener('click', (event) => {
    const tab = event.target.closest('button[data-head-tab]');
    if (tab) actions.setHead(Number(tab.dataset.headTab));
  });
  goButton.addEventListener('click', () => actions.goToSelected());

  const events = { select: (ref) => actions.select(ref) }; // (not editable, nothing to toggle)
  let view = null;
  let tabsKey = '';
  // Drawn while near the window; scrolled away (in the lesson), only the latest context is kept.
  let near = true;
  let waiting = null;
  watchNear(node, (isNear) => {
    near = isNear;
    if (near && waiting) draw(waiting);
  });

  function renderTabs(heads, head, t) {
    const key = `${heads}|${head}|${t('lab.head', { h: 1 })}`;
    if (key === tabsKey) return;
    tabsKey = key;
    tabs.setAttribute('aria-label', t('overview.headTabs'));
    tabs.replaceChildren(
      ...Array.from({ length: heads }, (_, k) =>
        h('button', {
          type: 'button',
          className: 'choice',
          dataset: { headTab: String(k + 1) },
          'aria-pressed': k === head ? 'true' : 'false',
          text: t('lab.head', { h: k + 1 }),
        }),
      ),
    );
    setHidden(tabs, heads < 2);
  }

  /** ctx: the lesson's context (companions.js): { result, state, t, … }. */
  function render(ctx) {
    waiting = ctx;
    if (near) draw(ctx);
  }

  // What was drawn last: the same result, head, selection and language draw nothing (a step
  // changed below, say); a matrix past the printed corner redraws its whole overview.
  let drawn = [];

  function draw(ctx) {
    waiting = null;
    const { result, state, t } = ctx;
    const head = Math.min(Math.max(state.head, 1), result.heads) - 1;
    const now = [result, head, state.cell, state.step, t];
    if (now.every((item, k) => item === drawn[k])) return;
    drawn = now;
    const tokensKey = `${result.tokens.join('\u0001')}\u0002${result.source?.tokens.join('\u0001') ?? ''}`;
    const made = figureSpec('weights', head, 'output', ctx, { tokensKey, tokensOnCanvas: false });
    if (!made) return;
    const { spec, matrix } = made;
    spec.overview = false; // (past the printed corner the corner alone: step 6 has the whole map)
    node.dataset.step = state.step; // (an embed of one step leaves it out: share.css)
    setText(title, t('overview.title'));
    setText(caption, t(state.softmaxOver === 'queries' ? 'overview.captionQueries' : 'overview.caption'));
    const random = state.weights === 'random' && !weightsEdited(state);
    setHidden(randomNote, !random);
    if (random) {
      setText(randomText, t('overview.random', { seed: String(state.seed) }));
      meaningful.forEach((link, k) => {
        link.href = galleryHashes()[MEANINGFUL[k]];
        setText(link, t(`overview.random.${MEANINGFUL[k]}`));
      });
    }
    renderTabs(result.heads, head, t);
    if (!view || view.spec.key !== spec.key) {
      view = createMatrix(spec, events);
      holder.replaceChildren(view.el);
    } else {
      view.setSymbol(spec.symbol);
    }
    view.update(matrix, drawOptions(spec, matrix.rows, ctx));

    const ref = parseCellRef(state.cell);
    const shown = ref?.name === 'weights' && ref.head === head && ref.row < view.rows && ref.col < view.cols;
    view.highlight(shown ? { self: [ref.row, ref.col], cells: [], rows: [], cols: [] } : null);
    setHidden(picked, !shown);
    if (shown) {
      const keys = (result.source ?? result).tokens;
      const value = matrix.data[ref.row * matrix.cols + ref.col];
      setText(
        pickedText,
        t('overview.picked', {
          entry: `a${sub(ref.row + 1)}${sub(ref.col + 1)}`,
          value: fmt(value),
          query: result.tokens[ref.row],
          key: keys[ref.col],
        }),
      );
      setText(goButton, t('overview.goTo'));
    }
  }

  return { render };
}
