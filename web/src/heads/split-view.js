// The head split, as five stages the reader can step through or play:
//   columns  Q, K and V with their d_model columns coloured by the head they belong to
//   slice    the same columns pulled apart into h matrices of width d_k (K and V: one per
//            key/value head, with the sharing of grouped- and multi-query attention drawn)
//   maps     the h attention maps side by side, one selected for detail
//   concat   the h head outputs pushed back together: d_model columns again
//   mix      Concat · W_O: each output column draws on every head
// Head identity is a categorical colour (frames, bands, tints); a weight's size is viridis (map
// fills only). Every number comes from the engine's result.
import { subscript, superscript } from '../i18n/index.js';
import { printsNumbers, smallMapPresentation, splitByParts, weightMapPresentation } from '../render/policy.js';
import { scrollWhenNeeded } from '../render/overflow-class.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { divisors } from '../state/parse.js';
import { h, placeChildren, svgEl } from '../render/dom.js';
import { paintWeights } from '../render/weight-pixels.js';
import { columns, renderGrid, weightLegend } from './grid.js';
import { COLORS, headColor, headInk, stops, textOn, tint, weightFill } from '../render/colors.js';
import { SPLIT_STAGES } from '../state/schema.js';
import { createPartKeeper } from './part-keeper.js';
import { drawing } from '../render/scheduler.js';

// A part of the split: wider than a phone, it scrolls sideways in its own box, named by its title.
const partBox = (part, mode, title, children) =>
  scrollWhenNeeded(h('div', { className: `hs-${part}${mode ? ` ${mode}` : ''}`, dataset: { hsPart: part } }, children), title);

const { gridCols, mapsDrawn } = THRESHOLDS;

const sup = (k) => superscript(k + 1);

/** callbacks: { setStage(stage), setHeads(h), setKv(kv), select(h), t() } */
export function createSplitView(callbacks) {
  const el = h('section', { className: 'panel hv-panel hs', id: 'head-split', dataset: { field: 'split' } });
  let shownStage = null; // the stage on screen, to animate from
  let timer = null; // the play key while playing
  const playKey = { splitPlay: true },
    partsKey = { splitParts: true },
    transitionKey = { splitTransition: true };
  let ctx = null;
  const grids = new Map(); // renderGrid's tables, refilled in place while their layout stays
  // A part that comes out as the one on screen stays there (part-keeper.js): its kept tables
  // are stand-ins while it is built to be compared.
  const keeper = createPartKeeper(el);
  let standing = false; // while the parts are built to be compared (not when drawn part by part)
  const grid = (spec) => {
    const figure = renderGrid(spec, grids);
    return standing ? keeper.stand(figure) : figure;
  };

  el.addEventListener('click', (event) => {
    const button = event.target.closest('button, [data-hs-select]');
    if (!button || !el.contains(button)) return;
    const { hsStage, hsHeads, hsKv, hsSelect } = button.dataset;
    if (button.hasAttribute('data-hs-play')) togglePlay();
    else if (hsStage) {
      stop();
      callbacks.setStage(hsStage);
    } else if (hsHeads) callbacks.setHeads(Number(hsHeads));
    else if (hsKv) callbacks.setKv(Number(hsKv));
    else if (hsSelect) callbacks.select(Number(hsSelect));
  });

  function togglePlay() {
    if (timer) {
      stop();
      return;
    }
    let k = 0;
    callbacks.setStage(SPLIT_STAGES[k]);
    timer = playKey;
    drawing.every(playKey, THRESHOLDS.playStepMs, () => {
      k += 1;
      if (k >= SPLIT_STAGES.length) {
        stop();
        return;
      }
      callbacks.setStage(SPLIT_STAGES[k]);
    });
    renderToolbarState();
  }

  function stop() {
    if (timer) drawing.cancel(playKey);
    timer = null;
    renderToolbarState();
  }

  function renderToolbarState() {
    const play = el.querySelector('[data-hs-play]');
    if (play && ctx) play.textContent = ctx.t(timer ? 'heads.split.stop' : 'heads.split.play');
  }

  // ---- pieces ------------------------------------------------------------------------------------

  function toolbar({ result, state, t }) {
    const { dModel, heads, kvHeads } = result;
    const headChoices = dModel <= THRESHOLDS.divisorChoicesUpTo ? divisors(dModel).slice(0, 40) : [heads];
    const kvChoices = divisors(heads).slice(0, 40);
    const stage = state.split ?? 'all';
    return h('div', { className: 'hs-toolbar' }, [
      h('div', { className: 'hs-group', dataset: { field: 'heads' } }, [
        h('span', { className: 'hs-label', text: t('heads.split.heads') }),
        ...headChoices.map((d) =>
          h('button', {
            type: 'button',
            className: 'choice',
            dataset: { hsHeads: String(d) },
            'aria-pressed': d === heads ? 'true' : 'false',
            text: String(d),
          }),
        ),
      ]),
      h('div', { className: 'hs-group', dataset: { field: 'kvHeads' } }, [
        h('span', { className: 'hs-label', text: t('heads.split.kv') }),
        ...kvChoices.map((d) =>
          h('button', {
            type: 'button',
            className: 'choice',
            dataset: { hsKv: String(d) },
            'aria-pressed': d === kvHeads ? 'true' : 'false',
            text: String(d),
          }),
        ),
        h('span', { className: 'hs-kind', text: kvKindText(result, t) }),
      ]),
      h('div', { className: 'hs-group hs-stages', role: 'group', 'aria-label': t('heads.split.stages') }, [
        ...SPLIT_STAGES.map((id, k) =>
          h('button', { type: 'button', className: 'choice', dataset: { hsStage: id }, 'aria-pressed': stage === id ? 'true' : 'false' }, [
            h('span', { className: 'n', text: String(k + 1) }),
            ` ${t(`heads.stage.${id}`)}`,
          ]),
        ),
        h('button', {
          type: 'button',
          className: 'choice',
          dataset: { hsStage: 'all' },
          'aria-pressed': stage === 'all' ? 'true' : 'false',
          text: t('heads.stage.all'),
        }),
        h('button', { type: 'button', className: 'choice play', dataset: { hsPlay: '' }, text: t(timer ? 'heads.split.stop' : 'heads.split.play') }),
      ]),
    ]);
  }

  // Q, K, V as blocks of columns, one block per head (K, V: per key/value head).
  function qkvBlock({ result, t }, mode) {
    const { heads, kvHeads, dK, tokens } = result;
    const numbers = printsNumbers(result.dModel);
    const sharing = kvHeads < heads;
    const groupColors = (g) => Array.from({ length: heads / kvHeads }, (_, i) => headColor(g * (heads / kvHeads) + i, heads));
    const kvFill = (g, alpha) => {
      const colors = groupColors(g);
      if (colors.length === 1) return tint(colors[0], alpha);
      const stops = colors.map((c, i) => `${tint(c, alpha)} ${i * 6}px ${(i + 1) * 6}px`).join(', ');
      return `repeating-linear-gradient(135deg, ${stops})`;
    };
    const blocksOf = (name, matrix, count, colorOf, labelOf) => {
      const blocks = [];
      let drawn = 0;
      for (let g = 0; g < count && drawn < gridCols; g += 1) {
        const block = columns(matrix, g * dK, (g + 1) * dK);
        const fill = colorOf(g, 0.22);
        const band = colorOf(g, 1);
        blocks.push(
          h('div', { className: 'hs-block', dataset: { hsBlock: name, head: String(g) } }, [
            h('div', { className: 'hs-blabel', style: { color: name === 'q' || !sharing ? headInk(g, heads) : 'inherit' }, text: labelOf(g) }),
            grid({
              matrix: block,
              name: `split-${name}`,
              head: g,
              rowLabels: tokens,
              colLabels: Array.from({ length: dK }, (_, c) => String(g * dK + c + 1)),
              bandColor: () => band,
              fill: () => ({ background: fill }),
              numbers,
              t,
            }),
          ]),
        );
        drawn += dK;
      }
      const missing = count - blocks.length;
      if (missing > 0) blocks.push(h('p', { className: 'hv-cut', text: t('heads.split.moreHeads', { shown: blocks.length, total: count }) }));
      return blocks;
    };
    const qColor = (g, alpha) => (alpha === 1 ? headColor(g, heads) : tint(headColor(g, heads), alpha));
    const kvColor = (g, alpha) => {
      if (!sharing) return qColor(g, alpha);
      if (alpha === 1) {
        const colors = groupColors(g);
        return colors.length === 1
          ? colors[0]
          : `linear-gradient(to right, ${colors.map((c, i) => `${c} ${(i * 100) / colors.length}% ${((i + 1) * 100) / colors.length}%`).join(', ')})`;
      }
      return kvFill(g, alpha);
    };
    const kvLabel = (sym) => (g) => {
      const group = Array.from({ length: heads / kvHeads }, (_, i) => g * (heads / kvHeads) + i + 1);
      return sharing ? t('heads.split.sharedBlock', { sym: `${sym}${sup(g)}`, heads: group.join(', ') }) : `${sym}${sup(g)}`;
    };
    const matrixPart = (name, sym, formula, matrix, count, colorOf, labelOf) =>
      h('div', { className: 'hs-matrix', dataset: { hsMatrix: name } }, [
        h('div', { className: 'hs-mlabel' }, [
          h('span', { className: 'sym', text: formula }),
          h('span', { className: 'shape', text: `${matrix.rows} × ${matrix.cols}` }),
        ]),
        h('div', { className: 'hs-blocks' }, blocksOf(name, matrix, count, colorOf, labelOf)),
      ]);
    const title = t(mode === 'joined' ? 'heads.split.columnsTitle' : 'heads.split.sliceTitle', { heads, dK });
    return partBox('qkv', mode, title, [
      h('h3', { text: title }),
      h('p', {
        className: 'caption',
        text: t(mode === 'joined' ? 'heads.split.columnsCaption' : 'heads.split.sliceCaption', { heads, dK, dModel: result.dModel, kvHeads }),
      }),
      sharingDiagram(result, t),
      h('div', { className: 'hs-qkv-row' }, [
        matrixPart('q', 'Q', t('heads.split.qFormula'), result.q, heads, qColor, (g) => `Q${sup(g)}`),
        matrixPart('k', 'K', t('heads.split.kFormula'), result.k, kvHeads, kvColor, kvLabel('K')),
        matrixPart('v', 'V', t('heads.split.vFormula'), result.v, kvHeads, kvColor, kvLabel('V')),
      ]),
    ]);
  }

  // Query heads on top, key/value heads below, a line from each query head to the one it reads.
  function sharingDiagram({ heads, kvHeads }, t) {
    const figure = h('figure', { className: 'hs-sharing', dataset: { hsPart: 'sharing' } });
    if (heads > mapsDrawn) {
      figure.append(h('p', { className: 'caption', text: t('heads.kv.summary', { heads, kvHeads, group: heads / kvHeads }) }));
      return figure;
    }
    // Box sizes shrink with the number of heads; labels go when there is no room for them.
    const box = heads <= 12 ? 52 : heads <= 24 ? 28 : 16;
    const gap = heads <= 24 ? 12 : 6;
    const left = 96; // room for the row names
    const width = left + heads * (box + gap);
    const height = 112;
    const qy = 8;
    const ky = 70;
    const bh = 24;
    const svg = svgEl('svg', {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': t('heads.kv.summary', { heads, kvHeads, group: heads / kvHeads }),
    });
    const add = (tag, attrs, text) => svg.appendChild(svgEl(tag, attrs, text ?? []));
    const group = heads / kvHeads;
    const qx = (k) => left + k * (box + gap);
    const kvWidth = (box + gap) * group - gap;
    const kx = (g) => qx(g * group);
    const label = (k, text) => (heads <= 12 ? text : heads <= 24 ? String(k + 1) : '');
    add('text', { x: left - 8, y: qy + bh / 2 + 4, 'text-anchor': 'end', 'font-size': 11, fill: COLORS.muted }, t('heads.kv.queryRow'));
    add('text', { x: left - 8, y: ky + bh / 2 + 4, 'text-anchor': 'end', 'font-size': 11, fill: COLORS.muted }, t('heads.kv.kvRow'));
    for (let k = 0; k < heads; k += 1) {
      const g = kvHeadOf(k, heads, kvHeads);
      add('line', {
        x1: qx(k) + box / 2,
        y1: qy + bh,
        x2: kx(g) + kvWidth / 2,
        y2: ky,
        stroke: headColor(k, heads),
        'stroke-width': 2.5,
        'data-q': k,
        'data-kv': g,
      });
    }
    for (let k = 0; k < heads; k += 1) {
      const color = headColor(k, heads);
      add('rect', { x: qx(k), y: qy, width: box, height: bh, rx: 4, fill: color, 'data-q-box': k });
      add('text', { x: qx(k) + box / 2, y: qy + bh / 2 + 4, 'text-anchor': 'middle', 'font-size': 11, fill: textOn(color) }, label(k, `Q${sup(k)}`));
    }
    for (let g = 0; g < kvHeads; g += 1) {
      // A shared key/value head wears the colours of every query head that reads it.
      for (let i = 0; i < group; i += 1) {
        add('rect', { x: kx(g) + (i * kvWidth) / group, y: ky, width: kvWidth / group, height: bh, fill: headColor(g * group + i, heads) });
      }
      add('rect', { x: kx(g), y: ky, width: kvWidth, height: bh, rx: 3, fill: 'none', stroke: COLORS.ink, 'stroke-width': 1.2, 'data-kv-box': g });
      add(
        'text',
        { x: kx(g) + kvWidth / 2, y: ky + bh + 13, 'text-anchor': 'middle', 'font-size': 11, fill: COLORS.ink },
        label(g, `K${sup(g)}, V${sup(g)}`),
      );
    }
    figure.append(svg);
    return figure;
  }

  // The attention maps of every head, small, and the selected one in detail.
  // later(build): when drawn part by part, the detail map is built in a task of its own.
  function mapsBlock({ result, state, t }, later = null) {
    const { heads, kvHeads, T, Tk, tokens } = result;
    const selected = Math.min(Math.max(1, state.head ?? 1), heads) - 1;
    const keyTokens = result.source?.tokens ?? tokens;
    const map = smallMapPresentation({ tokens: T, keys: Tk });
    const multiples = [];
    for (let k = 0; k < Math.min(heads, mapsDrawn); k += 1) {
      const color = headColor(k, heads);
      multiples.push(
        h(
          'button',
          {
            type: 'button',
            className: 'hs-map',
            dataset: { hsSelect: String(k), head: String(k) },
            'aria-pressed': k === selected ? 'true' : 'false',
            // Named by its visible label (with aria-pressed), so a spoken "head 2" finds it too.
            title: t('heads.maps.pick', { h: k + 1 }),
            style: { borderColor: color },
          },
          [
            paintWeights(document.createElement('canvas'), {
              weights: result.perHead[k].weights,
              mask: result.mask,
              rows: map.rows,
              cols: map.cols,
              cell: map.cellPx,
            }),
            h('span', { className: 'hs-map-label' }, [
              h('span', { className: 'swatch', style: { background: color } }),
              t('heads.maps.label', { h: k + 1, kv: kvHeadOf(k, heads, kvHeads) + 1 }),
            ]),
          ],
        ),
      );
    }
    if (heads > mapsDrawn) multiples.push(h('p', { className: 'hv-cut', text: t('heads.split.moreHeads', { shown: mapsDrawn, total: heads }) }));
    if (map.corner) multiples.push(h('p', { className: 'hv-cut', text: t('heads.maps.corner', { n: THRESHOLDS.mapTokens, T, Tk }) }));

    const weights = result.perHead[selected].weights;
    const masked = result.mask;
    // Printed numbers for a few keys; past that, cells only, painted on a canvas (a table of
    // 64 × 64 cells would block the page).
    const { kind, numbersInCells: numbers, maxRows, maxCols } = weightMapPresentation({ keys: Tk, canvas: true });
    const buildDetail = () => {
      const common = {
        matrix: weights,
        name: 'detail-weights',
        head: selected,
        rowLabels: tokens,
        colLabels: keyTokens,
        mask: masked,
        maxRows,
        maxCols,
        t,
      };
      if (kind === 'table') return grid({ ...common, fill: weightFill(masked), numbers });
      // Made anew each time: a figure on screen that came out the same takes its new canvas (part-keeper.js).
      return renderGrid({ ...common, surface: 'pixels', label: t('heads.maps.detail', { h: selected + 1, sup: sup(selected), T, Tk }) });
    };
    const detail = later ? h('div', { className: 'hs-pending' }) : buildDetail();
    if (later) later(() => detail.replaceWith(buildDetail()));
    const color = headColor(selected, heads);
    return h('div', { className: 'hs-maps', dataset: { hsPart: 'maps' } }, [
      h('h3', { text: t('heads.maps.title', { heads, T, Tk }) }),
      h('p', { className: 'caption', text: t('heads.maps.caption') }),
      h('div', { className: 'hs-multiples' }, multiples),
      h('div', { className: 'hs-detail', style: { borderColor: color }, dataset: { head: String(selected) } }, [
        h('h4', {}, [
          h('span', { className: 'swatch', style: { background: color } }),
          t('heads.maps.detail', { h: selected + 1, sup: sup(selected), T, Tk }),
        ]),
        detail,
        weightLegend(stops('viridis'), t),
      ]),
    ]);
  }

  // The head outputs side by side: sliced, then pushed together into the concatenation.
  function concatBlock({ result, t }, mode) {
    const { heads, dK, tokens } = result;
    const numbers = printsNumbers(result.dModel);
    const blocks = [];
    let drawn = 0;
    for (let k = 0; k < heads && drawn < gridCols; k += 1) {
      const color = headColor(k, heads);
      blocks.push(
        h('div', { className: 'hs-block', dataset: { hsBlock: 'context', head: String(k) } }, [
          h('div', { className: 'hs-blabel', style: { color }, text: `head${subscript(k + 1)}` }),
          grid({
            matrix: result.perHead[k].context,
            name: 'split-context',
            head: k,
            rowLabels: tokens,
            colLabels: Array.from({ length: dK }, (_, c) => String(k * dK + c + 1)),
            bandColor: () => color,
            fill: () => ({ background: tint(color, 0.22) }),
            numbers,
            t,
          }),
        ]),
      );
      drawn += dK;
    }
    if (blocks.length < heads) blocks.push(h('p', { className: 'hv-cut', text: t('heads.split.moreHeads', { shown: blocks.length, total: heads }) }));
    return partBox('concat', mode, t('heads.concat.title'), [
      h('h3', { text: t('heads.concat.title') }),
      h('p', { className: 'caption', text: t('heads.concat.caption', { heads, dK, dModel: result.dModel, T: result.T }) }),
      h('div', { className: 'hs-matrix' }, [
        h('div', { className: 'hs-mlabel' }, [
          h('span', { className: 'sym', text: t('heads.concat.formula') }),
          h('span', { className: 'shape', text: `${result.concat.rows} × ${result.concat.cols}` }),
        ]),
        h('div', { className: 'hs-blocks' }, blocks),
      ]),
    ]);
  }

  // Concat · W_O = output, with W_O's rows tinted by the head whose columns they weigh.
  function mixBlock({ result, t }) {
    const { heads, dK, tokens, dModel } = result;
    const numbers = printsNumbers(dModel);
    const colHead = (c) => Math.floor(c / dK);
    const concat = grid({
      matrix: result.concat,
      name: 'mix-concat',
      rowLabels: tokens,
      bandColor: (c) => headColor(colHead(c), heads),
      fill: (r, c) => ({ background: tint(headColor(colHead(c), heads), 0.22) }),
      numbers,
      caption: 'Concat',
      t,
    });
    const wo = result.weights.wo;
    const woGrid = grid({
      matrix: wo,
      name: 'mix-wo',
      rowLabels: Array.from({ length: Math.min(wo.rows, gridCols) }, (_, r) => `${r + 1}`),
      fill: (r) => ({ background: tint(headColor(colHead(r), heads), 0.22) }),
      rowBands: (r) => headColor(colHead(r), heads), // the head whose columns the row weighs
      numbers,
      maxRows: gridCols,
      maxCols: gridCols,
      caption: 'W_O',
      t,
    });
    const output = grid({ matrix: result.output, name: 'mix-output', rowLabels: tokens, numbers, caption: t('heads.mix.output'), t });
    return partBox('mix', '', t('heads.mix.title'), [
      h('h3', { text: t('heads.mix.title') }),
      h('p', { className: 'caption', text: t('heads.mix.caption', { dK }) }),
      // An operator stays with the matrix after it when the row wraps.
      h('div', { className: 'hs-mix-row' }, [
        concat,
        h('div', { className: 'hs-mix-term' }, [h('span', { className: 'op', text: '·' }), woGrid]),
        h('div', { className: 'hs-mix-term' }, [h('span', { className: 'op', text: '=' }), output]),
      ]),
    ]);
  }

  // ---- rendering -----------------------------------------------------------------------------------

  // The control in the panel that has the keyboard focus, as a selector that finds its successor
  // in a redrawn panel (null if the focus is elsewhere).
  const FOCUS_KEYS = ['data-hs-heads', 'data-hs-kv', 'data-hs-stage', 'data-hs-play', 'data-hs-select'];
  function focusKey() {
    const node = document.activeElement;
    if (!node || node === el || !el.contains(node)) return null;
    const name = FOCUS_KEYS.find((key) => node.hasAttribute(key));
    return name ? `[${name}="${CSS.escape(node.getAttribute(name))}"]` : null;
  }

  // Past splitByPartFrom T × Tk entries the parts are drawn one per task: together they would
  // block the page for longer than a task may.
  let generation = 0;

  function update(next) {
    ctx = next;
    const { result, state, t } = ctx;
    const stage = state.split ?? 'all';
    const show = (id) => stage === 'all' || stage === id;
    const progressive = splitByParts({ tokens: result.T, keys: result.Tk });
    // Animate the slicing and the concatenation: draw the stage before, then switch (not when
    // drawn part by part: the part may not be there yet when the animation starts).
    const qkvFrom = !progressive && stage === 'slice' && shownStage !== 'slice' && shownStage !== 'all' ? 'joined' : null;
    const concatFrom = !progressive && stage === 'concat' && shownStage !== 'concat' ? 'sliced' : null;
    const qkvMode = stage === 'columns' ? 'joined' : 'sliced';
    const builders = [];
    const extra = []; // smaller jobs a part left for later (the detail map)
    const later = progressive ? (job) => extra.push(job) : null;
    if (show('columns') || show('slice')) builders.push(() => qkvBlock(ctx, qkvFrom ?? qkvMode));
    if (show('maps')) builders.push(() => mapsBlock(ctx, later));
    if (show('concat')) builders.push(() => concatBlock(ctx, concatFrom ?? 'joined'));
    if (show('mix')) builders.push(() => mixBlock(ctx));
    const mine = ++generation;
    standing = !progressive;
    let slots;
    try {
      slots = builders.map((build, k) => (progressive && k > 0 ? h('div', { className: 'hs-pending' }) : build()));
    } finally {
      standing = false;
    }
    // The title, caption and toolbar stay in the page while they say the same (a new result
    // mostly changes the parts below them): rebuilt on every update, a toolbar button lost the
    // keyboard focus, and one pressed while the panel was redrawn (in idle time after a change)
    // was gone when released, so its click was lost.
    const refocus = focusKey();
    const heading = [
      h('h2', { text: t('heads.split.title') }),
      h('p', { className: 'caption', text: t('heads.split.caption', { dModel: result.dModel, heads: result.heads, dK: result.dK }) }),
      toolbar(ctx),
    ].map((node, k) => (el.children[k]?.isEqualNode(node) ? el.children[k] : node));
    // Each part stays as it is on screen when it came out the same (its numbers refilled in
    // place): a change of the numbers then lays out and paints only what changed.
    const onScreen = new Map([...el.children].filter((child) => child.dataset.hsPart).map((child) => [child.dataset.hsPart, child]));
    const parts = slots.map((made) => (progressive ? made : keeper.settle(onScreen.get(made.dataset.hsPart) ?? null, made)));
    keeper.clear();
    placeChildren(el, [...heading, ...parts]);
    // A control that had the keyboard focus and was replaced hands it to its successor.
    if (refocus && !el.contains(document.activeElement)) el.querySelector(refocus)?.focus({ preventScroll: true });
    el.dataset.stage = stage;
    shownStage = stage;
    if (progressive) {
      // The other parts in slices (a part's own later jobs first), unless a newer update came.
      let k = 1;
      drawing.sliced(partsKey, () => {
        if (mine !== generation) return false;
        try {
          if (extra.length) extra.shift()();
          else if (k < builders.length) {
            k += 1;
            slots[k - 1].replaceWith(builders[k - 1]());
          }
        } catch (error) {
          console.warn('head split part failed', error);
        }
        return extra.length > 0 || k < builders.length;
      });
    }
    if (qkvFrom || concatFrom) {
      // After the frame that paints the starting layout: the next one starts the transition.
      drawing.afterFrame(transitionKey, () => {
        const qkv = el.querySelector('.hs-qkv');
        if (qkvFrom && qkv) qkv.classList.replace('joined', 'sliced');
        const concat = el.querySelector('.hs-concat');
        if (concatFrom && concat) concat.classList.replace('sliced', 'joined');
      });
    }
  }

  return { el, update, stop };
}

/** "multi-head", "grouped-query" or "multi-query", with the numbers. */
export function kvKindText({ heads, kvHeads }, t) {
  if (kvHeads === heads) return t('heads.kv.mha', { heads });
  if (kvHeads === 1) return t('heads.kv.mqa', { heads });
  return t('heads.kv.gqa', { heads, kvHeads, group: heads / kvHeads });
}

// Which key/value head query head h reads: heads/kvHeads query heads share one, in order (the
// engine's grouping; tests/js/heads-views.test.mjs checks it against perHead[h].k).
export const kvHeadOf = (h, heads, kvHeads) => Math.floor(h / (heads / kvHeads));
