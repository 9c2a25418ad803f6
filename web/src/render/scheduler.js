// When the page's drawing work runs: one scheduler for the whole page (`drawing`), which knows
// nothing of what is drawn. A job is keyed (a view, a panel, a name): a newer job of a key replaces
// its pending one, and a key waits in one way at a time:
//   now(key, run)         at once;
//   afterFrame(key, run)  in a task of its own just after the next frame: that frame shows the
//                         change without it, the frame after it shows its work;
//   idle(key, run, o)     in idle time after the frame that shows the latest change, when the idle
//                         period left covers what the key's job took last time, or once it has
//                         waited o.waitMs: every job runs in the end;
//   sliced(key, run)      in tasks of about sliceMs, so that none blocks; run() → true: more to do;
//   later(key, ms, run, o) as idle(key, run, o), once `ms` have passed without a newer job of key;
//   every(key, ms, run)   again and again (an animation), until cancelled.
// Idle time and slices take the keys of the lowest rank first (o.rank(): what is near the window).
// whenDrawn() resolves once no job waits and no tracked work (a computation, a link being read) is
// pending: the page then shows its current state.
// Chromium grants idle periods between an input's handler and the frame that shows it (2 to 50 ms
// in traces): a job started there runs to its end and pushes that frame back, hence frameComing.
import { THRESHOLDS } from './thresholds.js';

const { idleFitCapMs, emulatedIdleMs, idleJobMs, frameWaitMs, sliceMs, lessonIdleWaitMs } = THRESHOLDS;

/** A scheduler (the page makes one, `drawing`; tests make their own). */
export function createScheduler() {
  const lanes = { afterFrame: new Map(), idle: new Map(), sliced: new Map() }; // key → job
  const cost = new Map(); // key → ms its last job took
  const repeating = new Map(); // key → interval id
  const delayed = new Map(); // key → { timer, job }: jobs that go to the idle lane after a delay
  const tracked = new Set(); // promises of work the page waits for
  let emptyWaiters = [];
  let idleAsked = false;
  let sliceAsked = false;
  let slowest = 0; // ms the slowest sliced job took lately

  const waiting = () => lanes.afterFrame.size + lanes.idle.size + lanes.sliced.size;
  // Jobs the page is drawn only after (not background work, such as steps built ahead).
  const foreground = () => [...Object.values(lanes), delayed].some((lane) => [...lane.values()].some((job) => !(job.job ?? job).background));
  function checkEmpty() {
    if (!emptyWaiters.length || tracked.size || foreground()) return;
    const waiters = emptyWaiters;
    emptyWaiters = [];
    for (const resolve of waiters) resolve();
  }
  const cancel = (key) => {
    Object.values(lanes).forEach((lane) => lane.delete(key));
    if (delayed.has(key)) clearTimeout(delayed.get(key).timer);
    delayed.delete(key);
    if (repeating.has(key)) clearInterval(repeating.get(key));
    repeating.delete(key);
  };
  // Runs a job and notes what it took (unless it handed its work on: it returned false).
  function run(key, job, note = true) {
    const start = performance.now();
    let result;
    try {
      result = job.run();
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
    for (const [key, job] of lane) {
      const r = job.rank();
      if (best === undefined || r < bestRank) [best, bestRank] = [key, r];
    }
    return best;
  }

  // Idle time is asked for twice: an idle callback, and a background task where the browser has
  // them (after a click Chromium grants no idle period while nothing is drawn, for about a second).
  // The first to come drains the lane; the other finds it asked for no more.
  let idleTicket = 0;
  function askIdle() {
    if (idleAsked) return;
    idleAsked = true;
    const ticket = ++idleTicket;
    const now = performance.now();
    let timeout = Infinity;
    for (const job of lanes.idle.values()) timeout = Math.min(timeout, job.since + job.waitMs - now);
    const drain = (deadline) => idleAsked && ticket === idleTicket && drainIdle(deadline);
    whenFrameIsOut(() => {
      requestIdle(drain, { timeout: Math.max(1, timeout) });
      requestBackground(drain);
    });
  }
  function drainIdle(deadline) {
    idleAsked = false;
    const start = performance.now();
    let ran = 0;
    for (let key = first(lanes.idle); key !== undefined; key = first(lanes.idle)) {
      const job = lanes.idle.get(key);
      const costMs = Math.min(cost.get(key) ?? job.firstCostMs, job.costCapMs);
      const roomless = job.anyRoom && ran === 0; // (the first job of this callback)
      if (!roomless && !idleHasRoom(deadline, costMs, performance.now() - job.since, job.waitMs)) break;
      take(lanes.idle, key);
      ran += 1;
      if (performance.now() - start >= idleJobMs) break; // an input arriving meanwhile waits little
    }
    if (lanes.idle.size) askIdle();
    checkEmpty();
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
    checkEmpty();
  }

  const jobOf = (
    fn,
    { rank = () => 0, waitMs = lessonIdleWaitMs, costCapMs = Infinity, firstCostMs = idleJobMs, anyRoom = false, background = false } = {},
  ) => ({ run: fn, rank, waitMs, costCapMs, firstCostMs, anyRoom, background, since: performance.now() });

  return {
    now(key, fn) {
      cancel(key);
      run(key, jobOf(fn));
      checkEmpty();
    },
    afterFrame(key, fn, options) {
      const asked = lanes.afterFrame.has(key);
      cancel(key);
      lanes.afterFrame.set(key, jobOf(fn, options));
      if (!asked) {
        justAfterFrame(() => {
          if (lanes.afterFrame.has(key)) take(lanes.afterFrame, key);
          checkEmpty();
        });
      }
    },
    /** options: { waitMs, costCapMs, firstCostMs, rank, anyRoom (it runs first in an idle callback
     *  whatever room is left: a small one), background (whenDrawn() does not wait for it) }. */
    idle(key, fn, options) {
      cancel(key);
      lanes.idle.set(key, jobOf(fn, options));
      askIdle();
    },
    sliced(key, fn, options) {
      cancel(key);
      lanes.sliced.set(key, jobOf(fn, options));
      if (!sliceAsked) {
        sliceAsked = true;
        setTimeout(slice, 0);
      }
    },
    later(key, ms, fn, options) {
      cancel(key);
      const job = jobOf(fn, options);
      const timer = setTimeout(() => {
        delayed.delete(key);
        job.since = performance.now();
        lanes.idle.set(key, job);
        askIdle();
      }, ms);
      delayed.set(key, { timer, job });
    },
    /** run() as soon as the task that asked for it has ended (a microtask: after a focus() returns). */
    soon(fn) {
      queueMicrotask(() => run('soon', jobOf(fn), false));
    },
    /** run() every `ms` until cancel(key) (an animation: whenDrawn() does not wait for it). */
    every(key, ms, fn) {
      cancel(key);
      repeating.set(
        key,
        setInterval(() => run(key, jobOf(fn), false), ms),
      );
    },
    /** Drops key's job (from one lane only, when named). */
    cancel(key, lane) {
      if (lane) lanes[lane].delete(key);
      else cancel(key);
      checkEmpty();
    },
    /** Cancels key's job and forgets what it took (a key dropped for good). */
    forget(key) {
      cancel(key);
      cost.delete(key);
      checkEmpty();
    },
    /** Runs now what waits for the frame or idle time: key's job, or every job (before printing). */
    flush(key) {
      for (const lane of [lanes.afterFrame, lanes.idle]) {
        if (key === undefined) while (lane.size) take(lane, first(lane));
        else if (lane.has(key)) take(lane, key);
      }
      checkEmpty();
    },
    /** Animations running (every()). */
    animations: () => repeating.size,
    /** Jobs waiting in one lane ('afterFrame', 'idle', 'sliced'), or in all. */
    waiting: (lane) => (lane ? lanes[lane].size : waiting()),
    keys: (lane) => [...lanes[lane].keys()],
    /** Work the page is drawn only after (a computation in the worker, a link being read). → promise */
    track(promise) {
      tracked.add(promise);
      const done = () => {
        tracked.delete(promise);
        checkEmpty();
      };
      promise.then(done, done);
      return promise;
    },
    /** Resolves once no job waits and no tracked work is pending. */
    whenDrawn() {
      return new Promise((resolve) => {
        emptyWaiters.push(resolve);
        checkEmpty();
      });
    },
  };
}

/** The page's one scheduler. */
export const drawing = createScheduler();

// ---- the browser's side ----

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
  if (typeof requestAnimationFrame !== 'function') setTimeout(fn, 0);
  else requestAnimationFrame(() => setTimeout(fn, 0));
}

/** True when the latest change's frame is out and an idle callback's `deadline` has room for a job
 *  that took `costMs` last time (capped: idle periods last 50 ms at most), or the job has waited
 *  `waitedMs` ≥ `maxWaitMs`. No deadline (a setTimeout fallback): true. */
export function idleHasRoom(deadline, costMs, waitedMs, maxWaitMs) {
  if (!deadline?.timeRemaining || deadline.didTimeout || waitedMs >= maxWaitMs) return true;
  return !framePending && deadline.timeRemaining() >= Math.min(costMs, idleFitCapMs);
}

/** fn(deadline) in a task of the lowest priority (after input and rendering), where the browser
 *  has scheduler.postTask; the deadline counts down from the longest idle period a browser grants. */
export function requestBackground(fn) {
  globalThis.scheduler?.postTask?.(
    () => {
      const start = performance.now();
      fn({ didTimeout: false, timeRemaining: () => Math.max(0, emulatedIdleMs - (performance.now() - start)) });
    },
    { priority: 'background' },
  );
}

/** requestIdleCallback(fn, options) where the browser has it, else (Safari, Node) the usual
 *  polyfill: a timeout whose deadline counts down from the longest idle period a browser grants. */
export function requestIdle(fn, options) {
  if (typeof requestIdleCallback === 'function') return requestIdleCallback(fn, options);
  return setTimeout(() => {
    const start = performance.now();
    fn({ didTimeout: false, timeRemaining: () => Math.max(0, emulatedIdleMs - (performance.now() - start)) });
  }, 1);
}

/** Runs a step generator (one that yields every few milliseconds of work, e.g. state/url.js
 *  decodeSteps) in tasks of about `sliceMs` each, so that the page answers between them; the page
 *  counts as drawn only after it. → a Promise of the generator's value (rejected with what it throws). */
export function runSliced(steps, { sliceMs: budget = THRESHOLDS.decodeSliceMs } = {}) {
  return drawing.track(
    new Promise((resolve, reject) => {
      // A message to a port of one's own: a new task at once (nested timeouts wait 4 ms each).
      const channel = new MessageChannel();
      const slice = () => {
        const end = performance.now() + budget;
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
    }),
  );
}
