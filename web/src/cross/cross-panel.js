// Cross-attention explained with the result's own shapes: queries from the target sentence,
// keys and values from the source, so each attention map is target × source. Shows both inputs
// and the selected head's map with its tokens on both axes. Every number comes from the result.
import { h, placeChildren } from '../render/dom.js';
import { renderGrid, weightLegend } from '../heads/grid.js';
import { createPartKeeper } from '../heads/part-keeper.js';
import { headColor, signedFill, stops, weightFill } from '../render/colors.js';
import { superscript } from '../i18n/index.js';
import { weightMapPresentation } from '../render/policy.js';

export function createCrossPanel() {
  const el = h('section', { className: 'panel hv-panel xa', id: 'cross-view', hidden: true, dataset: { field: 'crossView' } });
  // Its tables are refilled in place, and a part that comes out as the one on screen stays there
  // (heads/part-keeper.js): rebuilt at every change, the whole panel was laid out and painted anew.
  const grids = new Map();
  const keeper = createPartKeeper(el);
  const grid = (spec) => keeper.stand(renderGrid(spec, grids));

  function update({ result, state, t }) {
    if (!result.source) {
      el.hidden = true;
      el.replaceChildren();
      return;
    }
    el.hidden = false;
    const { T, Tk, dModel, dK, heads, kvHeads, tokens } = result;
    const sourceTokens = result.source.tokens;
    const selected = Math.min(Math.max(1, state.head ?? 1), heads) - 1;
    const padded = sourceTokens.filter((_, j) => state.sourcePadding?.[j]);
    const lines = [
      t('heads.cross.fromQ', { T, dModel }),
      t('heads.cross.fromKV', { S: Tk, cols: kvHeads * dK }),
      t('heads.cross.shape', { T, S: Tk, heads }),
      padded.length ? t('heads.cross.padded', { list: padded.join(' · ') }) : t('heads.cross.noPadding'),
      t(state.crossCausal ? 'heads.cross.causalOn' : 'heads.cross.causalOff'),
    ];
    if (state.positional === 'sinusoidal') lines.push(t('heads.cross.positions'));
    const masked = result.mask;
    const weights = result.perHead[selected].weights;
    const color = headColor(selected, heads);
    const mapLook = weightMapPresentation({ keys: Tk });
    const parts = [
      h('h2', { text: t('heads.cross.title') }),
      h('p', { className: 'caption', text: t('heads.cross.caption') }),
      h(
        'ul',
        { className: 'xa-lines' },
        lines.map((text) => h('li', { text })),
      ),
      h('div', { className: 'xa-matrices' }, [
        grid({ matrix: result.x, name: 'cross-target', rowLabels: tokens, fill: signedFill(result.x), caption: t('heads.cross.xTarget'), t }),
        grid({
          matrix: result.source.x,
          name: 'cross-source',
          rowLabels: sourceTokens,
          fill: signedFill(result.source.x),
          caption: t('heads.cross.xSource'),
          t,
        }),
        h('div', { className: 'xa-map', style: { borderColor: color } }, [
          grid({
            matrix: weights,
            name: 'cross-weights',
            head: selected,
            rowLabels: tokens,
            colLabels: sourceTokens,
            fill: weightFill(masked),
            mask: masked,
            numbers: mapLook.numbersInCells,
            maxRows: mapLook.maxRows,
            maxCols: mapLook.maxCols,
            caption: t('heads.cross.map', { sup: superscript(selected + 1) }),
            t,
          }),
          weightLegend(stops('viridis'), t),
        ]),
      ]),
    ];
    const onScreen = [...el.children];
    const shown = parts.map((made, k) => keeper.settle(onScreen[k] ?? null, made));
    keeper.clear();
    placeChildren(el, shown);
  }

  return { el, update };
}
