// The head views on the page: the controls they add to the form (tokenization, key/value heads,
// positional encoding, cross-attention) and the panels under the lesson (head split, token to
// token, cross-attention, positions and the shuffle experiment). Controls dispatch their fields
// to the page's store; the panels are views of (state, results) drawn by the page's draw pass.
import './heads.css';

import { createCrossControls } from '../cross/cross-controls.js';
import { createCrossPanel } from '../cross/cross-panel.js';
import { createPositionalControl } from '../positions/positional-control.js';
import { createPositionsPanel } from '../positions/positions-panel.js';
import { parseWholeNumber, tokenize } from '../state/parse.js';
import { configKey } from '../views/config-key.js';
import { h, setHidden } from '../render/dom.js';
import { scrollToPanel } from '../views/scroll-to-panel.js';
import { createTokenizeControl } from '../tokens/tokenize-control.js';
import { createTokenView } from '../tokens/token-view.js';
import { createKvControl } from './kv-control.js';
import { createSplitView } from './split-view.js';

// The panels below the lesson a jump link leads to (the modern ones are modern/index.js's).
const JUMPS = [
  ['head-split', 'heads.jump.split', 'heads'],
  ['token-view', 'heads.jump.tokens', 'heads'],
  ['cross-view', 'heads.jump.cross', 'heads'],
  ['positions-view', 'heads.jump.positions', 'heads'],
  ['flash-view', 'modern.jump.flash', 'modern'],
  ['kv-view', 'modern.jump.kv', 'modern'],
  ['rope-view', 'modern.jump.rope', 'modern'],
];

/**
 * deps: { nodes: { tokenize, structure, views } (under the sentence, a form row, the panels' place),
 *   store (the page's), drawPass, t(), maxTokens }
 */
export function createHeadViews(deps) {
  const { nodes, store } = deps;
  const dispatch = (partial, from = 'heads') => store.dispatch(partial, { from });

  // ---- controls in the form ----------------------------------------------------------------------
  const tokenizeControl = createTokenizeControl();
  const kvControl = createKvControl({ change: (partial) => dispatch(partial) });
  const positional = createPositionalControl();
  const cross = createCrossControls({ change: (partial) => dispatch(partial) });
  nodes.tokenize.replaceChildren(tokenizeControl.el);
  // Links to the panels of the heads and today's-attention views.
  const jump = h('nav', { className: 'hv-jump', 'aria-labelledby': 'hv-jump-label' }, [
    h('span', { id: 'hv-jump-label', dataset: { i18n: 'heads.jump.label' } }),
    ...JUMPS.map(([id, key, view]) => h('a', { href: `#${id}`, dataset: { i18n: key, jump: id, view } })),
  ]);
  // In-page links must not replace the address (it holds the state): scroll instead, and hold
  // the panel in place while the panels around it take their real sizes (scroll-to-panel.js).
  jump.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-jump]');
    if (!link) return;
    event.preventDefault();
    dispatch({ view: link.dataset.view }, 'jump'); // (its view shown first)
    const panel = document.getElementById(link.dataset.jump);
    if (panel) scrollToPanel(panel);
  });
  nodes.structure.replaceChildren(kvControl.el, positional.el, cross.el, jump);
  tokenizeControl.el.addEventListener('input', () => dispatch({ tokenization: tokenizeControl.read() }, 'form'));
  positional.el.addEventListener('input', () => dispatch({ positional: positional.read() }, 'form'));
  cross.el.addEventListener('input', () => dispatch(cross.read(), 'form'));

  // ---- panels ----------------------------------------------------------------------------------
  const split = createSplitView({
    setStage: (stage) => dispatch({ split: stage }, 'split'),
    setHeads: (heads) => dispatch({ heads: String(heads) }, 'split'),
    setKv: (kv) => dispatch({ kvHeads: kv === store.state?.heads ? 0 : kv }, 'split'),
    select: (k) => dispatch({ head: k + 1 }, 'split'),
    t: deps.t,
  });
  const tokenView = createTokenView({ select: (k) => dispatch({ head: k + 1 }, 'tokens') });
  const crossPanel = createCrossPanel();
  const positions = createPositionsPanel({ shuffle: (seed) => dispatch({ shuffle: seed }, 'positions') });
  nodes.views.replaceChildren(split.el, tokenView.el, crossPanel.el, positions.el);
  // What each view depends on besides the engine config: the same again is not redrawn (the
  // result of the same config has the same numbers), so an animation started by a stage change
  // survives the redraw that follows it.
  const base = (ctx) => `${configKey(ctx.config)}|${ctx.t('heads.split.title')}|${ctx.redacted}`;
  const add = (name, view, keyOf) =>
    deps.drawPass.add(
      name,
      view.el,
      (ctx) => view.update(ctx),
      (ctx) => (ctx.results.get('main') ? `${base(ctx)}|${keyOf(ctx.state)}` : null),
    );
  add('split', split, (s) => `${s.split}|${s.head}`);
  add('tokens', tokenView, (s) => s.head);
  add('cross', crossPanel, (s) => `${s.head}|${s.crossCausal}|${s.positional}`);
  deps.drawPass.add(
    'positions',
    positions.el,
    (ctx) => positions.update(ctx),
    (ctx) => `${base(ctx)}|${ctx.state.shuffle}|${ctx.results.has('shuffle.none.typed')}`,
  );

  // ---- the controls, written from the draft (what the reader typed, valid or not) -----------------
  function renderControls(draft, state) {
    const t = deps.t();
    tokenizeControl.write(draft.tokenization ?? 'whitespace');
    positional.write(draft.positional ?? 'none');
    cross.write(draft);
    // Heads that do not divide d_model leave the page on its last valid result: so do the choices.
    const typed = parseWholeNumber(String(draft.heads ?? ''));
    const dModel = parseWholeNumber(String(draft.dModel ?? ''));
    const divides = Number.isInteger(typed) && typed >= 1 && Number.isInteger(dModel) && dModel % typed === 0;
    kvControl.render(divides ? typed : (state?.heads ?? typed), draft.kvHeads ?? 0, t);
    const tokens = tokenize(draft.source ?? '', draft.tokenization);
    const invalid = draft.cross && (tokens.length === 0 || tokens.length > deps.maxTokens);
    cross.renderTokens(tokens, draft.sourcePadding, t, invalid);
    setHidden(jump.querySelector('[data-jump="cross-view"]'), !state?.cross);
  }

  return {
    /** The controls after any change (the panels are the draw pass's). */
    renderControls,
    /** A new state: a stage animation is stopped by a link or preset opened. */
    loaded: () => split.stop(),
  };
}
