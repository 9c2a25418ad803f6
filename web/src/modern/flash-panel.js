// FlashAttention, tile by tile: the engine's trace of the tiled forward-only path
// (engine.flashTrace) for the page's tokens and the selected head. The T × Tk logits (the source's
// tokens on the key axis in cross-attention) with the tile shown outlined, tiles already visited
// in colour, skipped ones (a −∞ mask hides all of them) hatched and listed by why; the tile's
// logits, the running max m and sum ℓ per row with the rescale factor e^(m_old − m_new), and the
// partial output. At the last tile: the output against the page's. Beside it, what each way keeps
// in memory (engine/memory-figures.js).
import { attentionMemory, LONG_SEQUENCE as LONG_T } from '../engine/memory-figures.js';
import { h, placeChildren } from '../render/dom.js';
import { HEAD_MASKED_CELL } from '../render/colors.js';
import { bytesText, finiteFill, gridView, plainFill, scrollBox, smallText } from './figure.js';
import { skipCounts, skipReason } from './flash-skips.js';
import { createStepButtons } from './step-buttons.js';

const TILE_SIDES = [1, 2, 3, 4, 5, 6, 8, 12, 16, 32, 64];
const FUTURE_CELL = { background: 'var(--panel)', color: 'var(--faint)' }; // (a tile still to come: blank)
const SKIPPED_CELL = { background: 'var(--hatch-grey)', color: 'var(--masked-ink)' };
// The keys' tokens: the source's in cross-attention, else the sentence's own.
const keyTokens = (result) => result.source?.tokens ?? result.tokens;

/** callbacks: { change(partial), t } */
export function createFlashPanel(callbacks) {
  const el = h('section', { className: 'panel hv-panel md fa', id: 'flash-view', dataset: { field: 'flashView' }, 'aria-labelledby': 'flash-title' });
  const views = new Map();
  const steps = createStepButtons('flash', (n) => callbacks.change({ flashTile: n }));

  const sidePicker = (key, id) => {
    const select = h('select', { id, dataset: { flashSide: key } });
    select.addEventListener('change', () => callbacks.change({ [key]: Number(select.value), flashTile: 1 }));
    return select;
  };
  const rowsPicker = sidePicker('flashRows', 'flash-br');
  const keysPicker = sidePicker('flashKeys', 'flash-bc');
  const fillSides = (select, value) => {
    const sides = TILE_SIDES.includes(value) ? TILE_SIDES : [...TILE_SIDES, value].sort((a, b) => a - b);
    select.replaceChildren(...sides.map((n) => h('option', { value: String(n), text: String(n) })));
    select.value = String(value);
  };

  // The trace is the page's plan's (compute/plan.js: run 'flash').
  const traceOf = ({ results }) => ({ trace: results.get('flash'), error: results.error('flash')?.message ?? null });

  const memoryAt = ({ T, Tk }, t) => (Tk === T ? t('modern.flash.memoryAt', { T }) : t('modern.flash.memoryAtCross', { T, Tk }));

  function memoryPart(memory, t) {
    const row = (key, field) =>
      h('tr', { dataset: { memory: field } }, [
        h('th', { scope: 'row', text: t(key) }),
        h('td', { text: bytesText(memory.current[field]) }),
        h('td', { text: bytesText(memory.long[field]) }),
      ]);
    return h('div', { className: 'md-memory' }, [
      h('h3', { text: t('modern.flash.memoryTitle') }),
      scrollBox(t('modern.flash.memoryTitle'), [
        h('table', { className: 'md-table' }, [
          h('thead', {}, [
            h('tr', {}, [
              h('th', { scope: 'col', text: t('modern.flash.memoryWhat') }),
              h('th', { scope: 'col', text: memoryAt(memory.current, t) }),
              h('th', { scope: 'col', text: t('modern.flash.memoryAt', { T: memory.long.T }) }),
            ]),
          ]),
          h('tbody', {}, [
            row(memory.current.Tk === memory.current.T ? 'modern.flash.memoryScores' : 'modern.flash.memoryScoresCross', 'scoresBytes'),
            row('modern.flash.memoryTiled', 'tiledBytes'),
            row('modern.flash.memoryQkvo', 'qkvoBytes'),
          ]),
        ]),
      ]),
      h('p', { className: 'caption', text: t('modern.flash.memoryNote') }),
    ]);
  }

  // The T × Tk logits as far as the trace shows them: visited tiles coloured, the current one
  // outlined, tiles not reached yet white, skipped ones hatched (each cell's title says why).
  function scoresView(trace, head, at, ctx) {
    const { t, result, config } = ctx;
    const { T, Tk } = trace;
    const tiles = trace.perHead[head].tiles;
    const data = new Float32Array(T * Tk).fill(-Infinity);
    const order = new Int32Array(T * Tk).fill(-1); // which tile each entry belongs to
    tiles.forEach((tile, n) => {
      for (let r = 0; r < tile.rows; r += 1) {
        for (let c = 0; c < tile.keys; c += 1) {
          const k = (tile.row0 + r) * Tk + tile.key0 + c;
          order[k] = n;
          if (!tile.skipped) data[k] = tile.logits.data[r * tile.keys + c];
        }
      }
    });
    const skippedLook = new Map(); // tile → its cells' look
    const lookOf = (tile) => {
      if (!skippedLook.has(tile))
        skippedLook.set(tile, { ...SKIPPED_CELL, title: t('modern.flash.skippedCell', { why: t(`modern.flash.why.${skipReason(config, tile)}`) }) });
      return skippedLook.get(tile);
    };
    const matrix = { rows: T, cols: Tk, data };
    const colour = finiteFill(matrix);
    const cross = Boolean(result.source);
    const view = gridView(
      views,
      {
        name: 'flash-logits',
        caption: t(cross ? 'modern.flash.logitsCross' : 'modern.flash.logits', { h: head + 1 }),
        rowLabels: result.tokens,
        colLabels: keyTokens(result),
        t,
      },
      matrix,
    );
    view.update(matrix, {
      fill: (r, c, value) => {
        const n = order[r * Tk + c];
        if (tiles[n]?.skipped) return lookOf(tiles[n]);
        if (n > at) return FUTURE_CELL;
        return colour(r, c, value);
      },
    });
    view.el.setAttribute('aria-describedby', 'flash-key flash-skips');
    const tile = tiles[at];
    const cells = [];
    for (let r = 0; r < tile.rows; r += 1) for (let c = 0; c < tile.keys; c += 1) cells.push([tile.row0 + r, tile.key0 + c]);
    view.highlight({ self: null, cells, rows: [], cols: [] });
    return view.el;
  }

  // The legend of the hatch: how many tiles of the head each part of the mask hides entirely.
  function skipsPart(trace, head, ctx) {
    const { t, config } = ctx;
    const counts = skipCounts(config, trace.perHead[head].tiles);
    const items = counts.map(([reason, n]) =>
      h('li', { dataset: { flashSkipReason: reason } }, [
        h('span', { className: 'md-swatch hatch', 'aria-hidden': 'true' }),
        t('modern.flash.skippedBy', { n, why: t(`modern.flash.why.${reason}`) }),
      ]),
    );
    return h('ul', { className: 'md-skips caption', id: 'flash-skips', hidden: items.length === 0 }, items);
  }

  // The running max before this tile, for the tile's rows: the last visited tile of the same rows.
  function maxBefore(tiles, at) {
    const tile = tiles[at];
    for (let n = at - 1; n >= 0; n -= 1) {
      const before = tiles[n];
      if (before.row0 === tile.row0 && !before.skipped) return before.max;
    }
    return new Float32Array(tile.rows).fill(-Infinity);
  }

  function tilePart(trace, head, at, ctx) {
    const { t, result, config } = ctx;
    const tiles = trace.perHead[head].tiles;
    const tile = tiles[at];
    const rowLabels = result.tokens.slice(tile.row0, tile.row0 + tile.rows);
    const parts = [
      h('h3', {
        text: t('modern.flash.tileTitle', {
          n: at + 1,
          rows: `${tile.row0 + 1}–${tile.row0 + tile.rows}`,
          keys: `${tile.key0 + 1}–${tile.key0 + tile.keys}`,
        }),
      }),
    ];
    if (tile.skipped) {
      const reason = skipReason(config, tile);
      parts.push(
        h('p', {
          className: 'md-skipped',
          dataset: { flashSkipped: reason },
          text: t('modern.flash.skipped', { why: t(`modern.flash.why.${reason}`) }),
        }),
      );
      return parts;
    }
    const old = maxBefore(tiles, at);
    // Per row: m before, m after, ℓ after, and the rescale e^(m_old − m_new), as the engine recorded.
    const stats = new Float32Array(tile.rows * 4);
    for (let r = 0; r < tile.rows; r += 1) stats.set([old[r], tile.max[r], tile.rescale[r], tile.sum[r]], r * 4);
    const statsMatrix = { rows: tile.rows, cols: 4, data: stats };
    const statsView = gridView(
      views,
      {
        name: 'flash-stats',
        caption: t('modern.flash.stats'),
        rowLabels,
        colLabels: [t('modern.flash.mOld'), t('modern.flash.mNew'), t('modern.flash.rescale'), t('modern.flash.sum')],
        t,
        numbers: true,
      },
      statsMatrix,
    );
    statsView.update(statsMatrix, { fill: (r, c, value) => (value === -Infinity ? HEAD_MASKED_CELL : plainFill()) });
    const logits = tile.logits;
    const logitsView = gridView(
      views,
      {
        name: 'flash-tile',
        caption: t('modern.flash.tileLogits'),
        rowLabels,
        colLabels: keyTokens(result).slice(tile.key0, tile.key0 + tile.keys),
        t,
        numbers: true,
      },
      logits,
    );
    logitsView.update(logits, { fill: finiteFill(logits) });
    const partialView = gridView(views, { name: 'flash-partial', caption: t('modern.flash.partial'), rowLabels, t, numbers: true }, tile.partial);
    partialView.update(tile.partial, { fill: finiteFill(tile.partial) });
    parts.push(
      h('div', { className: 'md-matrices' }, [logitsView.el, statsView.el, partialView.el]),
      h('p', { className: 'caption', text: t('modern.flash.rescaleNote') }),
    );
    return parts;
  }

  // The output of the tiles against the page's result (both from the engine).
  function finalPart(trace, ctx) {
    const { t, result } = ctx;
    let worst = 0;
    for (let n = 0; n < trace.output.data.length; n += 1) worst = Math.max(worst, Math.abs(trace.output.data[n] - result.output.data[n]));
    return h('p', {
      className: worst <= 1e-5 ? 'md-verdict same' : 'md-verdict changed',
      dataset: { flashFinal: String(worst) },
      text: t(worst <= 1e-5 ? 'modern.flash.final' : 'modern.flash.finalDiffers', { max: smallText(worst) }),
    });
  }

  function update(ctx) {
    const { t, state, result, config, limits } = ctx;
    const parts = [h('h2', { id: 'flash-title', text: t('modern.flash.title') }), h('p', { className: 'caption', text: t('modern.flash.caption') })];
    const maxT = limits.maxTokensTrace;
    const shape = { dModel: config.dModel, heads: config.heads, blockRows: state.flashRows, blockKeys: state.flashKeys };
    const memoryOf = () => ({ current: attentionMemory({ T: result.T, Tk: result.Tk, ...shape }), long: attentionMemory({ T: LONG_T, ...shape }) });
    if (result.T > maxT || result.Tk > maxT) {
      const tooLong =
        result.T > maxT ? t('modern.flash.tooLong', { T: result.T, max: maxT }) : t('modern.flash.tooLongSource', { Tk: result.Tk, max: maxT });
      parts.push(h('p', { className: 'note md-limit', dataset: { flashLimit: '1' }, text: tooLong }), memoryPart(memoryOf(), t));
      placeChildren(el, parts);
      return;
    }
    fillSides(rowsPicker, state.flashRows);
    fillSides(keysPicker, state.flashKeys);
    parts.push(
      h('div', { className: 'md-controls' }, [
        h('label', { for: 'flash-br', text: t('modern.flash.br') }),
        rowsPicker,
        h('label', { for: 'flash-bc', text: t('modern.flash.bc') }),
        keysPicker,
      ]),
    );
    const { trace, error } = traceOf(ctx);
    if (!trace) {
      parts.push(h('p', { className: 'note', text: t('modern.engineSays', { message: error }) }));
      placeChildren(el, parts);
      return;
    }
    const head = Math.min(state.head, trace.heads) - 1;
    const tiles = trace.perHead[head].tiles;
    const at = Math.min(state.flashTile, tiles.length) - 1;
    const skipped = tiles.filter((tile) => tile.skipped).length;
    steps.render(at + 1, tiles.length, t('modern.flash.steps'), t('modern.flash.where', { n: at + 1, count: tiles.length, skipped, h: head + 1 }), t);
    parts.push(
      steps.el,
      h('div', { className: 'md-layout' }, [
        h('div', { className: 'md-main' }, [
          scoresView(trace, head, at, ctx),
          h('p', { className: 'caption', id: 'flash-key', text: t('modern.flash.key') }),
          skipsPart(trace, head, ctx),
          ...tilePart(trace, head, at, ctx),
          at === tiles.length - 1 ? finalPart(trace, ctx) : null,
        ]),
        memoryPart(trace.memory, t),
      ]),
    );
    placeChildren(el, parts.filter(Boolean));
  }

  return { el, update };
}
