// Ids of the Embind module, by name. The core reports its own (moduleIds() in
// cpp/bindings/wasm_bindings.cpp) and tests/js/engine-module-ids.test.mjs checks they are these.
export const INPUT = Object.freeze({ embeddings: 0, wq: 1, wk: 2, wv: 3, wo: 4, sourceEmbeddings: 5, bq: 6, bk: 7, bv: 8, bo: 9 });
export const BYTE_INPUT = Object.freeze({ customMask: 0, padding: 1 });

export const MODEL_OUTPUT = Object.freeze({
  x: 0,
  q: 1,
  k: 2,
  v: 3,
  concat: 4,
  output: 5,
  wq: 6,
  wk: 7,
  wv: 8,
  wo: 9,
  mask: 10,
  xs: 11,
  embeddings: 12,
  positions: 13,
  ropeAngles: 14,
  alibiSlopes: 15,
  bq: 16,
  bk: 17,
  bv: 18,
  bo: 19,
});

export const HEAD_OUTPUT = Object.freeze({
  q: 20,
  k: 21,
  v: 22,
  scores: 23,
  masked: 24,
  weights: 25,
  context: 26,
  rowMax: 27,
  rowSum: 28,
  entropy: 29,
  exps: 30,
  bias: 31,
  weightSum: 32,
  laterWeight: 33,
});

export const TRACE_OUTPUT = Object.freeze({
  tiles: 40,
  logits: 41,
  max: 42,
  sum: 43,
  rescale: 44,
  partial: 45,
  context: 46,
  output: 47,
});

export const DECODE_OUTPUT = Object.freeze({ kCache: 50, vCache: 51, weights: 52, output: 53, difference: 54 });

export const WEIGHTS_KIND = Object.freeze({ identity: 0, random: 1, explicit: 2 });
export const MASK_KIND = Object.freeze({ none: 0, causal: 1, window: 2, prefix: 3, custom: 4 });
export const POSITIONAL = Object.freeze({ none: 0, sinusoidal: 1, rope: 2 });
export const ROPE_PAIRING = Object.freeze({ adjacent: 0, half: 1 });

// The settings and sizes of one call, in the order of OptionIndex in cpp/bindings/wasm_bindings.cpp.
export const OPTION_NAMES = Object.freeze([
  'anonymousTokens',
  'dModel',
  'heads',
  'kvHeads',
  'hasEmbeddings',
  'weightsKind',
  'seed',
  'positional',
  'cross',
  'hasSourceEmbeddings',
  'mask',
  'window',
  'prefix',
  'hasCustomMask',
  'hasPadding',
  'maskFill',
  'maskBeforeScale',
  'scale',
  'temperature',
  'naiveSoftmax',
  'useReference',
  'tokenCount',
  'sourceTokenCount',
  'longestToken',
  'embeddingsRows',
  'embeddingsCols',
  'sourceEmbeddingsRows',
  'sourceEmbeddingsCols',
  'wqRows',
  'wqCols',
  'wkRows',
  'wkCols',
  'wvRows',
  'wvCols',
  'woRows',
  'woCols',
  'customMaskRows',
  'customMaskCols',
  'paddingLength',
  'outputOnly',
  'weightRowCount',
  'positionOffset',
  'alibi',
  'trace',
  'blockRows',
  'blockKeys',
  'decode',
  'softmaxOver',
  'bqLength',
  'bkLength',
  'bvLength',
  'boLength',
  'ropePairing',
  'ropeTheta',
]);
