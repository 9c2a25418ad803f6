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
// views/idle.js): a 12–14 ms job started between an input's handler and its frame pushed that
// frame past 16 ms.
//
// createViewScheduler() → { track(el), draw(name, el, run, now), forget(name), pending() }
//   draw(name, el, run, now): run() draws view `name` (whose element is `el`); `now` forces it.
//   A later draw of the same name replaces a pending one (only the newest result is drawn).
import { THRESHOLDS } from '../render/thresholds.js';
import { frameComing, idleHasRoom, justAfterFrame, requestIdle, whenFrameIsOut } from '../views/idle.js';

const { headsIdleWaitMs, idleJobMs, nearPx } = THRESHOLDS;

// On screen: within nearPx of the window, as the lesson's figures.
export function createViewScheduler({ rootMargin = `${nearPx}px 0px` } = {}) {
  const onScreen = new Set();
  const queue = new Map(); // name → { el, run }
  const cost = new Map(); // name → ms its last draw took
  let scheduled = false;
  let waitingSince = null; // when the first job was put off for want of idle time

  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              if (entry.isIntersecting) onScreen.add(entry.target);
              else onScreen.delete(entry.target);
            }
            // A view scrolled into sight while waiting: draw it first.
            if (queue.size) schedule();
          },
          { rootMargin },
        )
      : null;

  function runOne(name) {
    const job = queue.get(name);
    queue.delete(name);
    const start = performance.now();
    try {
      job.run();
    } catch (error) {
      // One broken panel must not take the page down; the others still draw.
      console.warn(`head view "${name}" failed`, error);
    }
    cost.set(name, performance.now() - start);
    // A User Timing measure per drawn view ('heads:split'…), for profiles; only the latest kept.
    performance.clearMeasures(`heads:${name}`);
    performance.measure(`heads:${name}`, { start });
  }

  // After the next frame is painted, in idle time (at the latest headsIdleWaitMs later), one view
  // per task.
  const later = (fn) => requestIdle(fn, { timeout: headsIdleWaitMs });
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => later(step));
  }

  // deadline: the idle callback's (emulated where there is no requestIdleCallback: views/idle.js).
  function step(deadline) {
    scheduled = false;
    if (!queue.size) return;
    const names = [...queue.keys()];
    const name = names.find((n) => onScreen.has(queue.get(n).el)) ?? names[0];
    const now = performance.now();
    if (idleHasRoom(deadline, cost.get(name) ?? idleJobMs, now - (waitingSince ?? now), headsIdleWaitMs)) {
      waitingSince = null;
      runOne(name);
    } else {
      waitingSince ??= now;
    }
    if (!queue.size) return;
    scheduled = true;
    whenFrameIsOut(() => later(step)); // a change came meanwhile: after its frame
  }

  return {
    track(el) {
      observer?.observe(el);
    },
    draw(name, el, run, now = false) {
      queue.set(name, { el, run });
      if (now || !observer) runOne(name);
      else if (onScreen.has(el)) {
        // In a task of its own just after the frame: frames come out in order, so the reader sees
        // the view change one frame after the part they acted on.
        frameComing();
        justAfterFrame(() => queue.has(name) && runOne(name));
      } else {
        frameComing();
        schedule();
      }
    },
    /** Forget a pending draw (its view is up to date after all). */
    forget(name) {
      queue.delete(name);
    },
    pending: () => queue.size,
  };
}
