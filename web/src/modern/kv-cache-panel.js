// The KV cache, token by token: the engine's incremental decode (engine.decode) of the page's
// tokens. At step t the cache holds K and V of tokens 1…t, the new token's row of weights is
// computed against it, and the engine says how far that row is from the full causal pass. A
// counter of multiply-adds with and without the cache, and the cache's bytes per token and layer
// for the page's heads and for published models (engine/memory-figures.js, with their source),
// and a model's whole cache at its own context length, never past it.
import { kvCacheAtContext, kvCacheBytesPerToken, MODEL_SHAPES } from '../engine/memory-figures.js';
import { h, placeChildren } from '../render/dom.js';
import { MODEL_IDS } from '../state/schema.js';
import { bytesText, finiteFill, gridView, smallText, weightsFill } from './figure.js';
import { createStepButtons } from './step-buttons.js';

const MODEL_BYTES = 2; // published models keep their caches in 16-bit floats
const integer = (n, lang) => Math.round(n).toLocaleString(lang);

// The rows 0…t of a T × cols matrix, and the columns c0…c1−1 of them.
function block(matrix, rows, c0, c1) {
  const cols = c1 - c0;
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r += 1) data.set(matrix.data.subarray(r * matrix.cols + c0, r * matrix.cols + c1), r * cols);
  return { rows, cols, data };
}

const kindKey = (heads, kvHeads) => (kvHeads === heads ? 'multi-head' : kvHeads === 1 ? 'multi-query' : 'grouped-query');

/** callbacks: { change(partial), t } */
export function createKvCachePanel(callbacks) {
  const el = h('section', { className: 'panel hv-panel md kv', id: 'kv-view', dataset: { field: 'kvView' }, 'aria-labelledby': 'kv-title' });
  const views = new Map();
  const steps = createStepButtons('kv', (n) => callbacks.change({ kvStep: n }));
  const modelPicker = h('select', { id: 'kv-model' });
  modelPicker.addEventListener('change', () => callbacks.change({ kvModel: modelPicker.value }));
  // A decoder's cache is causal: the plan runs the page's config with mask "causal" and none of
  // the other mask options (compute/plan.js: run 'decode').
  const maskChanged = (config) =>
    ['window', 'prefix', 'customMask', 'padding', 'maskFill', 'maskBeforeScale'].some((key) => key in config) || config.mask !== 'causal';

  const decodeOf = ({ results }) => ({ run: results.get('decode'), error: results.error('decode')?.message ?? null });

  // A source as "address (fields)": the address linked, the fields after it.
  function sourceLine(label, source) {
    const [url, fields] = source.split(' (');
    return h('p', { className: 'caption' }, [label, ' ', h('a', { href: url, rel: 'noopener', text: url }), fields ? ` (${fields}` : '']);
  }

  function sizesPart(run, state, t) {
    const lang = t('modern.lang');
    const own = kindKey(run.heads, run.kvHeads);
    const index = Math.max(0, MODEL_IDS.indexOf(state.kvModel));
    const model = MODEL_SHAPES[index];
    if (modelPicker.options.length !== MODEL_SHAPES.length) {
      modelPicker.replaceChildren(...MODEL_SHAPES.map((shape, n) => h('option', { value: MODEL_IDS[n], text: shape.name })));
    }
    modelPicker.value = MODEL_IDS[index];
    const perToken = kvCacheBytesPerToken({ kvHeads: model.kvHeads, dK: model.dK, bytesPerValue: MODEL_BYTES });
    const asMultiHead = kvCacheBytesPerToken({ kvHeads: model.heads, dK: model.dK, bytesPerValue: MODEL_BYTES });
    const full = kvCacheAtContext(model, MODEL_BYTES);
    return h('div', { className: 'md-memory' }, [
      h('h3', { text: t('modern.kv.sizeTitle') }),
      h('p', {
        dataset: { kvBytes: String(run.cacheBytesPerToken) },
        text: t('modern.kv.sizeOwn', {
          bytes: bytesText(run.cacheBytesPerToken),
          heads: run.heads,
          kv: run.kvHeads,
          dK: run.dK,
          kind: t(`modern.kv.kind.${own}`),
        }),
      }),
      h('div', { className: 'md-controls' }, [h('label', { for: 'kv-model', text: t('modern.kv.model') }), modelPicker]),
      h('p', {
        dataset: { kvModelBytes: String(perToken) },
        text: t('modern.kv.sizeModel', {
          name: model.name,
          kind: t(`modern.kv.kind.${model.kind}`),
          heads: model.heads,
          kv: model.kvHeads,
          dK: model.dK,
          layers: model.layers,
          bytes: bytesText(perToken),
          all: bytesText(perToken * model.layers),
          mha: bytesText(asMultiHead * model.layers),
        }),
      }),
      // The whole cache stops at the model's context: a model takes no more tokens than that.
      h('p', {
        dataset: { kvContext: String(model.context), kvContextTokens: String(full.tokens), kvContextBytes: String(full.bytes) },
        text: t(model.window ? 'modern.kv.contextWindow' : 'modern.kv.context', {
          name: model.name,
          context: integer(model.context, lang),
          window: integer(full.tokens, lang),
          long: bytesText(full.bytes),
        }),
      }),
      sourceLine(t('modern.kv.source'), model.source),
      model.contextSource ? sourceLine(t('modern.kv.contextSource'), model.contextSource) : null,
    ]);
  }

  function update(ctx) {
    const { t, state, result, config, limits } = ctx;
    const lang = t('modern.lang');
    const parts = [h('h2', { id: 'kv-title', text: t('modern.kv.title') }), h('p', { className: 'caption', text: t('modern.kv.caption') })];
    const maxT = limits.maxTokensDecode;
    if (result.T > maxT) {
      parts.push(h('p', { className: 'note md-limit', text: t('modern.kv.tooLong', { T: result.T, max: maxT }) }));
      return placeChildren(el, parts);
    }
    const { run, error } = decodeOf(ctx);
    if (!run) {
      parts.push(h('p', { className: 'note', text: t('modern.engineSays', { message: error }) }));
      return placeChildren(el, parts);
    }
    if (maskChanged(config)) parts.push(h('p', { className: 'note', text: t('modern.kv.causalOnly') }));
    const step = Math.min(state.kvStep, run.T) - 1;
    const head = Math.min(state.head, run.heads) - 1;
    const kvHead = Math.floor(head / (run.heads / run.kvHeads));
    const seen = step + 1;
    const tokens = run.tokens.slice(0, seen);
    steps.render(seen, run.T, t('modern.kv.steps'), t('modern.kv.where', { t: seen, T: run.T, token: run.tokens[step] }), t);

    const k = block(run.kCache, seen, kvHead * run.dK, (kvHead + 1) * run.dK);
    const v = block(run.vCache, seen, kvHead * run.dK, (kvHead + 1) * run.dK);
    const kView = gridView(views, { name: 'kv-k', caption: t('modern.kv.kCache', { g: kvHead + 1 }), rowLabels: tokens, t }, k);
    kView.update(k, { fill: finiteFill(k) });
    const vView = gridView(views, { name: 'kv-v', caption: t('modern.kv.vCache', { g: kvHead + 1 }), rowLabels: tokens, t }, v);
    vView.update(v, { fill: finiteFill(v) });
    kView.highlight({ self: null, cells: [], rows: [step], cols: [] });
    vView.highlight({ self: null, cells: [], rows: [step], cols: [] });
    const weights = run.perHead[head].weights;
    const row = { rows: 1, cols: seen, data: weights.data.slice(step * weights.cols, step * weights.cols + seen) };
    const rowView = gridView(
      views,
      { name: 'kv-row', caption: t('modern.kv.row', { t: seen, h: head + 1 }), rowLabels: [run.tokens[step]], colLabels: tokens, t },
      row,
    );
    rowView.update(row, { fill: weightsFill({ rows: 1, cols: seen, data: new Uint8Array(seen) }) });

    let cached = 0;
    let uncached = 0;
    for (let n = 0; n <= step; n += 1) {
      cached += run.multiplyAdds.cached[n];
      uncached += run.multiplyAdds.uncached[n];
    }
    parts.push(
      steps.el,
      h('div', { className: 'md-layout' }, [
        h('div', { className: 'md-main' }, [
          h('div', { className: 'md-matrices' }, [kView.el, vView.el]),
          rowView.el,
          h('p', {
            className: run.difference[step] <= 1e-5 ? 'md-verdict same' : 'md-verdict changed',
            dataset: { kvDifference: String(run.difference[step]) },
            text: t('modern.kv.difference', { t: seen, max: smallText(run.difference[step]) }),
          }),
          h('p', {
            className: 'md-count',
            dataset: { kvCached: String(cached), kvUncached: String(uncached) },
            text: t('modern.kv.count', {
              t: seen,
              cached: integer(cached, lang),
              uncached: integer(uncached, lang),
              stepCached: integer(run.multiplyAdds.cached[step], lang),
              stepUncached: integer(run.multiplyAdds.uncached[step], lang),
            }),
          }),
        ]),
        sizesPart(run, state, t),
      ]),
    );
    placeChildren(el, parts);
  }

  return { el, update };
}
