// Idle work that must not delay a frame. Chromium also grants idle periods between an input's
// handler and the frame that shows it (traces showed 2 to 50 ms allotted there): a job started in
// one runs to its end and pushes that frame back. So a job starts only
//   - once the frame that shows the latest change is out (frameComing() marks a change), and
//   - when the idle period left covers what the job took last time (capped: idle periods last
//     50 ms at most),
// or when it has waited long enough (or its callback timed out): every job runs in the end.
import { THRESHOLDS } from '../render/thresholds.js';

const { idleFitCapMs, emulatedIdleMs } = THRESHOLDS;
let framePending = false;

/** A change waits for the next frame: idle jobs hold back until that frame has been rendered. */
export function frameComing() {
  if (framePending || typeof requestAnimationFrame !== 'function') return;
  framePending = true;
  requestAnimationFrame(() => {
    framePending = false; // runs as that frame starts; idle callbacks come after it is rendered
  });
}

/** Runs fn now when no change is waiting for its frame, else as that frame starts (so that an idle
 *  callback fn requests comes after it is rendered). */
export function whenFrameIsOut(fn) {
  if (framePending) requestAnimationFrame(() => fn());
  else fn();
}

/** Runs fn in a task of its own just after the next frame is rendered (posted from that frame's
 *  animation callbacks): the frame shows a change without fn's work, and fn's work is on screen in
 *  the frame after it. */
export function justAfterFrame(fn) {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

/** True when the latest change's frame is out and an idle callback's `deadline` has room for a job
 *  that took `costMs` last time, or the job has waited `waitedMs` ≥ `maxWaitMs`. No deadline (a
 *  setTimeout fallback): true. A job refused while a frame is coming should ask again after it
 *  (requestAnimationFrame, then requestIdleCallback), not spin in idle callbacks until then. */
export function idleHasRoom(deadline, costMs, waitedMs, maxWaitMs) {
  if (!deadline?.timeRemaining || deadline.didTimeout || waitedMs >= maxWaitMs) return true;
  return !framePending && deadline.timeRemaining() >= Math.min(costMs, idleFitCapMs);
}

// Safari has no requestIdleCallback. There an idle period is emulated as the usual polyfill does:
// a timeout whose deadline counts down from the longest idle period a browser grants.

/** requestIdleCallback(fn, options) where the browser has it, else that emulation. */
export function requestIdle(fn, options) {
  if (typeof requestIdleCallback === 'function') return requestIdleCallback(fn, options);
  return setTimeout(() => {
    const start = performance.now();
    fn({ didTimeout: false, timeRemaining: () => Math.max(0, emulatedIdleMs - (performance.now() - start)) });
  }, 1);
}

/** Runs a step generator (one that yields every few milliseconds of work, e.g. state/url.js
 *  decodeSteps) in tasks of about `sliceMs` each, so that the page answers between them.
 *  → a Promise of the generator's value (rejected with what it throws). */
export function runSliced(steps, { sliceMs = 8 } = {}) {
  return new Promise((resolve, reject) => {
    // A message to a port of one's own: a new task at once (nested timeouts wait 4 ms each).
    const channel = new MessageChannel();
    const slice = () => {
      const end = performance.now() + sliceMs;
      try {
        for (;;) {
          const { done, value } = steps.next();
          if (done) {
            channel.port1.close();
            resolve(value);
            return;
          }
          if (performance.now() >= end) break;
        }
      } catch (error) {
        channel.port1.close();
        reject(error);
        return;
      }
      channel.port2.postMessage(null);
    };
    channel.port1.onmessage = slice;
    slice();
  });
}
