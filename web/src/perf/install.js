// The page's side of performance: the progress bar with its Cancel button while the worker
// computes (compute/runner.js decides where a run goes), and the performance panel.
import { createPerfPanel } from './perf-panel.js';
import { createProgressView } from './progress-view.js';
import './perf.css';

/** → { progress: { show(T), progress(f), hide() }, record(figures), translate() }; cancel(): the runner's. */
export function installPerformance({ panelNode, progressNode, t, getShape, simdPath, measure, cancel }) {
  const view = createProgressView(progressNode, { onCancel: () => cancel() });
  const panel = createPerfPanel(panelNode, { t, measure, getShape });
  return {
    progress: {
      show: (T) => view.show(t()('progress.computing', { T }), t()('progress.cancel')),
      progress: (fraction) => view.progress(fraction),
      hide: () => view.hide(),
    },
    record: ({ ms, where, T, Tk, dModel, memoryBytes }) => panel.record({ ms, where, T, Tk, dModel, simdPath: simdPath(), memoryBytes }),
    translate: () => panel.translate(),
  };
}
