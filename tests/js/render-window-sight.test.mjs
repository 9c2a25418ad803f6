// render/window-sight.js's "near the window" under a fake IntersectionObserver: reports come when
// a test says where a target is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { THRESHOLDS } from '../../web/src/render/thresholds.js';

// The fake: each observer notes its margin and targets; report(target, isIntersecting) calls back
// every observer that observes target, as the browser does after a layout.
const observers = [];
globalThis.IntersectionObserver = class {
  constructor(callback, { rootMargin }) {
    Object.assign(this, { callback, rootMargin, targets: new Set(), observed: 0 });
    observers.push(this);
  }
  observe(target) {
    this.targets.add(target);
    this.observed += 1;
  }
  unobserve(target) {
    this.targets.delete(target);
  }
};
const report = (target, isIntersecting) => {
  for (const o of observers) if (o.targets.has(target)) o.callback([{ target, isIntersecting }]);
};
const { unwatchNear, watchNear } = await import('../../web/src/render/window-sight.js');

test('near the window: within nearPx of it by default, in it at a margin of 0, one observer per margin', () => {
  const [a, b] = [{ name: 'a' }, { name: 'b' }];
  const log = [];
  watchNear(a, (isNear) => log.push(`a near ${isNear}`));
  watchNear(b, (isNear) => log.push(`b near ${isNear}`));
  watchNear(a, (isIn) => log.push(`a in ${isIn}`), 0);
  assert.deepEqual(
    observers.map((o) => o.rootMargin),
    [`${THRESHOLDS.nearPx}px 0px`, '0px 0px'],
  );
  report(a, true);
  report(b, false);
  assert.deepEqual(log, ['a near true', 'a in true', 'b near false']);
});

test('a target watched again is observed anew (reported afresh) with its new listener; unwatched, it is not reported', () => {
  const c = { name: 'c' };
  const log = [];
  watchNear(c, () => log.push('old'));
  const near = observers.find((o) => o.targets.has(c));
  const observed = near.observed;
  watchNear(c, (isNear) => log.push(`new ${isNear}`));
  assert.equal(near.observed, observed + 1);
  report(c, true);
  assert.deepEqual(log, ['new true']);
  unwatchNear(c);
  report(c, false);
  assert.deepEqual(log, ['new true']);
  assert.equal(near.targets.has(c), false);
  unwatchNear(c, 0); // never watched at that margin: nothing to do
});
