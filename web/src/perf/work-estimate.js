// How much arithmetic a config asks for, to decide where to compute it and to show it. The FLOP
// count is the one the benchmark uses: 8·T·C² for the four projections (2 FLOPs per multiply-add,
// 4 products of C×C), 4·T·Tk·C for the scores and the weighted sum.
export function forwardFlops(T, Tk, C) {
  return 8 * T * C * C + 4 * T * Tk * C;
}

// Above this many FLOPs (about 4 ms of wasm SIMD at ~25 GFLOP/s, plus copying every T×T matrix
// to JavaScript) the page computes in a Web Worker so that typing never freezes.
export const WORKER_THRESHOLD_FLOPS = 1e8;

// Above this many entries per T×Tk intermediate (all heads) the worker computes too, however few
// the FLOPs: a full result holds several such matrices per head (scores, masked, weights…), and
// computing plus copying them to JavaScript takes over 50 ms on the page from about T = 256 with
// two heads (the default d_model = 6 never reaches the FLOP threshold below T ≈ 2000).
export const WORKER_THRESHOLD_ENTRIES = 1e5;

export function worthAWorker(T, Tk, C, heads = 1) {
  return forwardFlops(T, Tk, C) > WORKER_THRESHOLD_FLOPS || T * Tk * heads > WORKER_THRESHOLD_ENTRIES;
}

// Tiles of a FlashAttention trace (heads × query blocks × key tiles) past which its panel waits for
// a click: each tile becomes objects and arrays in JavaScript and a cell of the panel's drawing,
// a few microseconds each (T = 64, 24 heads, 1 × 1 tiles: 98 304 tiles, a 380 ms task).
export const TRACE_TILE_THRESHOLD = 8192;

export function traceTiles(T, Tk, heads, blockRows, blockKeys) {
  return heads * Math.ceil(T / blockRows) * Math.ceil(Tk / blockKeys);
}
