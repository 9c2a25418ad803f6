// The lesson on the page: the stepper, the steps with their formulas and matrices, the
// explanation of any cell, the mask workbench, the softmax lab and editing in place. Its fields
// (state/schema.js) are the page's store's: a change dispatches them, and the page hands back the
// new state and the plan's results (render).
import 'katex/dist/katex.min.css';
import './lesson.css';

import { roundForEditor } from '../state/parse.js';
import { setAlternatives, setHidden, setText } from '../render/dom.js';
import { fitGrid } from '../state/validate.js';
import { companionsOf, withFields } from './companions.js';
import { isAsked } from '../render/cell-look.js';
import { explainCell, fillText } from './explain.js';
import { announceCell, renderExplanation } from './explain-panel.js';
import { fmt } from '../render/numbers.js';
import { createExplanationWarmup } from './explain-warmup.js';
import { formatCellRef, LOOK_KEYS, MASK_KINDS, parseCellRef, WEIGHT_KEYS } from '../state/schema.js';
import { scrollToPanel } from '../views/scroll-to-panel.js';
import { drawing } from '../render/scheduler.js';
import { createMaskWorkbench, currentMaskGrid } from './mask-workbench.js';
import { createOverview } from './overview.js';
import { renderRemark } from './remarks.js';
import { createSoftmaxLab } from './softmax-lab.js';
import { createStepper } from './stepper.js';
import { matrixOf } from './step-plan.js';
import { createStepsView } from './view.js';

// The explanations laid out ahead, out of sight, to load their fonts (explain-warmup.js): a
// weight's formula (exponentials, a fraction, a sum) and a score's (a square root).
const WARMUP_CELLS = [
  { name: 'weights', head: 0, row: 0, col: 0 },
  { name: 'scores', head: 0, row: 0, col: 0 },
];
const rowsOf = ({ rows, cols, data }) => Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols), roundForEditor));

/**
 * deps: {
 *   nodes: { stepper, results, explain, say (the live sentence of a move), remark, maskSummary }  page elements,
 *   dispatch(partial)          the lesson's fields changed (the page's store),
 *   t(),
 *   setEmbeddings(rows)        X edited: number[][], or null for one vector per token,
 *   generated(config)          the weights a generator makes for this shape (one engine run: compute/runner.js),
 *   presetId(), presetState()  the preset last loaded and its state,
 * }
 */
export function createLesson(deps) {
  const { nodes } = deps;
  let last = null; // { result, state, companions, results, hidesMask }
  let preview = null; // the cell under the pointer, or the last one while `lingering`
  // The pointer left the matrices with no cell selected: the last cell it pointed at stays
  // explained (a reader moving to the panel to read it would otherwise see it vanish), and its
  // parts stay in the panel, which spares a style and layout on every return to the matrices
  // (docs/performance.md).
  let lingering = false;

  // No handler may throw past the lesson: an unexpected error is said on the page, which stays.
  const safe =
    (handler) =>
    (...args) => {
      try {
        if (nodes.message) setHidden(nodes.message, true);
        return handler(...args);
      } catch (error) {
        console.error(error); // a bug: said in the console too, where a developer (and the tests) see it
        if (nodes.message) {
          nodes.message.textContent = deps.t()('error.unexpected', { message: error?.message ?? String(error) });
          nodes.message.hidden = false;
        }
        return undefined;
      }
    };

  const change = (partial) => deps.dispatch(partial);
  const workbench = createMaskWorkbench({ change: safe(change), t: deps.t });
  const lab = createSoftmaxLab({
    change: safe(change),
    t: deps.t,
    setScale: safe((on) => change({ scale: on })),
    scaleEmbeddings: safe((k) => tool('x', k === 10 ? 'x10' : 'x01')),
  });
  const warmup = createExplanationWarmup(nodes.explain, () => {
    if (!last) return [];
    const ctx = context();
    return WARMUP_CELLS.map((ref) => explainCell(ref, ctx)).filter(Boolean);
  });
  const stepper = createStepper({ setStep: safe((step) => change({ step })), t: deps.t });
  nodes.stepper.replaceChildren(stepper.el);
  const view = createStepsView(nodes.results, {
    workbench: () => workbench,
    lab: () => lab,
    preview: safe((ref) => {
      lingering = ref === null && preview !== null && !parseCellRef(last?.state.cell);
      if (!lingering) preview = ref;
      showExplanation();
    }),
    select: safe(selectCell),
    toggleMask: safe(toggleMask),
    edit: safe(editCell),
    tool: safe(tool),
    setHead: safe((head) => change({ head })),
  });
  const overview = nodes.overview
    ? createOverview(nodes.overview, {
        setHead: safe((head) => change({ head })),
        select: safe(selectCell),
        goToSelected: safe(() => {
          if (last && last.state.step !== 'all' && last.state.step !== 'softmax') change({ step: 'softmax' });
          goToPlace();
        }),
      })
    : null;
  nodes.maskSummary?.addEventListener(
    'click',
    safe((event) => {
      if (!event.target.closest('button')) return;
      change({ step: 'mask' });
      workbench.el.open = true; // (the link names it: folded in a frame, it opens)
      if (workbench.el.isConnected) scrollToPanel(workbench.el, { under: nodes.stepper });
    }),
  );

  // ---- state changes ----------------------------------------------------------------------------

  function selectCell(ref) {
    const cell = formatCellRef(ref);
    if (cell === last?.state.cell) return;
    const changes = { cell };
    // Picking a score or weight also points the softmax lab at its row and head.
    if (ref.head !== null) {
      changes.head = ref.head + 1;
      if (!['q', 'k', 'v'].includes(ref.name)) changes.row = ref.row + 1;
    }
    change(changes);
  }

  // The step, the head and row of the lab and the selected cell change what is shown, not what is
  // computed: with the same results and the same figures, only the lab's row and head, the
  // overview and the explanation are brought up to date.
  function lookOnly(ctx) {
    if (!last || last.results !== ctx.results) return false;
    const changed = Object.keys(ctx.state).filter((key) => ctx.state[key] !== last.state[key]);
    if (!changed.every((key) => LOOK_KEYS.includes(key))) return false;
    const { state } = ctx;
    if (state.step !== last.state.step || (state.head !== last.state.head && !view.allHeadsShown())) return false;
    const start = performance.now();
    last = { ...last, state };
    // (not while its step is parked, unseen: it is updated when that step is shown again, and
    // drawing it with each cell edited in another step cost 2.6 ms of a W_Q edit at T = 32;
    // far from the screen on a page of all steps, in idle time: view.js)
    if (lab.el.isConnected && !lab.el.closest('.parked')) view.updatePanel(lab, context());
    if (workbench.el.isConnected && !workbench.el.closest('.parked')) view.updatePanel(workbench, context());
    overview?.render(context());
    stepper.update(state.step, context().t);
    showExplanation();
    performance.clearMeasures('lesson:render');
    performance.measure('lesson:render', { start });
    return true;
  }

  function toggleMask(r, c) {
    if (!last || last.result.source) return; // cross-attention sets its own mask
    const { result, state } = last;
    const grid = state.mask === 'custom' ? fitGrid(state.customMask, result.T) : currentMaskGrid(result);
    grid[r][c] = !grid[r][c];
    change({ mask: 'custom', customMask: grid, cell: formatCellRef({ name: 'mask', head: null, row: r, col: c }) });
  }

  function currentWeights() {
    const { result, state } = last;
    if (state.wq) return Object.fromEntries(WEIGHT_KEYS.map((key) => [key, state[key].map((row) => row.slice())]));
    return Object.fromEntries(WEIGHT_KEYS.map((key) => [key, rowsOf(result.weights[key])]));
  }

  function currentX() {
    const { result, state } = last;
    return state.embeddings ? state.embeddings.map((row) => row.slice()) : rowsOf(result.x);
  }

  function editCell(name, r, c, value) {
    if (!last) return;
    if (name === 'x') {
      const rows = currentX();
      rows[r][c] = value;
      deps.setEmbeddings(rows);
      return;
    }
    if (sharedKeyValueHeads()) return;
    const weights = currentWeights();
    weights[name][r][c] = value;
    change(weights);
  }

  // Edited weights are d_model × d_model: one key/value head per query head. With shared key/value
  // heads (issue 4's views) the lesson says so instead of editing.
  function sharedKeyValueHeads() {
    if (last.result.kvHeads === last.result.heads) return false;
    if (nodes.message) {
      nodes.message.textContent = deps.t()('lesson.error.kvWeights');
      nodes.message.hidden = false;
    }
    return true;
  }

  // The generator's matrices for this shape: the form's weights (reset) or a new random seed.
  function generated(kind, seed) {
    const { result } = last;
    const { weights } = deps.generated({ tokens: result.tokens, dModel: result.dModel, heads: result.heads, weights: kind, seed, mask: 'none' });
    return Object.fromEntries(WEIGHT_KEYS.map((key) => [key, rowsOf(weights[key])]));
  }

  function tool(target, id) {
    if (!last) return;
    const { result, state } = last;
    if (target === 'x') {
      const rows = currentX();
      if (id === 'random') rows.forEach((row) => row.forEach((_, c) => (row[c] = roundForEditor(Math.round((Math.random() * 2 - 1) * 100) / 100))));
      if (id === 'identity') rows.forEach((row, r) => row.forEach((_, c) => (row[c] = r === c ? 1 : 0)));
      if (id === 'x10' || id === 'x01') rows.forEach((row) => row.forEach((v, c) => (row[c] = roundForEditor(id === 'x10' ? v * 10 : v / 10))));
      if (id === 'reset') {
        const preset = deps.presetState();
        deps.setEmbeddings(
          preset?.embeddings && preset.embeddings.length === result.T && preset.embeddings[0].length === result.dModel ? preset.embeddings : null,
        );
        return;
      }
      deps.setEmbeddings(rows);
      return;
    }
    if (sharedKeyValueHeads()) return;
    const weights = currentWeights();
    if (id === 'random') {
      const seed = crypto.getRandomValues(new Uint32Array(1))[0];
      weights[target] = generated('random', seed)[target];
    } else if (id === 'identity') {
      weights[target] = weights[target].map((row, r) => row.map((_, c) => (r === c ? 1 : 0)));
    } else if (id === 'reset') {
      const base = generated(state.weights, state.seed);
      weights[target] = base[target];
      // Back to the generator everywhere: no edited weights left.
      const same = WEIGHT_KEYS.every((key) => JSON.stringify(weights[key]) === JSON.stringify(base[key]));
      if (same) {
        change({ wq: null, wk: null, wv: null, wo: null });
        return;
      }
    }
    change(weights);
  }

  // ---- rendering -----------------------------------------------------------------------------------

  function context() {
    return withFields(last.companions, { state: last.state, t: deps.t(), hidesMask: last.hidesMask }); // dots unread (companions.js)
  }

  // An entry as its cell prints it (M prints its fill where masked).
  function printedValue(ref, matrix, state) {
    const value = matrix.data[ref.row * matrix.cols + ref.col];
    if (isAsked(matrix, ref.row * matrix.cols + ref.col)) return '?';
    if (ref.name === 'mask') return value ? fillText(state.maskFill) : '0';
    return fmt(value);
  }

  function showExplanation() {
    if (!last) return;
    const ctx = context();
    const selected = parseCellRef(last.state.cell);
    const candidate = lingering ? (selected ?? preview) : (preview ?? selected); // (a selection wins over a lingering cell)
    const shape = candidate ? matrixOf(candidate.name, candidate.head, ctx) : null;
    const ref = shape && candidate.row < shape.rows && candidate.col < shape.cols ? candidate : null;
    let explained = null;
    try {
      explained = ref ? explainCell(ref, ctx) : null;
    } catch (error) {
      console.warn('explanation failed', error);
    }
    // An entry an exercise asks for: its formula and what it comes from, none of its numbers.
    const asked = explained && isAsked(shape, ref.row * shape.cols + ref.col);
    if (asked) explained = { ...explained, lines: [ctx.t('exercise.explainAsked')], notes: [] };
    if (explained) explained.ref = formatCellRef(ref);
    const previewing = ref !== null && ref === preview && formatCellRef(ref) !== last.state.cell;
    const mode = previewing ? (lingering ? 'last' : 'preview') : 'selected';
    renderExplanation(nodes.explain, explained, mode, ctx.t);
    announceCell(nodes.say, explained, explained ? printedValue(ref, shape, last.state) : '', mode, ctx.t);
    view.highlight(explained ? ref : null, explained?.deps);
  }

  // ctx: { state, results (the plan's, with an open exercise's entries taken out), hidesMask (a
  // question asks which keys the mask hides), loaded (a link or preset opened) }. Each render leaves a User Timing measure, 'lesson:render', for
  // bench/browser/measure-lesson.mjs and the browser's profiler.
  function render({ state, results, hidesMask = false, loaded = false, fresh = false }) {
    if (loaded) {
      preview = null;
      lingering = false;
      stepper.stop();
    }
    if (!fresh && lookOnly({ state, results })) return;
    const start = performance.now();
    const companions = companionsOf(results);
    last = { result: companions.result, state, companions, results, hidesMask };
    const ctx = context();
    stepper.update(state.step, ctx.t);
    overview?.render(ctx);
    view.render(ctx);
    showExplanation();
    warmup.ask(ctx.t);
    renderRemark(nodes.remark, withFields(ctx, { presetId: deps.presetId() }));
    if (nodes.maskSummary) renderMaskSummary(nodes.maskSummary, ctx);
    performance.clearMeasures('lesson:render');
    performance.measure('lesson:render', { start });
  }

  // Every kind's summary is in one grid cell, the current one seen (lesson.css): the cell is as
  // large as the longest, so a change of kind moves nothing ("none (bidirectional)" took another
  // line in the form, and the whole page below moved down).
  function renderMaskSummary(node, { state, t, hidesMask }) {
    const label = node.querySelector('.summary-text');
    const button = node.querySelector('button');
    if (button) button.hidden = Boolean(hidesMask);
    if (label && hidesMask) label.replaceChildren(t('exercise.maskWaits'));
    else if (label)
      setAlternatives(
        label,
        MASK_KINDS.map((kind) => t('mask.summary', { kind: t(`mask.kind.${kind}`) })),
        MASK_KINDS.indexOf(state.mask),
      );
    if (button) setText(button, t('mask.summary.open'));
  }

  // The place the state names: the selected cell's figure, else the step shown alone.
  function placeNamed() {
    const ref = parseCellRef(last?.state.cell);
    const shown = [...nodes.results.querySelectorAll('section.lesson-step:not(.parked)')];
    const figures = ref ? shown.flatMap((section) => [...section.querySelectorAll(`figure[data-matrix-figure="${ref.name}"]`)]) : [];
    const figure = figures.find((f) => (ref.head === null ? f.dataset.head === undefined : f.dataset.head === String(ref.head)));
    if (figure) return figure;
    return last && last.state.step !== 'all' ? (shown.find((section) => section.dataset.step === last.state.step) ?? null) : null;
  }

  function goToPlace() {
    const place = placeNamed();
    if (!place) return;
    scrollToPanel(place, { under: nodes.stepper });
    // A matrix wider than the screen scrolls in its own box: the selected entry is brought into
    // it, once its cells are drawn.
    drawing.whenDrawn().then(() => {
      const ref = parseCellRef(last?.state.cell);
      const at = ref && `[data-row="${ref.row}"][data-col="${ref.col}"]`;
      // (a table's cell, or on a canvas the mark over the entry)
      placeNamed()?.querySelector(`td${at}, .cg-mark${at}`)?.scrollIntoView({ block: 'nearest', inline: 'center' });
    });
  }

  return {
    /** Brings the place the lesson's state names into view (a link or an example opened). */
    goToPlace,
    /** Folds the mask workbench and the softmax lab under their titles (in a frame, where a step
     *  is meant to fit one screen); a reader opens them with one click. */
    foldTools() {
      workbench.el.open = false;
      lab.el.open = false;
    },
    /** Draws the page's state and results (the page calls it after every change). */
    render,
  };
}
