// The first explanation a reader brings up costs several times the later ones: Chromium loads the
// panel's fonts at their sizes and shapes their words in that frame (docs/performance.md). So once
// a page is shown and idle, a few sample explanations are laid out out of sight inside the panel and
// removed at once: the fonts stay loaded. Done again for another language (other fallback fonts).
import { THRESHOLDS } from '../render/thresholds.js';
import { h } from '../render/dom.js';
import { drawing } from '../render/scheduler.js';
import { renderExplanation } from './explain-panel.js';

const { warmupMs, lessonIdleWaitMs } = THRESHOLDS;

/**
 * panel: the explanation panel. samples(): explainCell outputs to lay out (the formulas of the
 * kinds a reader meets first). → ask(t): warm up for t's language, in idle time, once.
 */
export function createExplanationWarmup(panel, samples) {
  const done = new Set(); // languages warmed, by the panel's title in them
  // It waits for an idle period with room for it, or lessonIdleWaitMs at most; nothing waits for
  // it to count as drawn (it shows nothing).
  const WARMUP = { waitMs: lessonIdleWaitMs, firstCostMs: warmupMs, background: true };
  const warmupKey = { warmup: panel },
    removeKey = { warmupRemoved: panel };

  // Leaves a User Timing measure 'lesson:warmup' each time (once per language: they do not pile up).
  // The samples are laid out by the next frame, not forced at once: a forced layout here also laid
  // out whatever else of the page was waiting for that frame, in this idle task.
  function warm(t) {
    const start = performance.now();
    const holder = h('div', { className: 'explain-warmup', 'aria-hidden': 'true' });
    panel.append(holder);
    try {
      for (const explained of samples()) renderExplanation(holder.appendChild(h('div')), explained, 'preview', t);
    } catch (error) {
      console.warn('explanation warm-up failed', error); // (only a later first hover is slower)
    }
    drawing.afterFrame(
      removeKey,
      () => {
        holder.remove();
        performance.measure('lesson:warmup', { start });
      },
      { background: true },
    );
  }

  function ask(t) {
    const language = t('explain.title');
    if (done.has(language)) return;
    drawing.idle(
      warmupKey,
      () => {
        done.add(language);
        warm(t);
      },
      WARMUP,
    );
  }

  return { ask };
}
