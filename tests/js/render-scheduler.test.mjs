// render/scheduler.js under a fake clock: frames, tasks and idle periods happen when a test says so,
// and time moves only when a job says what it took. (The page has one scheduler, `drawing`; each
// test makes a fresh one with the same factory.)
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { createScheduler, frameComing, idleHasRoom, requestIdle } from '../../web/src/render/scheduler.js';
import { THRESHOLDS } from '../../web/src/render/thresholds.js';

const { idleJobMs, sliceMs, frameWaitMs, emulatedIdleMs } = THRESHOLDS;

// A tiny fake clock: now (ms), animation callbacks, timeouts and idle callbacks waiting their turn.
const clock = { now: 0, frames: [], tasks: [], idles: [], late: [] };
const saved = {};
const fakes = {
  performance: { now: () => clock.now },
  requestAnimationFrame: (fn) => clock.frames.push(fn),
  // (a timeout of frameWaitMs or more waits in `late` until a test runs it)
  setTimeout: (fn, ms = 0) => (ms >= frameWaitMs ? clock.late : clock.tasks).push(fn),
  requestIdleCallback: (fn, { timeout }) => clock.idles.push({ fn, by: clock.now + timeout }),
};
beforeEach(() => {
  Object.assign(clock, { now: 0, frames: [], tasks: [], idles: [], late: [] });
  for (const [name, value] of Object.entries(fakes)) {
    saved[name] = Object.getOwnPropertyDescriptor(globalThis, name);
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  }
  frame(); // no frame left pending from the test before
});
afterEach(() => {
  for (const [name, descriptor] of Object.entries(saved)) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globalThis[name];
  }
});

/** A frame: its animation callbacks run (the timeouts they post run after it, in tasks()). */
function frame() {
  for (const fn of clock.frames.splice(0)) fn();
}
function tasks() {
  while (clock.tasks.length) clock.tasks.shift()();
}
/** An idle period of `ms` for each idle callback asked for (each counts down from its start). */
function idle(ms) {
  for (const { fn, by } of clock.idles.splice(0)) {
    const end = clock.now + ms;
    fn({ didTimeout: clock.now >= by, timeRemaining: () => Math.max(0, end - clock.now) });
  }
}
/** A job that takes `ms` and writes its name in `log`. */
const job =
  (log, name, ms = 1) =>
  () => {
    clock.now += ms;
    log.push(name);
  };

test('now runs at once; after the frame runs in a task after the next frame, not before', () => {
  const log = [];
  const s = createScheduler();
  s.afterFrame('b', job(log, 'b'));
  s.now('a', job(log, 'a'));
  assert.deepEqual(log, ['a']);
  tasks();
  assert.deepEqual(log, ['a'], 'nothing before the frame');
  frame();
  assert.deepEqual(log, ['a'], 'not in the frame itself');
  tasks();
  assert.deepEqual(log, ['a', 'b']);
});

test('a newer job of a key replaces its pending one, in whatever way it waited; cancel drops it', () => {
  const log = [];
  const s = createScheduler();
  s.afterFrame('v', job(log, 'old'));
  s.afterFrame('v', job(log, 'new'));
  s.afterFrame('w', job(log, 'w'));
  s.cancel('w');
  frame();
  tasks();
  assert.deepEqual(log, ['new'], 'one task for the key, running the newest job');
  s.idle('v', job(log, 'idle'));
  s.afterFrame('v', job(log, 'moved'));
  assert.equal(s.waiting('idle'), 0, 'a key waits in one way at a time');
  s.now('v', job(log, 'now'));
  frame();
  tasks();
  idle(50);
  assert.deepEqual(log, ['new', 'now']);
  assert.equal(s.waiting(), 0);
});

test('idle jobs wait for the frame that shows the latest change, then run by rank', () => {
  const log = [];
  const near = new Set(['c']);
  const s = createScheduler();
  const byRank = (key) => ({ rank: () => (near.has(key) ? 0 : 1) });
  frameComing();
  for (const key of ['a', 'b', 'c']) s.idle(key, job(log, key), byRank(key));
  assert.equal(clock.idles.length, 0, 'asked for only once the frame is out');
  frame();
  assert.equal(clock.idles.length, 1, 'one idle callback for all the jobs');
  idle(50);
  assert.deepEqual(log, ['c', 'a', 'b'], 'the near one first, then in the order they came');
});

test('an idle job starts only when the period has room for what it took last time', () => {
  const log = [];
  const s = createScheduler();
  s.idle('slow', job(log, 'slow', 12));
  idle(50); // never ran: guessed at idleJobMs, and 50 ms have room
  assert.deepEqual(log, ['slow']);
  s.idle('slow', job(log, 'slow again', 12));
  idle(10); // 10 ms left < the 12 it took
  assert.deepEqual(log, ['slow'], 'put off');
  assert.equal(clock.idles.length, 1, 'and asked again');
  idle(12);
  assert.deepEqual(log, ['slow', 'slow again']);
});

test('the maximum wait: a job put off for want of room runs once it has waited its waitMs', () => {
  const log = [];
  const s = createScheduler();
  s.idle('v', job(log, 'v'), { waitMs: 250 });
  for (let k = 0; k < 4; k++) {
    idle(1); // too short for the guessed idleJobMs
    clock.now += 50;
  }
  assert.deepEqual(log, [], 'waited 200 ms');
  clock.now += 50;
  idle(1);
  assert.deepEqual(log, ['v'], 'waited 250 ms: run anyway');
  // The browser's own timeout (didTimeout) runs it too.
  s.idle('w', job(log, 'w'), { waitMs: 250 });
  clock.now += 250;
  idle(0);
  assert.deepEqual(log, ['v', 'w']);
});

test('an idle callback starts no job past idleJobMs; the rest go to the next one', () => {
  const log = [];
  const s = createScheduler();
  for (const key of ['a', 'b', 'c', 'd']) s.idle(key, job(log, key, idleJobMs / 2 + 1));
  idle(50);
  assert.deepEqual(log, ['a', 'b'], `stopped once ${idleJobMs} ms were spent`);
  idle(50);
  assert.deepEqual(log, ['a', 'b', 'c', 'd']);
});

test('a job returning false (it handed its work on) leaves its last cost as it was', () => {
  const log = [];
  const s = createScheduler();
  s.idle('v', job(log, 'v', 20));
  idle(50);
  s.idle('v', () => {
    clock.now += 0.1;
    return false;
  });
  idle(50);
  s.idle('v', job(log, 'v2', 1));
  idle(15); // still judged by its 20 ms
  assert.deepEqual(log, ['v']);
  s.forget('v');
  assert.equal(s.waiting(), 0);
});

test('slices: the nearest first, in tasks of about sliceMs, a job kept while it has more to do', () => {
  const log = [];
  const near = new Set(['n']);
  const s = createScheduler();
  const byRank = (key) => ({ rank: () => (near.has(key) ? 0 : 1) });
  let steps = 2;
  s.sliced('a', job(log, 'a', 6), byRank('a'));
  s.sliced(
    'b',
    () => {
      clock.now += 6;
      log.push(`b${steps}`);
      return --steps > 0; // prepared: fill it next
    },
    byRank('b'),
  );
  s.sliced('c', job(log, 'c', 6), byRank('c'));
  s.sliced('n', job(log, 'n', 6), byRank('n'));
  assert.deepEqual(log, [], 'nothing before its task');
  assert.equal(clock.tasks.length, 1, 'one task asked for');
  const spans = [];
  while (clock.tasks.length) {
    const start = clock.now;
    clock.tasks.shift()();
    spans.push(clock.now - start);
  }
  assert.deepEqual(log, ['n', 'a', 'b2', 'b1', 'c']);
  for (const ms of spans) assert.ok(ms <= sliceMs, `a slice took ${ms} ms`);
  assert.ok(spans.length > 1);
});

test('a slice runs at least one job, and a cancelled key is left out', () => {
  const log = [];
  const s = createScheduler();
  s.sliced('big', job(log, 'big', sliceMs * 2));
  s.sliced('gone', job(log, 'gone'));
  s.sliced('small', job(log, 'small'));
  s.cancel('gone');
  assert.deepEqual(s.keys('sliced'), ['big', 'small']);
  tasks();
  assert.deepEqual(log, ['big', 'small']);
  assert.equal(s.waiting('sliced'), 0);
});

test('flush runs now what waits for the frame or idle time (before printing), one key or all', () => {
  const log = [];
  const s = createScheduler();
  s.idle('panel', job(log, 'panel'));
  s.afterFrame('table', job(log, 'table'));
  s.idle('canvas', job(log, 'canvas'));
  s.flush('canvas');
  assert.deepEqual(log, ['canvas']);
  s.flush();
  assert.deepEqual(log, ['canvas', 'table', 'panel']);
  frame();
  tasks();
  idle(50);
  assert.equal(log.length, 3, 'nothing runs twice');
});

test('a failing job is reported and the others still run', (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const log = [];
  const s = createScheduler();
  s.idle('bad', () => {
    throw new Error('broken');
  });
  s.idle('good', job(log, 'good'));
  idle(50);
  assert.deepEqual(log, ['good']);
  assert.equal(warn.mock.callCount(), 1);
});

test('idleHasRoom: no deadline, a timeout or the maximum wait mean yes; a coming frame means no', () => {
  const period = (ms) => ({ didTimeout: false, timeRemaining: () => ms });
  assert.equal(idleHasRoom(undefined, 100, 0, 1000), true);
  assert.equal(idleHasRoom({ didTimeout: true, timeRemaining: () => 0 }, 10, 0, 1000), true);
  assert.equal(idleHasRoom(period(5), 10, 1000, 1000), true);
  assert.equal(idleHasRoom(period(5), 10, 0, 1000), false);
  assert.equal(idleHasRoom(period(45), 100, 0, 1000), true, 'room needed is capped (idle periods last 50 ms at most)');
  frameComing();
  assert.equal(idleHasRoom(period(45), 1, 0, 1000), false);
  frame();
  assert.equal(idleHasRoom(period(45), 1, 0, 1000), true);
});

test('a change whose frame never comes (a throttled frame) holds idle work back for frameWaitMs only', () => {
  const log = [];
  const s = createScheduler();
  frameComing();
  s.idle('a', job(log, 'a'), { waitMs: 100000 });
  idle(50);
  assert.deepEqual(log, [], 'not while the frame is coming');
  for (const fn of clock.late.splice(0)) fn(); // frameWaitMs later, still no frame
  idle(50);
  assert.deepEqual(log, ['a']);
  // A timer of an earlier change does not let a new change's frame out.
  frameComing();
  const [earlier] = clock.late.splice(0);
  frame(); // that change's frame came
  frameComing(); // a new change
  s.idle('b', job(log, 'b'), { waitMs: 100000 });
  earlier();
  idle(50);
  assert.deepEqual(log, ['a'], 'b waits for the new frame');
  frame();
  idle(50);
  assert.deepEqual(log, ['a', 'b']);
});

test('an idle job marked anyRoom runs first in a callback whatever room is left; the others wait for room', () => {
  const log = [];
  const s = createScheduler();
  s.idle('small', job(log, 'small'), { anyRoom: true, waitMs: 100000 });
  s.idle('big', job(log, 'big'), { waitMs: 100000 });
  idle(0); // no room at all
  assert.deepEqual(log, ['small']);
  idle(50);
  assert.deepEqual(log, ['small', 'big']);
});

// (Safari: the lesson's far canvases, steps prepared ahead and the fonts' warm-up run this way;
// lesson.test.mjs checks that the page then looks as it does with requestIdleCallback.)
test('without requestIdleCallback an idle job runs in a timeout, with a deadline counting down from emulatedIdleMs', () => {
  delete globalThis.requestIdleCallback;
  const deadlines = [];
  requestIdle(
    (deadline) => {
      deadlines.push([deadline.didTimeout, deadline.timeRemaining()]);
      clock.now += 30;
      deadlines.push([deadline.didTimeout, deadline.timeRemaining()]);
      clock.now += 30;
      deadlines.push([deadline.didTimeout, deadline.timeRemaining()]);
    },
    { timeout: 1000 },
  );
  assert.deepEqual(deadlines, []);
  tasks();
  assert.deepEqual(deadlines, [
    [false, emulatedIdleMs],
    [false, emulatedIdleMs - 30],
    [false, 0],
  ]);
  // A scheduler's idle jobs, after the change's frame: every one of them runs, by rank.
  const log = [];
  const s = createScheduler();
  const byRank = (key) => ({ rank: () => (key === 'near' ? 0 : 1) });
  frameComing();
  s.idle('far', job(log, 'far'), byRank('far'));
  s.idle('near', job(log, 'near'), byRank('near'));
  tasks();
  assert.deepEqual(log, [], 'not before the frame that shows the change');
  frame();
  for (let k = 0; k < 5 && log.length < 2; k += 1) tasks();
  assert.deepEqual(log, ['near', 'far']);
});

test('whenDrawn: once no job of the page waits and no tracked work is pending; background jobs and animations are not waited for', async () => {
  const log = [];
  const s = createScheduler();
  let drawn = false;
  s.whenDrawn().then(() => (drawn = true));
  await Promise.resolve();
  assert.equal(drawn, true, 'nothing waiting: at once');
  drawn = false;
  s.afterFrame('view', job(log, 'view'));
  s.idle('ahead', job(log, 'ahead'), { background: true });
  s.every('play', 1000, job(log, 'tick'));
  let settle;
  s.track(new Promise((resolve) => (settle = resolve)));
  s.whenDrawn().then(() => (drawn = true));
  frame();
  tasks();
  await Promise.resolve();
  assert.equal(drawn, false, 'a computation is still pending');
  settle();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(drawn, true, 'the view drawn and the computation done; the job ahead and the animation are not waited for');
  assert.deepEqual(log, ['view']);
  s.cancel('play');
});

test('later: a job that goes to idle time once its delay has passed without a newer one', () => {
  const log = [];
  const s = createScheduler();
  s.later('address', 250, job(log, 'first'));
  s.later('address', 250, job(log, 'second'));
  assert.equal(clock.tasks.length + clock.late.length, 2, 'each asked for a timer…');
  while (clock.tasks.length) clock.tasks.shift()();
  idle(50);
  assert.deepEqual(log, ['second'], '…but only the newest job runs');
});
