// Attention as today's models run it: the ALiBi switch beside the mask options, and three panels
// after the lesson — FlashAttention tile by tile, the KV cache step by step, rotary positions.
// Like the head views (heads/index.js), they keep their fields (state/schema.js, after `split`)
// as a draft that joins the page's draft last, and are drawn by the same view scheduler. Every
// number comes from the engine: flashTrace(), decode(), compute().
import './modern.css';

import { h, placeChildren } from '../render/dom.js';
import { forwardFlops, TRACE_TILE_THRESHOLD, traceTiles, WORKER_THRESHOLD_ENTRIES, WORKER_THRESHOLD_FLOPS } from '../perf/work-estimate.js';
import { DEFAULTS } from '../state/schema.js';
import { toEngineConfig } from '../state/validate.js';
import { createViewScheduler } from '../heads/view-scheduler.js';
import { configKey } from '../views/config-key.js';
import { createFlashPanel } from './flash-panel.js';
import { createKvCachePanel } from './kv-cache-panel.js';
import { createRopePanel } from './rope-panel.js';

// The fields these views hold; all but alibi change only what is drawn.
export const MODERN_KEYS = Object.freeze(['alibi', 'flashRows', 'flashKeys', 'flashTile', 'kvStep', 'kvModel', 'ropeToken', 'ropePair']);
const RECOMPUTE = new Set(['alibi']);
// Engine runs each panel makes per change (the shift demonstration: RoPE and sinusoidal, each
// twice); past the page's own worker threshold for that much work, a panel waits for a click.
const RUNS = { flash: 1, kv: 1, rope: 4 };
// (The trace counts its tiles too: small tiles make many, whatever the FLOPs.)
const heavy = (name, result, state) =>
  RUNS[name] * forwardFlops(result.T, result.T, result.dModel) > WORKER_THRESHOLD_FLOPS ||
  result.T * result.T * result.heads > WORKER_THRESHOLD_ENTRIES ||
  (name === 'flash' && traceTiles(result.T, result.Tk ?? result.T, result.heads, state.flashRows, state.flashKeys) > TRACE_TILE_THRESHOLD);
const pick = (source) => Object.fromEntries(MODERN_KEYS.map((key) => [key, source[key] ?? DEFAULTS[key]]));

/**
 * deps: { nodes: { maskOptions (the form's mask fieldset), views (the panels' place) },
 *         form, getEngine(), t(), requestUpdate() }
 */
export function createModernViews(deps) {
  const { nodes } = deps;
  let draft = pick(DEFAULTS);
  let last = null; // { result, state }
  const drawn = new Map();
  const asked = new Set(); // `${panel}|${config}`: computed on a click though heavy
  const scheduler = createViewScheduler();

  // ---- the ALiBi switch, in the form (its input event recomputes, main.js) -------------------------
  const alibiBox = h('input', { id: 'alibi', type: 'checkbox' });
  const alibiLabel = h('label', { className: 'check', dataset: { field: 'alibi' } }, [alibiBox, ' ', h('span', { dataset: { i18n: 'modern.alibi.check' } })]);
  nodes.maskOptions.append(alibiLabel);
  alibiBox.addEventListener('input', () => {
    draft = { ...draft, alibi: alibiBox.checked };
  });

  // ---- panels ------------------------------------------------------------------------------------
  const callbacks = { change, t: deps.t };
  const panels = [
    ['flash', createFlashPanel(callbacks)],
    ['kv', createKvCachePanel(callbacks)],
    ['rope', createRopePanel({ ...callbacks, setPositional })],
  ];
  nodes.views.replaceChildren(...panels.map(([, panel]) => panel.el));
  for (const [, panel] of panels) {
    panel.el.classList.add('hv-undrawn');
    scheduler.track(panel.el);
  }

  function change(partial) {
    draft = { ...draft, ...partial };
    if (Object.keys(partial).some((key) => RECOMPUTE.has(key)) || !last) {
      deps.requestUpdate();
      return;
    }
    renderViews(last.result, { ...last.state, ...partial }, { now: true });
    // The page's update (which stores the state and writes the link) after the frame.
    scheduler.afterFrame('page update', () => deps.requestUpdate());
  }

  // The positional radios are the head views' (heads/index.js): set as a reader would.
  function setPositional(kind) {
    const radio = deps.form.querySelector(`input[name="positional"][value="${kind}"]`);
    if (!radio) return;
    radio.checked = true;
    radio.dispatchEvent(new Event('input', { bubbles: true }));
  }

  function renderViews(result, state, { now = false } = {}) {
    let config = null;
    try {
      config = toEngineConfig(state);
    } catch (error) {
      console.warn('no engine config for the modern views', error);
      return;
    }
    const ctx = { result, state, t: deps.t(), engine: deps.getEngine(), config, configKey: configKey(config) };
    // What a click on a heavy panel's button agrees to compute (the trace: with its tile size).
    const work = (name) => `${name}|${ctx.configKey}${name === 'flash' ? `|${state.flashRows}|${state.flashKeys}` : ''}`;
    const base = `${ctx.configKey}|${ctx.t('modern.flash.title')}|${state.head}`;
    const keys = {
      flash: `${base}|${state.flashRows}|${state.flashKeys}|${state.flashTile}`,
      kv: `${base}|${state.kvStep}|${state.kvModel}`,
      rope: `${base}|${state.ropeToken}|${state.ropePair}`,
    };
    for (const [name, panel] of panels) {
      if (drawn.get(name) === keys[name]) {
        scheduler.forget(name);
        continue;
      }
      scheduler.draw(name, panel.el, () => {
        drawn.set(name, keys[name]);
        panel.el.classList.remove('hv-undrawn');
        if (heavy(name, result, state) && !asked.has(work(name))) waitForClick(name, panel, ctx, work(name));
        else panel.update(ctx);
      }, now);
    }
  }

  // A heavy panel's title, why it waits, and the button that computes it for these settings.
  function waitForClick(name, panel, ctx, work) {
    const { t } = ctx;
    const button = h('button', { type: 'button', className: 'choice', dataset: { modernCompute: name }, text: t('modern.compute') });
    button.addEventListener('click', () => {
      asked.add(work);
      drawn.delete(name);
      if (last) renderViews(last.result, last.state, { now: true });
    });
    placeChildren(panel.el, [h('h2', { id: `${name}-title`, text: t(`modern.${name}.title`) }), h('p', { className: 'note', text: t('modern.large', { runs: RUNS[name] }) }), button]);
  }

  return {
    /** These fields as they stand (they join the page's draft, last). */
    draft: () => ({ ...draft }),
    /** Takes these fields of a loaded draft (a preset or an address). */
    load(next) {
      drawn.clear();
      draft = pick({ ...DEFAULTS, ...Object.fromEntries(MODERN_KEYS.filter((key) => next[key] !== undefined).map((key) => [key, next[key]])) });
      if (typeof draft.alibi === 'string') draft.alibi = draft.alibi === '1' || draft.alibi === 'true';
      alibiBox.checked = draft.alibi;
    },
    render(result, state) {
      last = { result, state };
      draft = pick(state);
      alibiBox.checked = draft.alibi;
      renderViews(result, state);
    },
  };
}
