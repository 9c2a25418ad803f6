// When the head views draw. They sit under the (long) lesson, usually off screen, and redrawing
// them costs tens of milliseconds at T = 32 (more at large T): drawing them inside the event that
// changed the result would push the lesson's frame past 16 ms and, at large T, make one long task.
// So a view on screen draws right after the frame that shows the change where the reader made it
// (the head split took 9 ms of a 14 ms edit of X at T = 32 when its top was in the window), and
// every other view draws when the page is idle after that frame, one view per task (input and the
// next frames go first). A change made in a view itself draws it at once (`now`). Every view is
// drawn in the end, on screen or not: tests, screenshots and a reader who scrolls find it current.
//
// A job starts only when the idle period has room for its view's last measured cost (or
// idleJobMs before it was ever drawn), or it has waited headsIdleWaitMs (idleHasRoom,
// render/scheduler.js): a 12–14 ms job started between an input's handler and its frame pushed that
// frame past 16 ms.
//
// createViewScheduler() → { track(el), draw(name, el, run, now), forget(name), pending() }
//   draw(name, el, run, now): run() draws view `name` (whose element is `el`); `now` forces it.
//   A later draw of the same name replaces a pending one (only the newest result is drawn).
import { createScheduler, frameComing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';

const { headsIdleWaitMs, nearPx } = THRESHOLDS;

// On screen: within nearPx of the window, as the lesson's figures.
export function createViewScheduler({ rootMargin = `${nearPx}px 0px` } = {}) {
  const onScreen = new Set();
  const elOf = new Map(); // name → its view's element
  // One view per idle callback; a view scrolled into sight while waiting goes first.
  const scheduler = createScheduler({ idleWaitMs: headsIdleWaitMs, batchMs: 0, rank: (name) => (onScreen.has(elOf.get(name)) ? 0 : 1) });
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              if (entry.isIntersecting) onScreen.add(entry.target);
              else onScreen.delete(entry.target);
            }
          },
          { rootMargin },
        )
      : null;

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
      observer?.observe(el);
    },
    draw(name, el, run, now = false) {
      elOf.set(name, el);
      const job = measured(name, run);
      if (now || !observer) return scheduler.now(name, job);
      frameComing();
      // On screen, in a task of its own just after the frame: frames come out in order, so the
      // reader sees the view change one frame after the part they acted on.
      if (onScreen.has(el)) scheduler.afterFrame(name, job);
      else scheduler.idle(name, job);
    },
    /** Forget a pending draw (its view is up to date after all). */
    forget: (name) => scheduler.cancel(name),
    pending: () => scheduler.waiting(),
  };
}
