// When drawing work runs; it knows nothing of what is drawn. A job is keyed (a view, a panel, a
// name): a newer job of a key replaces its pending one, and a key waits in one way at a time:
//   now(key, run)         at once;
//   afterFrame(key, run)  in a task of its own just after the next frame: that frame shows the
//                         change without it, the frame after it shows its work;
//   idle(key, run)        in idle time after the frame that shows the latest change, when the idle
//                         period left covers what the key's job took last time, or once the jobs
//                         have waited idleWaitMs: every job runs in the end;
//   sliced(key, run)      in tasks of about sliceMs, so that none blocks; run() → true: more to do.
// Idle time and slices take the keys of the lowest rank(key) first (what is near the window).
// Chromium grants idle periods between an input's handler and the frame that shows it (2 to 50 ms
// in traces): a job started there runs to its end and pushes that frame back, hence frameComing.
import { THRESHOLDS } from './thresholds.js';

const { idleFitCapMs, emulatedIdleMs, idleJobMs, frameWaitMs } = THRESHOLDS;

/** batchMs: an idle callback starts no job past this (0: one job per callback); costCapMs: the
 *  most room a job waits for; firstCostMs: the room a job waits for before it ran once. A job that
 *  only handed its work on returns false: its time is not noted.
 *  → { now, afterFrame, idle, sliced, cancel, forget, flush(key?), waiting(lane?), keys(lane) } */
export function createScheduler({ idleWaitMs, batchMs = idleJobMs, costCapMs = Infinity, firstCostMs = idleJobMs, sliceMs = THRESHOLDS.sliceMs, rank = () => 0 }) {
  const lanes = { afterFrame: new Map(), idle: new Map(), sliced: new Map() }; // key → run
  const anyRoom = new Set(); // idle keys that run first in a callback whatever the room
  const cost = new Map(); // key → ms its last job took
  let idleAsked = false;
  let waitingSince = null; // when a job was first put off for want of idle time
  let sliceAsked = false;
  let slowest = 0; // ms the slowest sliced job took lately

  const cancel = (key) => Object.values(lanes).forEach((lane) => lane.delete(key));
  // Runs key's job (taken out of its lane first, unless sliced) and notes what it took.
  function run(key, job, note = true) {
    const start = performance.now();
    let result;
    try {
      result = job();
    } catch (error) {
      console.warn(`drawing ${typeof key === 'string' ? `"${key}"` : 'a view'} failed`, error); // the others still run
    }
    if (note && result !== false) cost.set(key, performance.now() - start);
    return result;
  }
  function take(lane, key) {
    const job = lane.get(key);
    lane.delete(key);
    return run(key, job);
  }
  function first(lane) {
    let best;
    let bestRank = Infinity;
    for (const key of lane.keys()) {
      const r = rank(key);
      if (best === undefined || r < bestRank) [best, bestRank] = [key, r];
    }
    return best;
  }

  function askIdle() {
    if (idleAsked) return;
    idleAsked = true;
    whenFrameIsOut(() => requestIdle(drainIdle, { timeout: idleWaitMs }));
  }
  function drainIdle(deadline) {
    idleAsked = false;
    const start = performance.now();
    let ran = 0;
    for (let key = first(lanes.idle); key !== undefined; key = first(lanes.idle)) {
      const costMs = Math.min(cost.get(key) ?? firstCostMs, costCapMs);
      const roomless = anyRoom.has(key) && ran === 0; // (the first job of this callback)
      if (!roomless && !idleHasRoom(deadline, costMs, performance.now() - (waitingSince ?? start), idleWaitMs)) {
        waitingSince ??= start;
        break;
      }
      waitingSince = null;
      take(lanes.idle, key);
      ran += 1;
      if (performance.now() - start >= batchMs) break; // an input arriving meanwhile waits little
    }
    if (lanes.idle.size) askIdle();
  }

  // One slice: jobs while the time spent plus what the slowest took lately stays under sliceMs
  // (at least one), then the next slice in a new task.
  function slice() {
    sliceAsked = false;
    const start = performance.now();
    while (lanes.sliced.size) {
      const key = first(lanes.sliced);
      const job = lanes.sliced.get(key);
      const before = performance.now();
      if (run(key, job, false) !== true && lanes.sliced.get(key) === job) lanes.sliced.delete(key);
      slowest = Math.max(slowest * 0.9, performance.now() - before);
      if (performance.now() - start + slowest >= sliceMs) break;
    }
    if (lanes.sliced.size && !sliceAsked) {
      sliceAsked = true;
      setTimeout(slice, 0);
    }
  }

  return {
    now(key, job) {
      cancel(key);
      run(key, job);
    },
    afterFrame(key, job) {
      const asked = lanes.afterFrame.has(key);
      cancel(key);
      lanes.afterFrame.set(key, job);
      if (!asked) justAfterFrame(() => lanes.afterFrame.has(key) && take(lanes.afterFrame, key));
    },
    /** `anyRoom`: the job runs first in an idle callback whatever room is left (a small one). */
    idle(key, job, { anyRoom: small = false } = {}) {
      cancel(key);
      lanes.idle.set(key, job);
      if (small) anyRoom.add(key);
      else anyRoom.delete(key);
      askIdle();
    },
    sliced(key, job) {
      cancel(key);
      lanes.sliced.set(key, job);
      if (!sliceAsked) {
        sliceAsked = true;
        setTimeout(slice, 0);
      }
    },
    cancel,
    /** Cancels key's job and forgets what it took (a key dropped for good). */
    forget(key) {
      cancel(key);
      cost.delete(key);
      anyRoom.delete(key);
    },
    /** Runs now what waits for the frame or idle time: key's job, or every job (before printing). */
    flush(key) {
      for (const lane of [lanes.afterFrame, lanes.idle]) {
        if (key === undefined) while (lane.size) take(lane, first(lane));
        else if (lane.has(key)) take(lane, key);
      }
    },
    /** Jobs waiting in one lane ('afterFrame', 'idle', 'sliced'), or in all. */
    waiting: (lane) => (lane ? lanes[lane].size : lanes.afterFrame.size + lanes.idle.size + lanes.sliced.size),
    keys: (lane) => [...lanes[lane].keys()],
  };
}

// ---- the browser's side, also used on their own ----

let framePending = false;
let frameGeneration = 0;
const frameWaiters = [];

/** A change waits for the next frame: idle jobs hold back until that frame has been rendered. A
 *  frame that is not rendered (a hidden tab; a cross-origin frame off screen, which Chromium
 *  throttles) holds them back for frameWaitMs at most: it then counts as out. */
export function frameComing() {
  if (framePending || typeof requestAnimationFrame !== 'function') return;
  framePending = true;
  const generation = ++frameGeneration;
  const out = () => {
    if (generation !== frameGeneration || !framePending) return;
    framePending = false; // runs as that frame starts; idle callbacks come after it is rendered
    for (const fn of frameWaiters.splice(0)) fn();
  };
  requestAnimationFrame(out);
  setTimeout(out, frameWaitMs);
}

/** Runs fn now when no change is waiting for its frame, else as that frame starts (so that an idle
 *  callback fn requests comes after it is rendered). */
export function whenFrameIsOut(fn) {
  if (framePending) frameWaiters.push(fn);
  else fn();
}

/** Runs fn in a task of its own just after the next frame is rendered (posted from that frame's
 *  animation callbacks). */
export function justAfterFrame(fn) {
  requestAnimationFrame(() => setTimeout(fn, 0));
}

/** True when the latest change's frame is out and an idle callback's `deadline` has room for a job
 *  that took `costMs` last time (capped: idle periods last 50 ms at most), or the job has waited
 *  `waitedMs` ≥ `maxWaitMs`. No deadline (a setTimeout fallback): true. A job refused while a frame
 *  is coming should ask again after it (whenFrameIsOut, then requestIdle), not spin until then. */
export function idleHasRoom(deadline, costMs, waitedMs, maxWaitMs) {
  if (!deadline?.timeRemaining || deadline.didTimeout || waitedMs >= maxWaitMs) return true;
  return !framePending && deadline.timeRemaining() >= Math.min(costMs, idleFitCapMs);
}

/** requestIdleCallback(fn, options) where the browser has it, else (Safari) the usual polyfill: a
 *  timeout whose deadline counts down from the longest idle period a browser grants. */
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
export function runSliced(steps, { sliceMs = THRESHOLDS.decodeSliceMs } = {}) {
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
