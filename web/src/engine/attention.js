// The package's main export: scaled dot-product attention computed by the C++ core in
// WebAssembly, with every intermediate matrix handed to JavaScript.
//
//   const engine = await createAttention();
//   const result = engine.compute({ tokens: ['Your', 'journey'], dModel: 3, heads: 1 });
//   result.perHead[0].weights  // { rows: 2, cols: 2, data: Float32Array }
//
// The API is documented in README.md ("The JavaScript API"); types in attention.d.ts.
import { normaliseConfig } from './config.js';
import { BYTE_INPUT, HEAD_OUTPUT, INPUT, MODEL_OUTPUT, OPTION_NAMES } from './module-ids.js';
import { loadModule, pickBuild } from './load-module.js';

const invert = (table) => {
  const names = [];
  for (const [name, id] of Object.entries(table)) names[id] = name;
  return names;
};
// Name tables indexed by the core's output id (arrays, not objects: the lookups run once per
// matrix on every call, and a small forward takes only microseconds).
const MODEL_NAME = invert(MODEL_OUTPUT);
const ROW_STAT_NAME = invert({ rowMax: HEAD_OUTPUT.rowMax, rowSum: HEAD_OUTPUT.rowSum, entropy: HEAD_OUTPUT.entropy });
const HEAD_NAME = invert(HEAD_OUTPUT);

const SIMD_PATH_LABEL = {
  simd: (arch) => `xsimd ${arch} → wasm simd128`,
  scalar: () => 'scalar (no WebAssembly SIMD)',
};

/** Creates an engine. `build`: 'auto' (SIMD where the browser has it), 'simd' or 'scalar'. */
export async function createAttention({ build = 'auto' } = {}) {
  const chosen = await pickBuild(build);
  const module = await loadModule(chosen);
  return new AttentionEngine(module, chosen);
}

const sameStrings = (a, b) => a !== null && b !== null && a.length === b.length && a.every((s, i) => s === b[i]);

// compute()'s outputInto option: checked before anything runs, so a bad one changes nothing.
function checkOutputInto(outputInto, outputOnly, floats) {
  if (!outputOnly) throw new Error('outputInto works with outputOnly: true only');
  if (!(outputInto instanceof Float32Array) || outputInto.length !== floats) {
    throw new Error(`outputInto must be a Float32Array of T·dModel = ${floats} floats`);
  }
}

class AttentionEngine {
  #module;
  #core;
  #options = null;        // Float64Array over the core's settings block
  #lastTokens = null;     // the token lists the core holds, so unchanged ones are not re-sent
  #lastSourceTokens = null;
  #inputViews = [];       // per input id: { rows, cols, view } of the last input() call

  constructor(module, build) {
    // One core object for the engine's lifetime: it keeps its buffers between calls.
    this.#module = module;
    this.#core = new module.WasmEngine();
    this.info = Object.freeze({
      build,
      simdPath: SIMD_PATH_LABEL[build](module.simdArchName()),
      limits: Object.freeze({
        maxTokens: module.maxTokens,
        maxTokensOutputOnly: module.maxTokensOutputOnly,
        maxDModel: module.maxModelWidth,
      }),
    });
  }

  /**
   * Runs the forward pass. Throws an Error naming the problem for bad input; the engine stays
   * usable. Options:
   * - `outputOnly: true` — the forward-only path for large inputs: returns { T, Tk, dModel,
   *   heads, kvHeads, dK, output } and, for the query rows listed in `weightRows`, their
   *   attention weights per head (`rowWeights[h]`, weightRows.length × Tk). No T×T matrix is
   *   kept, so memory grows as O(T·dModel). Tokens may be omitted when embeddings are given.
   * - `implementation`: 'simd' (default) or 'reference' (the scalar reference implementation of
   *   the full path, for checking one against the other).
   * - `outputInto`: with outputOnly, a Float32Array of T·dModel floats that receives the output
   *   (and is returned as output.data) instead of a new array: a caller that runs large inputs
   *   again and again then allocates nothing per call (a fresh 256 KiB array cost 0.7 ms of a
   *   5 ms forward at T = 256, dModel = 256 in Node 20).
   * - `onProgress(fraction)`: called during the computation with the fraction done (0…1), for
   *   progress bars when computing in a worker.
   */
  compute(config, { implementation = 'simd', outputOnly = false, weightRows = [], outputInto = null, onProgress = null } = {}) {
    const c = normaliseConfig(config, { tokensOptional: outputOnly });
    if (outputInto !== null) checkOutputInto(outputInto, outputOnly, c.T * c.options.dModel);
    if (c.embeddings) this.#writeInput(INPUT.embeddings, c.embeddings);
    if (c.source?.embeddings) this.#writeInput(INPUT.sourceEmbeddings, c.source.embeddings);
    if (c.weightMatrices) {
      for (const name of ['wq', 'wk', 'wv', 'wo']) this.#writeInput(INPUT[name], c.weightMatrices[name]);
    }
    if (c.customMask) this.#core.byteInput(BYTE_INPUT.customMask, c.customMask.length).set(c.customMask);
    if (c.padding) this.#core.byteInput(BYTE_INPUT.padding, c.padding.length).set(c.padding);
    if (outputOnly) return this.#computeOutputOnly(c, weightRows, outputInto, onProgress);
    c.options.useReference = implementation === 'reference'; // (c is normaliseConfig's own copy)
    this.#writeOptions(c.options);
    const problem = this.#core.run(...this.#tokensToSend(c), onProgress);
    if (problem) throw new Error(problem);
    return this.#readResult(c);
  }

  /** Bytes of WebAssembly memory in use by the engine (it grows, and never shrinks). */
  memoryBytes() {
    return this.#module.HEAP8.length;
  }

  #writeOptions(options) {
    // A view over wasm memory is detached (length 0) when the memory grows: take a new one.
    if (this.#options === null || this.#options.length === 0) this.#options = this.#core.options();
    for (let i = 0; i < OPTION_NAMES.length; ++i) this.#options[i] = Number(options[OPTION_NAMES[i]]);
  }

  // The token lists for the core, or null where it already holds the same strings.
  #tokensToSend(c) {
    const source = c.source?.tokens ?? [];
    const tokens = sameStrings(c.tokens, this.#lastTokens) ? null : c.tokens;
    const sourceTokens = sameStrings(source, this.#lastSourceTokens) ? null : source;
    // After an anonymous run the core holds placeholder tokens: never treat them as known.
    this.#lastTokens = c.options.anonymousTokens > 0 ? null : [...c.tokens];
    this.#lastSourceTokens = [...source];
    return [tokens, sourceTokens];
  }

  #computeOutputOnly(c, weightRows, outputInto, onProgress) {
    if (!Array.isArray(weightRows) || !weightRows.every(Number.isInteger)) {
      throw new Error('weightRows must be an array of whole numbers (query rows)');
    }
    this.#writeOptions(c.options);
    const problem = this.#core.runOutputOnly(...this.#tokensToSend(c), weightRows, onProgress);
    if (problem) throw new Error(problem);
    const { T, options: { dModel, heads } } = c;
    const Tk = c.source ? c.source.tokens.length : T;
    const kvHeads = c.options.kvHeads || heads;
    // Copied out with slice(), as #readResult does: new Float32Array(view) of wasm memory took
    // four times as long in Node 20 (2.0 against 0.45 ms for the 2 MB output at T = 1024).
    const rowWeights = [];
    for (let h = 0; h < heads; ++h) {
      rowWeights.push({ rows: weightRows.length, cols: Tk, data: this.#core.outputOnly(-1, h).slice() });
    }
    const output = this.#core.outputOnly(MODEL_OUTPUT.output, 0);
    if (outputInto) outputInto.set(output);
    return {
      T, Tk, dModel, heads, kvHeads, dK: dModel / heads,
      output: { rows: T, cols: dModel, data: outputInto ?? output.slice() },
      weightRows: [...weightRows],
      rowWeights,
    };
  }

  // Writes an input matrix into the core's storage. The view over that storage is kept and reused
  // while the shape stays the same (the core then keeps the same buffer): one Embind call less per
  // matrix, which is a fifth of a (6, 3, 1) forward. A view goes stale only when wasm memory grows
  // (it is then detached: length 0).
  #writeInput(id, { rows, cols, data }) {
    let cached = this.#inputViews[id];
    if (!cached || cached.rows !== rows || cached.cols !== cols || cached.view.length !== rows * cols) {
      cached = { rows, cols, view: this.#core.input(id, rows, cols) };
      this.#inputViews[id] = cached;
    }
    cached.view.set(data);
  }

  // Copies every result out of wasm memory in one go (the core packs them into one array), so
  // the result stays valid after later calls; the matrices are views into that one copy.
  #readResult({ tokens, source, options }) {
    const { dModel, heads, positional, cross } = options;
    const packed = this.#core.packed().slice(); // slice(): the fastest copy of a same-type view
    const model = {};
    const perHead = Array.from({ length: heads }, () => ({}));
    const count = packed[0];
    let offset = 1 + 4 * count;
    for (let n = 0; n < count; ++n) {
      const h = 1 + 4 * n;
      const id = packed[h], head = packed[h + 1], rows = packed[h + 2], cols = packed[h + 3];
      // (the constructor, not subarray(): subarray looks up a species constructor each time)
      const data = new Float32Array(packed.buffer, 4 * offset, rows * cols);
      offset += rows * cols;
      if (MODEL_NAME[id] !== undefined) model[MODEL_NAME[id]] = { rows, cols, data };
      else if (ROW_STAT_NAME[id] !== undefined) perHead[head][ROW_STAT_NAME[id]] = data;
      else perHead[head][HEAD_NAME[id]] = { rows, cols, data };
    }
    const T = tokens.length || model.x.rows;
    const result = {
      T, Tk: model.k.rows, dModel, heads, kvHeads: options.kvHeads || heads, dK: dModel / heads,
      tokens: [...tokens],
      x: model.x, q: model.q, k: model.k, v: model.v, mask: model.mask,
      perHead,
      concat: model.concat, output: model.output,
      weights: { wq: model.wq, wk: model.wk, wv: model.wv, wo: model.wo },
    };
    if (cross) result.source = { tokens: [...source.tokens], x: model.xs };
    if (positional) {
      result.positions = model.positions;
      result.embeddings = model.embeddings;
    }
    return result;
  }
}

export { tokenize } from './tokenize.js';
