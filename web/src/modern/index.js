// Attention as today's models run it: the ALiBi switch beside the mask options, and three panels
// after the lesson — FlashAttention tile by tile, the KV cache step by step, rotary positions.
// Their fields (state/schema.js) are the page's store's; the panels are views of (state, results)
// that the page's draw pass draws, and their runs — the trace, the decode, RoPE's shifted runs —
// are the page's plan's (compute/plan.js). A panel too heavy to compute on every change waits for
// a click, and one that would show what an open exercise asks waits for its answers.
import './modern.css';

import { h, placeChildren } from '../render/dom.js';
import { configKey } from '../views/config-key.js';
import { createFlashPanel } from './flash-panel.js';
import { createKvCachePanel } from './kv-cache-panel.js';
import { createRopePanel } from './rope-panel.js';

/**
 * deps: { nodes: { maskOptions (the form's mask fieldset), views (the panels' place) }, store,
 *         drawPass, t(), ask(panel) (a reader asks for a heavy panel: the plan computes it),
 *         setDModel(n) (d_model changed as the form changes it, X's edited rows refitted) }
 */
export function createModernViews(deps) {
  const { nodes, store } = deps;
  const dispatch = (partial, from) => store.dispatch(partial, { from });

  // ---- the ALiBi switch, in the form --------------------------------------------------------------
  const alibiBox = h('input', { id: 'alibi', type: 'checkbox' });
  const alibiLabel = h('label', { className: 'check', dataset: { field: 'alibi' } }, [
    alibiBox,
    ' ',
    h('span', { dataset: { i18n: 'modern.alibi.check' } }),
  ]);
  nodes.maskOptions.append(alibiLabel);
  alibiBox.addEventListener('input', () => dispatch({ alibi: alibiBox.checked }, 'form'));

  // ---- panels ------------------------------------------------------------------------------------
  const callbacks = (name) => ({ change: (partial) => dispatch(partial, name), t: deps.t });
  const panels = [
    ['flash', createFlashPanel(callbacks('flash'))],
    ['kv', createKvCachePanel(callbacks('kv'))],
    [
      'rope',
      createRopePanel({
        ...callbacks('rope'),
        setPositional: (kind) => dispatch({ positional: kind }, 'rope'),
        setDModel: (n) => deps.setDModel(n, 'rope'),
      }),
    ],
  ];
  nodes.views.replaceChildren(...panels.map(([, panel]) => panel.el));
  const looks = {
    flash: (s) => `${s.flashRows}|${s.flashKeys}|${s.flashTile}`,
    kv: (s) => `${s.kvStep}|${s.kvModel}`,
    rope: (s) => `${s.ropeToken}|${s.ropePair}`,
  };
  for (const [name, panel] of panels) {
    deps.drawPass.add(
      name,
      panel.el,
      (ctx) => {
        const waits = ctx.results.waiting[name];
        if (waits) waitFor(name, waits, ctx);
        else panel.update(ctx);
      },
      (ctx) =>
        `${configKey(ctx.config)}|${ctx.t('modern.flash.title')}|${ctx.state.head}|${looks[name](ctx.state)}|${ctx.results.waiting[name] ?? ''}|${ctx.redacted}`,
    );
  }

  // A waiting panel's title, why it waits, and (a heavy one) the button that computes it.
  function waitFor(name, reason, { t }) {
    const parts = [h('h2', { id: `${name}-title`, text: t(`modern.${name}.title`) })];
    if (reason === 'exercise') parts.push(h('p', { className: 'note', text: t('exercise.panelWaits') }));
    else {
      const button = h('button', { type: 'button', className: 'choice', dataset: { modernCompute: name }, text: t('modern.compute') });
      button.addEventListener('click', () => deps.ask(name));
      parts.push(h('p', { className: 'note', text: t('modern.large', { runs: name === 'rope' ? 4 : 1 }) }), button);
    }
    placeChildren(panels.find(([n]) => n === name)[1].el, parts);
  }

  return {
    /** The switch after any change. */
    renderControls(draft) {
      alibiBox.checked = Boolean(draft.alibi);
    },
    /** Before the panels are drawn: while an exercise asks, they wait out of sight. */
    present(ctx) {
      nodes.views.hidden = ctx.redacted !== '';
    },
  };
}
