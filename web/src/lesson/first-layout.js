// Figures and steps are laid out once ('first-layout', lesson.css), then skipped off screen with
// their own size remembered. All of them in one frame made the page's first task several hundred
// ms, so they are laid out a few steps per frame, in idle time (those near the screen are laid out
// by content-visibility meanwhile). `data-laying-out` is on the container until done.
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';

const { lessonIdleWaitMs, layoutBatchElements } = THRESHOLDS;

export function createFirstLayout(container) {
  const laidOut = new WeakSet();
  const waiting = new Set();
  let asked = false;
  const batchKey = { firstLayouts: container },
    frameKey = { firstLayoutFrame: container };

  function ask() {
    container.toggleAttribute('data-laying-out', waiting.size > 0);
    if (asked || !waiting.size) return;
    asked = true;
    drawing.idle(batchKey, nextSteps, { waitMs: lessonIdleWaitMs, anyRoom: true });
  }

  // The elements of the first steps waiting, about layoutBatchElements elements in all.
  function nextSteps() {
    const batch = [];
    let elements = 0;
    while (waiting.size && elements < layoutBatchElements) {
      for (const el of waiting) if (!el.isConnected) waiting.delete(el); // laid out when shown again
      const [first] = waiting;
      if (!first) break;
      const step = first.closest('.lesson-step') ?? first;
      for (const el of waiting) {
        if (!step.contains(el)) continue;
        waiting.delete(el);
        batch.push(el);
      }
      elements += step.getElementsByTagName('*').length;
    }
    inFrame(batch, () => {
      asked = false;
      ask();
    });
  }

  function inFrame(els, then = () => {}) {
    for (const el of els) {
      laidOut.add(el);
      el.classList.add('first-layout');
    }
    drawing.afterFrame(frameKey, () => {
      for (const el of els) el.classList.remove('first-layout');
      then();
    });
  }

  return {
    /** Lays `els` out once, in idle time. */
    layOut(els) {
      for (const el of els) waiting.add(el);
      ask();
    },
    laidOut: (el) => laidOut.has(el),
    waiting: (el) => waiting.has(el),
    /** Laid out again next time (its height changed, or it is shown one step at a time). */
    forget: (el) => laidOut.delete(el),
  };
}
