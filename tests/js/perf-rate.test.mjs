// The performance panel's arithmetic figures (web/src/perf/): the FLOPs of a computation as printed,
// and FLOP/s only where the time measures arithmetic rather than the call around it.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatFlops } from '../../web/src/perf/perf-panel.js';
import { flopRate, forwardFlops } from '../../web/src/perf/work-estimate.js';
import { THRESHOLDS } from '../../web/src/render/thresholds.js';

test('FLOPs print in whole FLOPs below a thousand, then with k, M and G', () => {
  assert.equal(formatFlops(forwardFlops(6, 6, 3)), '864 FLOP'); // the worked example
  assert.equal(formatFlops(forwardFlops(6, 6, 6)), '2.6 kFLOP');
  assert.equal(formatFlops(3.1e6), '3.1 MFLOP');
  assert.equal(formatFlops(4.3e9), '4.3 GFLOP');
});

test('no rate for the worked example, whose time is the call itself, nor for the first computation', () => {
  assert.equal(flopRate({ flops: forwardFlops(6, 6, 3), ms: 0.3 }), null);
  assert.equal(flopRate({ flops: THRESHOLDS.rateFromFlops - 1, ms: 1 }), null);
  assert.equal(flopRate({ flops: 1e9, ms: 200, first: true }), null);
  assert.equal(flopRate({ flops: 1e9, ms: 0 }), null);
});

test('from rateFromFlops on, the rate is the FLOPs over the time', () => {
  assert.equal(flopRate({ flops: THRESHOLDS.rateFromFlops, ms: 4 }), THRESHOLDS.rateFromFlops / 0.004);
  assert.equal(flopRate({ flops: forwardFlops(64, 64, 128), ms: 3.5 }), forwardFlops(64, 64, 128) / 0.0035);
  assert.ok(forwardFlops(64, 64, 128) >= THRESHOLDS.rateFromFlops); // the size perf.test.mjs reads a rate at
});
