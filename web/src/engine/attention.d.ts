// Types of the package's main export (written by hand: Emscripten 3.1.6 cannot emit them).

/** A row-major float32 matrix: element (r, c) is data[r * cols + c]. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** Either form is accepted wherever a matrix goes in. */
export type MatrixInput = number[][] | Matrix;

export interface AttentionConfig {
  /** The tokens: queries, and keys/values too unless `source` is given. 1…1024 of them. */
  tokens: string[];
  /** d_model, 1…1024. */
  dModel: number;
  /** Query heads; must divide dModel. Default 1. */
  heads?: number;
  /** Key/value heads; must divide heads (1 = multi-query). Default: as many as heads. */
  kvHeads?: number;
  /** T×dModel. Default: a deterministic vector per token string. */
  embeddings?: MatrixInput;
  /** Default "random" (uniform in ±1/√dModel from `seed`). Explicit wk, wv are dModel×(kvHeads·dK). */
  weights?: 'identity' | 'random' | { wq: MatrixInput; wk: MatrixInput; wv: MatrixInput; wo: MatrixInput };
  /** 0…2³²−1, default 0. The same seed gives the same bits in every build. */
  seed?: number;
  /** Default "causal". */
  mask?: 'none' | 'causal' | 'window' | 'prefix' | 'custom';
  /** For mask "window": each token sees itself and the w − 1 tokens before it. */
  window?: number;
  /** For mask "prefix": the first p tokens see each other; the rest is causal. */
  prefix?: number;
  /** For mask "custom": T×T_keys, true = masked. */
  customMask?: boolean[][];
  /** One entry per key token, true = padding (masked as a key on top of any mask kind). */
  padding?: boolean[];
  /** What M holds where masked: "-inf" (default) or a number in [−1e30, 0]. */
  maskFill?: '-inf' | number;
  /** (QKᵀ + M)/√d_k instead of QKᵀ/√d_k + M. Default false. */
  maskBeforeScale?: boolean;
  /** Divide scores by √d_k. Default true. */
  scale?: boolean;
  /** softmax(logits / τ), τ in [0.01, 100]. Default 1. */
  temperature?: number;
  /** e^s / Σ e^s without subtracting the row max (overflows for large scores). Default false. */
  naiveSoftmax?: boolean;
  /**
   * The axis the softmax normalises: "keys" (default: each query row sums to 1) or "queries"
   * (each key column sums to 1, the rows do not: a misconception, shown to see why it is wrong).
   * The full forward pass only (compute()).
   */
  softmaxOver?: 'keys' | 'queries';
  /**
   * Default "none". "sinusoidal" is added to X (and to the source); "rope" rotates q and k inside
   * each head: pairs of dimensions (ropePairing) by position·θ_p with θ_p = ropeTheta^(−2p/dK);
   * with adjacent pairs an odd dK leaves its last dimension unrotated. Self-attention only.
   */
  positional?: 'none' | 'sinusoidal' | 'rope';
  /** The first token's position, 0…1 000 000 (default 0): sinusoidal and RoPE count from it. */
  positionOffset?: number;
  /**
   * ALiBi: adds −m_h·|i − j| to head h's scaled scores (the paper's −m_h·(i − j) wherever a causal
   * mask lets a query see a key). Slopes of the paper's reference code: 2^(−8h/heads) for a power
   * of two, else interpolated. Self-attention only. Default false.
   */
  alibi?: boolean;
  /**
   * RoPE's pairing: "adjacent" (2p, 2p+1), the default, or "half" (p, p + dK/2), Hugging Face's
   * rotate_half as Llama and Qwen2 use it (needs an even dK).
   */
  ropePairing?: 'adjacent' | 'half';
  /** RoPE's base θ in θ_p = θ^(−2p/dK): above 1, at most 1e10 (default 10000; a model's rope_theta). */
  ropeTheta?: number;
  /**
   * Biases of the projections, each optional: Q = X·W_Q + bq (dModel numbers), K and V + bk, bv
   * (kvHeads·dK), output = concat·W_O + bo (dModel). As loaded models have them.
   */
  biases?: { bq?: number[] | Float32Array; bk?: number[] | Float32Array; bv?: number[] | Float32Array; bo?: number[] | Float32Array };
  /** Cross-attention: keys and values from these tokens. */
  source?: { tokens: string[]; embeddings?: MatrixInput };
}

export interface HeadResult {
  q: Matrix;        // T×dK  (rotated with RoPE: the head's columns of result.q are not)
  k: Matrix;        // Tk×dK (of this head's key/value head; rotated with RoPE)
  v: Matrix;        // Tk×dK
  scores: Matrix;   // T×Tk  QKᵀ/√dK
  bias?: Matrix;    // T×Tk  ALiBi's −m_h·|i − j|, with alibi
  masked: Matrix;   // T×Tk  scores + bias + M (−Infinity where masked with −∞)
  exps: Matrix;     // T×Tk  e^(z − max), z = masked/τ (naive: e^z); over queries the column's max
  weights: Matrix;  // T×Tk  softmax(masked/τ) = exps / rowSum
  context: Matrix;  // T×dK  weights·V
  rowMax: Float32Array;   // T: max of masked/τ per row
  rowSum: Float32Array;   // T: Σ e^(z − max) (naive: Σ e^z)
  entropy: Float32Array;  // T: −Σ a ln a, in nats
  weightSum: Float32Array;  // T: Σ_j a_ij (1 for a visible row unless softmaxOver is "queries")
  laterWeight: Float32Array;  // T: Σ_{j>i} a_ij, what row i takes from the keys after it
}

export interface AttentionResult {
  T: number;
  /** Number of keys: T, or the source's length in cross-attention. */
  Tk: number;
  dModel: number;
  heads: number;
  kvHeads: number;
  dK: number;
  tokens: string[];
  x: Matrix;        // T×dModel, positions included
  q: Matrix;        // T×dModel
  k: Matrix;        // Tk×(kvHeads·dK)
  v: Matrix;        // Tk×(kvHeads·dK)
  mask: Matrix;     // T×Tk, 1 = masked (the same for every head)
  perHead: HeadResult[];
  concat: Matrix;   // T×dModel
  output: Matrix;   // T×dModel
  weights: { wq: Matrix; wk: Matrix; wv: Matrix; wo: Matrix };
  source?: { tokens: string[]; x: Matrix };
  positions?: Matrix;   // T×dModel, with positional "sinusoidal"
  embeddings?: Matrix;  // T×dModel, X before positions, with positional "sinusoidal"
  /** T×⌊dK/2⌋, with positional "rope": the angle (positionOffset + t)·θ_p of pair p at token t. */
  ropeAngles?: Matrix;
  /** heads entries, with alibi: m_h. */
  alibiSlopes?: Float32Array;
  /** The biases given, as used. */
  biases?: { bq?: Float32Array; bk?: Float32Array; bv?: Float32Array; bo?: Float32Array };
}

/** One tile of the FlashAttention trace: queries row0…row0+rows−1 against keys key0…key0+keys−1. */
export interface FlashTile {
  row0: number;
  rows: number;
  key0: number;
  keys: number;
  /** Every pair hidden by a −∞ mask (causal, window, prefix, padding, custom cells): never computed, and none of the fields below. */
  skipped: boolean;
  logits?: Matrix;          // rows×keys  z = (scaled score + bias + M)/τ, −Infinity where masked
  max?: Float32Array;       // rows: the running max m after this tile (−Infinity while nothing was visible)
  sum?: Float32Array;       // rows: the running sum ℓ after this tile
  /** rows: e^(m_old − m_new), applied to the partial output and ℓ before this tile's keys are added (0 on a row's first visible tile, 1 while m stays). */
  rescale?: Float32Array;
  partial?: Matrix;         // rows×dK  the un-normalised output Σ e^(z − m)·v after this tile
}

/** Bytes one layer's attention keeps (see memory-figures.js). */
export interface AttentionMemory {
  T: number;
  /** Keys: T, or the source's tokens in cross-attention. */
  Tk: number;
  /** heads·T·Tk values: the ordinary path's score matrices, O(T²). */
  scoresBytes: number;
  /** heads·2T + Br·Bc values: running m and ℓ, and one tile, O(T). */
  tiledBytes: number;
  /** 2·(T + Tk)·dModel values: Q and the output, K and V, which both keep, O(T·d). */
  qkvoBytes: number;
}

export interface FlashTraceResult {
  /** Queries T and keys Tk (the source's tokens in cross-attention): the tiles cover T × Tk. */
  T: number; Tk: number; dModel: number; heads: number; kvHeads: number; dK: number;
  blockRows: number;
  blockKeys: number;
  /** Per head: its tiles in the order the path visits them (block of queries by block, tiles of keys left to right), and its output o/ℓ. */
  perHead: { tiles: FlashTile[]; context: Matrix /* T×dK */ }[];
  output: Matrix;           // T×dModel, the forward-only path's output
  /** For this T and Tk, and for T = Tk = 8192 with the same heads and tile (4-byte values). */
  memory: { current: AttentionMemory; long: AttentionMemory };
}

export interface DecodeResult {
  T: number; dModel: number; heads: number; kvHeads: number; dK: number;
  tokens: string[];
  /** Row t of weights (T×T) was computed at step t against the cache of tokens 0…t (0 after t). */
  perHead: { weights: Matrix }[];
  output: Matrix;           // T×dModel, row t computed at step t
  /** T×(kvHeads·dK) after the last step (keys rotated with RoPE); after step t it holds rows 0…t. */
  kCache: Matrix;
  vCache: Matrix;
  /** T: per step, the largest |incremental − full causal| over its weight rows and output row. */
  difference: Float32Array;
  /** T each: multiply-adds of step t with the cache (token t's projections and row) and without (the full causal pass over tokens 0…t). */
  multiplyAdds: { cached: Float64Array; uncached: Float64Array };
  /** 2·kvHeads·dK·4: K and V of one token in one layer, float32. */
  cacheBytesPerToken: number;
}

/** A published model's attention shape, from its config.json (`source`). */
export interface ModelShape {
  name: string;
  kind: 'multi-head' | 'grouped-query' | 'multi-query';
  layers: number; heads: number; kvHeads: number; dK: number; dModel: number;
  source: string;
}

export interface OutputOnlyResult {
  T: number;
  Tk: number;
  dModel: number;
  heads: number;
  kvHeads: number;
  dK: number;
  output: Matrix;          // T×dModel
  weightRows: number[];    // the query rows asked for
  rowWeights: Matrix[];    // per head: weightRows.length × Tk
}

export interface AttentionEngine {
  readonly info: {
    build: 'simd' | 'scalar';
    /** e.g. "xsimd sse4.1 → wasm simd128" */
    simdPath: string;
    limits: {
      maxTokens: number; maxTokensOutputOnly: number; maxDModel: number;
      /** T of flashTrace() (and its largest tile side) and of decode() */
      maxTokensTrace: number; maxTokensDecode: number;
      /** tiles one flashTrace() may record: heads × query blocks × key tiles */
      maxTraceTiles: number;
      maxPositionOffset: number;
      /** |entry| of embeddings and weights */
      maxEntry: number;
      /** UTF-8 bytes of one token string */
      maxTokenBytes: number;
      /** what one call may hold in the engine's memory; a call past it is refused, saying what fits */
      memoryBudgetBytes: number;
      /** what one trainer may hold (parameters, gradients, AdamW's moments, one batch's activations) */
      trainMemoryBudgetBytes: number;
      /** the estimated seconds one step(), evaluate() or createTrainer()'s step may take */
      maxCallSeconds: number;
    };
  };
  /** Bytes of WebAssembly memory the engine has reserved (it grows and never shrinks). */
  memoryBytes(): number;
  /** Bytes of that memory in use; after a refused or failed call, back to the value at start. */
  memoryInUse(): number;
  /**
   * Throws an Error naming the problem for bad input; the engine stays usable. onProgress may
   * not call compute(); if it throws, the computation stops and compute() throws what it threw.
   */
  compute(config: AttentionConfig, options?: {
    implementation?: 'simd' | 'reference';
    onProgress?: ((fraction: number) => void) | null;
  }): AttentionResult;
  /** The forward-only path: no T×T matrix kept; tokens may be omitted when embeddings are given. */
  compute(config: Omit<AttentionConfig, 'tokens'> & { tokens?: string[] }, options: {
    outputOnly: true;
    weightRows?: number[];
    /** T·dModel floats that receive the output (returned as output.data) instead of a new array. */
    outputInto?: Float32Array;
    onProgress?: ((fraction: number) => void) | null;
  }): OutputOnlyResult;
  /** The forward-only path with blockRows × blockKeys tiles (1…64, T ≤ 64), every step recorded. */
  flashTrace(config: AttentionConfig, options: { blockRows: number; blockKeys: number }): FlashTraceResult;
  /** Causal generation with a KV cache, one token per step (T ≤ 256, mask "causal", self-attention). */
  decode(config: AttentionConfig): DecodeResult;
  /** A trainer of a tiny decoder-only transformer on a task (docs/api.md "Training"). */
  createTrainer(config?: TrainerConfigInput): Trainer;
  /** What a trainer of `config` would cost, without making one; throws what createTrainer would. */
  trainingEstimate(config?: TrainerConfigInput): { bytes: number; stepSeconds: number };
  /** The vectors "one vector per token" gives these tokens (no positions), without running attention. */
  tokenEmbeddings(tokens: string[], dModel: number): Matrix;
  /**
   * A pretrained model from a Hugging Face folder's files (docs/api.md, "Loading a model"). Refuses
   * anything it cannot load with an Error before reading the weights; a failed load leaves nothing
   * in the engine's memory.
   */
  loadModel(options: LoadModelOptions): Promise<LoadedModel>;
}

/** A .safetensors file's bytes (a Blob is read one tensor at a time, never whole). */
export type WeightFile = ArrayBuffer | Uint8Array | Blob;

export interface LoadModelOptions {
  /** The parsed config.json; model_type "gpt2", "llama" (SmolLM too) or "qwen2". */
  config: Record<string, unknown>;
  /** model.safetensors, or every shard of a sharded model (in any order) with `index`. */
  weights: WeightFile | WeightFile[];
  /** The parsed model.safetensors.index.json of a sharded model. */
  index?: { weight_map: Record<string, string> };
  /** The parsed tokenizer.json: the model then has a tokenizer (read by @huggingface/tokenizers). */
  tokenizer?: Record<string, unknown>;
  /** The parsed tokenizer_config.json, with tokenizer. */
  tokenizerConfig?: Record<string, unknown>;
}

export interface ModelInfo {
  architecture: 'gpt2' | 'llama' | 'qwen2';
  layers: number;
  heads: number;
  kvHeads: number;
  dModel: number;
  dK: number;
  vocabSize: number;
  contextLength: number;
}

export interface ModelRun {
  logits: Matrix;  // T×vocabSize
  layers: {
    input: Matrix;   // T×dModel, the residual stream entering the block
    normed: Matrix;  // T×dModel, what its attention sees (LayerNorm or RMSNorm of input)
    heads: { attention: Matrix /* T×T */; q: Matrix; k: Matrix; v: Matrix /* T×dK, q and k after RoPE */ }[];
  }[];
}

export interface ModelTokenizer {
  encode(text: string, options?: { addSpecialTokens?: boolean }): { ids: number[]; tokens: string[] };
  decode(ids: number[], options?: { skipSpecialTokens?: boolean }): string;
}

export interface LoadedModel {
  readonly info: Readonly<ModelInfo>;
  /** With tokenizer.json given to loadModel(), else null. */
  readonly tokenizer: ModelTokenizer | null;
  /** 1 to contextLength token ids; bad ids are refused with an Error. */
  run(ids: number[]): ModelRun;
  /** Layer `layer` of a run as a compute() config whose heads' weights are the run's maps. */
  attentionConfig(run: ModelRun, layer: number, tokens?: string[]): AttentionConfig;
  /** Frees the model's memory; later calls throw. */
  dispose(): void;
}

export type TrainingTask = 'previous' | 'induction' | 'reverse' | 'sort' | 'text';

export interface TrainerConfig {
  task: TrainingTask;
  /** Token id i is vocab[i]; reverse and sort need the separator "|". */
  vocab: string[];
  contextLength: number;
  dModel: number;
  heads: number;
  layers: number;
  mlp: boolean;
  layerNorm: boolean;
  positions: 'none' | 'sinusoidal' | 'learned';
  learningRate: number;
  batchSize: number;
  seed: number;
}
export type TrainerConfigInput = Partial<TrainerConfig>;

export interface TrainerRun {
  logits: Matrix;            // T×V
  predictions: number[];     // the most likely next id at each position
  targets: number[];         // the task's right answers, −1 where it defines none
  layers: { input: Matrix /* the layer's h, what its attention sees */; heads: { attention: Matrix }[] }[];
}

export interface Trainer {
  readonly config: Readonly<TrainerConfig>;
  /** The core's estimate of one step's seconds on this build (from the model's FLOPs). */
  readonly stepSeconds: number;
  /** n AdamW steps on fresh batches; step counts every step since creation. Refused past about 2 s of work. */
  step(n?: number): { step: number; loss: number };
  /** Refused past about 2 s of work (the message says how many sequences fit). */
  evaluate(count?: number): { loss: number; accuracy: number };
  run(tokens: (number | string)[]): TrainerRun;
  /** By name: wte, wpe, layers.l.ln1.g, layers.l.wq, …, lnf.g, unembed (copies). */
  parameters(): Record<string, Matrix>;
  setParameters(params: Record<string, Matrix>): void;
  lossAndGradients(batch: { inputs: number[][]; targets: number[][] }): { loss: number; gradients: Record<string, Matrix> };
  dispose(): void;
}

export function createAttention(options?: { build?: 'auto' | 'simd' | 'scalar' }): Promise<AttentionEngine>;

/** What each way of computing attention keeps, from shapes alone (bytesPerValue default 4). */
export function attentionMemory(shape: { T: number; Tk?: number; dModel: number; heads: number; blockRows: number; blockKeys: number; bytesPerValue?: number }): AttentionMemory;
/** 2·kvHeads·dK·bytesPerValue (default 4): a decoder's KV cache per token and layer. */
export function kvCacheBytesPerToken(shape: { kvHeads: number; dK: number; bytesPerValue?: number }): number;
/** GPT-2 small, Llama 2 7B, Llama 3 8B (GQA), Mistral 7B (GQA), Falcon 7B (MQA). */
export const MODEL_SHAPES: readonly ModelShape[];

/**
 * Splits text into tokens: "whitespace" (default), "char" (grapheme clusters) or "word"
 * (Intl.Segmenter word segmentation, for Chinese and other text without spaces).
 */
export function tokenize(text: string, mode?: 'whitespace' | 'char' | 'word', locale?: string): string[];
