// Matrix ids of the Embind module; they mirror the enums in cpp/bindings/wasm_bindings.cpp.
export const INPUT = Object.freeze({ embeddings: 0, wq: 1, wk: 2, wv: 3, wo: 4 });

export const MODEL_OUTPUT = Object.freeze({
  x: 0, q: 1, k: 2, v: 3, concat: 4, output: 5, wq: 6, wk: 7, wv: 8, wo: 9,
});

export const HEAD_OUTPUT = Object.freeze({
  q: 10, k: 11, v: 12, scores: 13, masked: 14, weights: 15, context: 16,
});

// Codes of the core's enums (cpp/attention.hpp).
export const WEIGHTS_KIND = Object.freeze({ identity: 0, random: 1, explicit: 2 });
export const MASK_KIND = Object.freeze({ none: 0, causal: 1 });
