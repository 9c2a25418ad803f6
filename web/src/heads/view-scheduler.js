// When the head views draw. They sit under the long lesson, usually off screen, and redrawing them
// inside the event that changed the result would push the lesson's frame back. So a view near the
// window draws just after the frame that shows the change, any other in idle time, one per task; a
// change made in a view draws it at once. Every view is drawn in the end (docs/performance.md).
//
// createViewScheduler() → { track(el), draw(name, el, run, now), afterFrame(name, run), forget(name) }
//   draw(name, el, run, now): run() draws view `name` (whose element is `el`); `now` forces it.
//   A later draw of the same name replaces a pending one (only the newest result is drawn).
import { createScheduler, frameComing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { watchSight } from '../render/window-sight.js';

const { headsIdleWaitMs } = THRESHOLDS;

export function createViewScheduler() {
  const onScreen = new Set(); // within nearPx of the window, as the lesson's figures
  const elOf = new Map(); // name → its view's element
  // One view per idle callback; a view scrolled into sight while waiting goes first.
  const scheduler = createScheduler({ idleWaitMs: headsIdleWaitMs, batchMs: 0, rank: (name) => (onScreen.has(elOf.get(name)) ? 0 : 1) });
  const sightKnown = typeof IntersectionObserver === 'function';

  // A User Timing measure per drawn view ('heads:split'…), for profiles; only the latest kept.
  const measured = (name, run) => () => {
    const start = performance.now();
    try {
      run();
    } finally {
      performance.clearMeasures(`heads:${name}`);
      performance.measure(`heads:${name}`, { start });
    }
  };

  return {
    track(el) {
      if (!sightKnown) return;
      watchSight(el, (entry) => {
        if (entry.isIntersecting) onScreen.add(el);
        else onScreen.delete(el);
      });
    },
    draw(name, el, run, now = false) {
      elOf.set(name, el);
      const job = measured(name, run);
      if (now || !sightKnown) return scheduler.now(name, job);
      frameComing();
      // On screen, in a task of its own just after the frame: frames come out in order, so the
      // reader sees the view change one frame after the part they acted on.
      if (onScreen.has(el)) scheduler.afterFrame(name, job);
      else scheduler.idle(name, job);
    },
    /** run() in a task of its own after the next frame (a newer one of the same name replaces it). */
    afterFrame: (name, run) => scheduler.afterFrame(name, run),
    /** Forget a pending draw (its view is up to date after all). */
    forget: (name) => scheduler.cancel(name),
  };
}
