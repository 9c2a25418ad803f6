// How much arithmetic a config asks for, to decide where to compute it and to show it. The FLOP
// count is the one the benchmark uses: 8·T·C² for the four projections (2 FLOPs per multiply-add,
// 4 products of C×C), 4·T·Tk·C for the scores and the weighted sum. The thresholds are the page's
// table's (render/thresholds.js).
import { THRESHOLDS } from '../render/thresholds.js';

export function forwardFlops(T, Tk, C) {
  return 8 * T * C * C + 4 * T * Tk * C;
}

/**
 * FLOPs per second of a computation of `flops` that took `ms`, or null where the figure would
 * mislead: the page's first computation (it includes warming the engine up), and any below
 * THRESHOLDS.rateFromFlops, whose time is mostly the call itself rather than arithmetic.
 */
export function flopRate({ flops, ms, first = false }) {
  if (first || flops < THRESHOLDS.rateFromFlops || !(ms > 0)) return null;
  return flops / (ms / 1000);
}

/** True when a run of this size would block the page: it goes to the worker (or, a panel's, waits for a click). */
export function worthAWorker(T, Tk, C, heads = 1, runs = 1) {
  return runs * forwardFlops(T, Tk, C) > THRESHOLDS.workerFlops || T * Tk * heads > THRESHOLDS.workerEntries;
}

/** Tiles a FlashAttention trace records: heads × query blocks × key tiles. */
export function traceTiles(T, Tk, heads, blockRows, blockKeys) {
  return heads * Math.ceil(T / blockRows) * Math.ceil(Tk / blockKeys);
}
