// The page's side of issue 6: where a computation runs (on the page or in the worker), the
// progress bar with its Cancel button while the worker computes, and the performance panel.
// main.js asks `plan(T, Tk, dModel)` before computing and reports each computation to `record`.
import { WorkerEngine } from '../engine/worker-engine.js';
import { createPerfPanel } from './perf-panel.js';
import { createProgressView } from './progress-view.js';
import { worthAWorker } from './work-estimate.js';
import './perf.css';

export function installPerformance({ panelNode, progressNode, t, getShape, simdPath }) {
  let worker = null;  // started on first use: most pages never need it
  const getWorker = () => (worker ??= new WorkerEngine());
  const progress = createProgressView(progressNode, { onCancel: () => worker?.cancel() });
  const panel = createPerfPanel(panelNode, { t, getWorker, getShape });

  return {
    /** 'worker' when the computation is large enough to block the page, else 'main'. */
    plan: (T, Tk, dModel, heads = 1) => (worthAWorker(T, Tk, dModel, heads) ? 'worker' : 'main'),

    /**
     * Computes `config` in the worker with a progress bar. Resolves to { result, ms, memoryBytes }
     * (ms: the engine's time in the worker, as `record` shows for computations on the page);
     * rejects with the engine's Error, or with an Error whose `cancelled` is true.
     */
    async computeInWorker(config, T) {
      const w = getWorker();
      progress.show(t()('progress.computing', { T }), t()('progress.cancel'));
      try {
        const result = await w.compute(config, {}, { onProgress: (f) => progress.progress(f) });
        return { result, ms: w.lastMs, memoryBytes: w.memoryBytes };
      } finally {
        // A newer computation may have replaced this one; it shows its own bar.
        if (!w.busy) progress.hide();
      }
    },

    /** Cancels a worker computation in progress (e.g. when the input changes again). */
    cancel: () => worker?.cancel(),

    busy: () => worker?.busy ?? false,

    record: ({ ms, where, T, Tk, dModel, memoryBytes }) =>
      panel.record({ ms, where, T, Tk, dModel, simdPath: simdPath(), memoryBytes }),

    translate: () => panel.translate(),
  };
}
