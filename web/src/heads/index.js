// The head views on the page: the controls they add to the form (tokenization, key/value heads,
// positional encoding, cross-attention) and the panels under the lesson (head split, token to
// token, cross-attention, positions and the shuffle experiment). main.js creates them once and
// hands them every new result; like the lesson, they keep their fields (state/schema.js) as a
// draft that joins the page's draft, so they are validated and stored with the rest.
//
// The selected head is the lesson's `head` field: a pick here is handed over once, in the next
// draft (main.js merges this draft after the lesson's), and comes back in the state.
import './heads.css';

import { createCrossControls } from '../cross/cross-controls.js';
import { createCrossPanel } from '../cross/cross-panel.js';
import { createPositionalControl } from '../positions/positional-control.js';
import { createPositionsPanel } from '../positions/positions-panel.js';
import { parseWholeNumber, tokenize } from '../state/parse.js';
import { toEngineConfig } from '../state/validate.js';
import { configKey } from '../views/config-key.js';
import { h, setHidden } from '../render/dom.js';
import { scrollToPanel } from '../views/scroll-to-panel.js';
import { createTokenizeControl, tokenCountKey } from '../tokens/tokenize-control.js';
import { createTokenView } from '../tokens/token-view.js';
import { structureDraftOf } from '../state/draft.js';
import { STRUCTURE_DEFAULTS, STRUCTURE_FIELDS } from '../state/schema.js';
import { createKvControl } from './kv-control.js';
import { createSplitView } from './split-view.js';
import { createViewScheduler } from './view-scheduler.js';

// Fields that change only what is drawn, not what is computed: a change draws at once and the
// page's update (which stores the state and redraws the lesson) follows a moment later.
const VIEW_ONLY = ['split', 'shuffle'];

/**
 * deps: {
 *   nodes: { tokenize, structure, views }  page elements: under the sentence, a form row, and
 *                                          the place for the panels,
 *   form, getEngine(), t(), requestUpdate() → true when a new result is on screen,
 * }
 */
export function createHeadViews(deps) {
  const { nodes, form } = deps;
  let draft = { ...STRUCTURE_DEFAULTS };
  let pendingHead = null;
  let last = null; // { result, state }
  const drawn = new Map(); // view name → what it last drew (skip the same again)
  const scheduler = createViewScheduler(); // on screen: just after the frame; else in idle time, one per task

  // ---- controls in the form ----------------------------------------------------------------------
  const tokenizeControl = createTokenizeControl();
  const kvControl = createKvControl({ change });
  const positional = createPositionalControl();
  const cross = createCrossControls({ change });
  nodes.tokenize.replaceChildren(tokenizeControl.el);
  // Links down to the panels, which sit under the (long) lesson.
  const jump = h('nav', { className: 'hv-jump', 'aria-labelledby': 'hv-jump-label' }, [
    h('span', { id: 'hv-jump-label', dataset: { i18n: 'heads.jump.label' } }),
    ...[['head-split', 'heads.jump.split'], ['token-view', 'heads.jump.tokens'], ['cross-view', 'heads.jump.cross'], ['positions-view', 'heads.jump.positions'],
      ['flash-view', 'modern.jump.flash'], ['kv-view', 'modern.jump.kv'], ['rope-view', 'modern.jump.rope']].map(
      ([id, key]) => h('a', { href: `#${id}`, dataset: { i18n: key, jump: id } }),
    ),
  ]);
  // In-page links must not replace the address (it holds the state): scroll instead, and hold
  // the panel in place while the panels around it take their real sizes (scroll-to-panel.js).
  jump.addEventListener('click', (event) => {
    const link = event.target.closest('a[data-jump]');
    if (!link) return;
    event.preventDefault();
    const panel = document.getElementById(link.dataset.jump);
    if (panel) scrollToPanel(panel);
  });
  nodes.structure.replaceChildren(kvControl.el, positional.el, cross.el, jump);

  // The form's own input listener (main.js) recomputes; these run first (they are deeper).
  for (const node of [tokenizeControl.el, positional.el, cross.el]) {
    node.addEventListener('input', () => {
      draft = { ...draft, tokenization: tokenizeControl.read(), positional: positional.read(), ...cross.read() };
    });
  }
  form.addEventListener('input', () => renderControls());

  // ---- panels ----------------------------------------------------------------------------------
  const split = createSplitView({
    setStage: (split_) => change({ split: split_ }),
    setHeads,
    setKv: (kv) => change({ kvHeads: last && kv === last.result.heads ? 0 : kv }),
    select,
    t: deps.t,
  });
  const tokenView = createTokenView({ select });
  const crossPanel = createCrossPanel();
  const positions = createPositionsPanel({ shuffle: (seed) => change({ shuffle: seed }) });
  nodes.views.replaceChildren(split.el, tokenView.el, crossPanel.el, positions.el);
  // Not displayed until first drawn (heads.css, .hv-undrawn): shown empty at load, when the page
  // is short and they are on screen, they kept that size (34 px) as their placeholder while off
  // screen, whatever they held later.
  for (const view of [split, tokenView, crossPanel, positions]) {
    view.el.classList.add('hv-undrawn');
    scheduler.track(view.el);
  }

  // ---- changes -------------------------------------------------------------------------------------

  function change(partial) {
    draft = { ...draft, ...partial };
    renderControls();
    if (last && Object.keys(partial).every((key) => VIEW_ONLY.includes(key))) {
      // Draw now (a stage change animates at once, even when the lesson takes long to redraw).
      renderViews(last.result, { ...last.state, ...partial }, { now: true });
      updateSoon();
      return;
    }
    deps.requestUpdate();
  }

  function select(k) {
    pendingHead = k + 1;
    if (last) renderViews(last.result, { ...last.state, head: k + 1 }, { now: true });
    updateSoon();
  }

  // The page's update after the current event; on invalid input elsewhere it keeps the last
  // result, and what was drawn here stays.
  function updateSoon() {
    // After the next frame: what was just drawn shows before the page's update.
    scheduler.afterFrame('page update', () => deps.requestUpdate());
  }

  // The heads control is the page's (#heads); the split's buttons type into it.
  function setHeads(heads) {
    const input = form.querySelector('#heads');
    if (!input) return;
    input.value = String(heads);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }

  // ---- rendering -----------------------------------------------------------------------------------

  function writeControls() {
    tokenizeControl.write(draft.tokenization);
    positional.write(draft.positional);
    cross.write(draft);
    renderControls();
  }

  // What follows the typed values at once, valid or not: the key/value choices and the source's
  // tokens with their padding marks.
  function renderControls() {
    const t = deps.t();
    // Heads that do not divide d_model leave the page on its last valid result: so do the choices.
    const typed = parseWholeNumber(form.querySelector('#heads')?.value ?? '');
    const dModel = parseWholeNumber(form.querySelector('#d-model')?.value ?? '');
    const divides = Number.isInteger(typed) && typed >= 1 && Number.isInteger(dModel) && dModel % typed === 0;
    kvControl.render(divides ? typed : (last?.state.heads ?? typed), draft.kvHeads, t);
    const tokens = tokenize(draft.source ?? '', draft.tokenization);
    const maxTokens = deps.getEngine()?.info.limits.maxTokens ?? Infinity;
    const invalid = draft.cross && (tokens.length === 0 || tokens.length > maxTokens);
    cross.renderTokens(tokens, draft.sourcePadding, t, invalid);
  }

  // now: draw every view in this task (a change made in a view itself: it is on screen).
  function renderViews(result, state, { now = false } = {}) {
    const engine = deps.getEngine();
    let config = null;
    try {
      config = toEngineConfig(state);
    } catch (error) {
      console.warn('no engine config for the head views', error);
    }
    const ctx = { result, state, t: deps.t(), engine, config };
    setHidden(jump.querySelector('[data-jump="cross-view"]'), !result.source);
    // What each view depends on besides the engine config: the same again is not redrawn (the
    // result of the same config has the same numbers), so an animation started by a stage
    // change survives the page's update that follows it.
    const base = `${configKey(config)}|${ctx.t('heads.split.title')}`;
    const keys = {
      split: `${base}|${state.split}|${state.head}`,
      tokens: `${base}|${state.head}`,
      cross: `${base}|${state.head}|${state.crossCausal}|${state.positional}`,
      positions: `${base}|${state.shuffle}`,
    };
    for (const [name, view] of [['split', split], ['tokens', tokenView], ['cross', crossPanel], ['positions', positions]]) {
      if (config && drawn.get(name) === keys[name]) {
        scheduler.forget(name); // back to what is on screen: an older pending draw is stale
        continue;
      }
      scheduler.draw(name, view.el, () => {
        drawn.set(name, keys[name]);
        view.el.classList.remove('hv-undrawn'); // (shown even if drawing fails)
        view.update(ctx);
      }, now);
    }
  }

  function render(result, state) {
    last = { result, state };
    pendingHead = null;
    draft = { ...draft, ...structureDraftOf(state) };
    writeControls();
    renderViews(result, state);
  }

  writeControls();

  return {
    /** These fields as they stand (they join the page's draft, after the lesson's). */
    draft: () => ({ ...draft, ...(pendingHead ? { head: pendingHead } : {}) }),
    /** Takes these fields of a loaded draft (a preset or an address). */
    load(next) {
      split.stop();
      drawn.clear();
      pendingHead = null;
      draft = { ...STRUCTURE_DEFAULTS };
      for (const field of STRUCTURE_FIELDS) {
        const value = next[field.key];
        if (value === undefined) continue;
        draft[field.key] = field.kind === 'bool' && typeof value === 'string' ? value === '1' || value === 'true' : value;
      }
      writeControls();
    },
    render,
    /** The tokens of a sentence under the chosen tokenization. */
    tokenize: (sentence) => tokenize(sentence, draft.tokenization),
    /** The i18n key of the token count next to the sentence. */
    tokenCountKey: () => tokenCountKey(draft.tokenization),
  };
}
