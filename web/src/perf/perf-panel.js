// The performance panel: which SIMD path ran, the last computation's time, FLOPs and memory, and
// a T-versus-time plot measured on demand in the worker (forward-only path, the current d_model
// and heads), which makes the quadratic cost of attention visible.
import { h, setText, unchanged } from '../render/dom.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { flopRate, forwardFlops } from './work-estimate.js';
import { renderTimePlot } from './time-plot.js';

export const SWEEP_TOKENS = Object.freeze([64, 128, 256, 512, 1024, 2048]);
// Timed runs per size, the plot showing their median: at least MIN_RUNS, more while they add up to
// less than RUN_BUDGET_MS (up to MAX_RUNS), so that the small sizes, whose single runs are at the
// mercy of the scheduler on a busy machine, get many.
const MIN_RUNS = 3;
const MAX_RUNS = 15;
const RUN_BUDGET_MS = 100;

// 864 → "864 FLOP", 2592 → "2.6 kFLOP", 3.1e6 → "3.1 MFLOP", 4.3e9 → "4.3 GFLOP".
export function formatFlops(flops) {
  if (flops < 1e3) return `${Math.round(flops)} FLOP`;
  const [value, unit] = flops >= 1e9 ? [flops / 1e9, 'G'] : flops >= 1e6 ? [flops / 1e6, 'M'] : [flops / 1e3, 'k'];
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}FLOP`;
}

// Deterministic embeddings for the sweep: the values do not matter, only the sizes.
function sweepEmbeddings(T, C) {
  const data = new Float32Array(T * C);
  for (let n = 0; n < data.length; n += 1) data[n] = Math.sin(n * 0.618) * 0.5;
  return { rows: T, cols: C, data };
}

export function createPerfPanel(node, { t, measure: timeInWorker, getShape }) {
  const facts = h('dl', { className: 'perf-facts' });
  const button = h('button', { type: 'button', className: 'choice perf-measure' });
  const status = h('p', { className: 'perf-status', 'aria-live': 'polite' });
  const plot = h('div', { className: 'perf-plot' });
  node.replaceChildren(facts, button, status, plot);
  let last = null;
  const seen = new Set(); // where a computation has run: the first one there pays for warming up
  let points = [];
  let running = false;

  // The FLOPs, and the rate only where it measures arithmetic (work-estimate.js: flopRate).
  function flopsText(tr) {
    const flops = formatFlops(last.flops);
    const rate = flopRate(last);
    if (rate !== null) return tr('perf.flopsValue', { flops, rate: formatFlops(rate) });
    return last.first ? tr('perf.flopsFirst', { flops }) : tr('perf.flopsSmall', { flops, min: formatFlops(THRESHOLDS.rateFromFlops) });
  }

  function renderFacts() {
    const tr = t();
    const rows = [];
    if (last) {
      rows.push([tr('perf.simd'), last.simdPath]);
      rows.push([
        tr('perf.time'),
        tr(last.first ? 'perf.timeValueFirst' : 'perf.timeValue', { ms: last.ms.toFixed(2), where: tr(`perf.where.${last.where}`) }),
      ]);
      rows.push([tr('perf.flops'), flopsText(tr)]);
      rows.push([tr('perf.memory'), tr('perf.memoryValue', { mb: (last.memoryBytes / 2 ** 20).toFixed(0) })]);
    }
    // Rewritten in place, the plot only when it changed: the panel follows every computation
    // (every slider step), and new elements cost style and layout each time.
    if (facts.childElementCount !== rows.length * 2) {
      facts.replaceChildren(...rows.flatMap(() => [h('dt'), h('dd')]));
    }
    rows.flat().forEach((text, k) => setText(facts.children[k], text));
    setText(button, running ? tr('perf.measuring') : tr('perf.measure'));
    if (button.disabled !== running) button.disabled = running;
    const axes = { x: tr('perf.axisT'), y: tr('perf.axisMs') };
    if (!unchanged(plot, JSON.stringify([points, axes]))) plot.replaceChildren(renderTimePlot(points, axes));
  }

  async function measure() {
    const { dModel, heads } = getShape();
    running = true;
    points = [];
    renderFacts();
    const configOf = (T) => ({ embeddings: sweepEmbeddings(T, dModel), dModel, heads, mask: 'causal' });
    try {
      // The browser compiles the engine's code further while it runs: the first calls ran 10 ×
      // slower and made the smallest sizes look the dearest. So a few calls of a middle size
      // first, then per size a warm-up and the median of several runs, timed in the worker (the
      // page's clock also counted waiting for this busy page to read the worker's answer).
      for (let k = 0; k < 3; k += 1) await timeInWorker(configOf(256));
      for (const T of SWEEP_TOKENS) {
        status.textContent = t()('perf.sweepStep', { T, dModel, heads });
        const config = configOf(T);
        await timeInWorker(config);
        const times = [];
        let total = 0;
        while (times.length < MIN_RUNS || (total < RUN_BUDGET_MS && times.length < MAX_RUNS)) {
          const ms = await timeInWorker(config);
          times.push(ms);
          total += ms;
        }
        points.push({ T, ms: times.sort((a, b) => a - b)[times.length >> 1] });
        renderFacts();
      }
      status.textContent = t()('perf.sweepDone', { dModel, heads });
    } catch (error) {
      status.textContent = error.cancelled ? t()('perf.sweepCancelled') : error.message;
    } finally {
      running = false;
      renderFacts();
    }
  }
  button.addEventListener('click', () => {
    if (!running) measure();
  });

  return {
    /** After each computation: { ms, where: 'main' | 'worker', T, Tk, dModel, simdPath, memoryBytes }. */
    record({ ms, where, T, Tk, dModel, simdPath, memoryBytes }) {
      // The page's first computation includes the first run of the engine's code (compiled
      // further by the browser as it runs): said so, lest a reader take it for the cost of T.
      const first = !seen.has(where);
      seen.add(where);
      last = { ms, where, first, simdPath, memoryBytes, flops: forwardFlops(T, Tk, dModel) };
      renderFacts();
    },
    translate: renderFacts,
  };
}
