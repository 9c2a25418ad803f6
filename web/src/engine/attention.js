// The package's main export: scaled dot-product attention computed by the C++ core in
// WebAssembly, with every intermediate matrix handed to JavaScript.
//
//   const engine = await createAttention();
//   const result = engine.compute({ tokens: ['Your', 'journey'], dModel: 3, heads: 1 });
//   result.perHead[0].weights  // { rows: 2, cols: 2, data: Float32Array }
//
// The API is documented in README.md ("The JavaScript API"); types in attention.d.ts.
import { normaliseConfig } from './config.js';
import { BYTE_INPUT, HEAD_OUTPUT, INPUT, MODEL_OUTPUT } from './module-ids.js';
import { loadModule, pickBuild } from './load-module.js';

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

class AttentionEngine {
  #core;

  constructor(module, build) {
    // One core object for the engine's lifetime: it keeps its buffers between calls.
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
   */
  compute(config, { implementation = 'simd', outputOnly = false, weightRows = [] } = {}) {
    const c = normaliseConfig(config, { tokensOptional: outputOnly });
    if (c.embeddings) this.#writeInput(INPUT.embeddings, c.embeddings);
    if (c.source?.embeddings) this.#writeInput(INPUT.sourceEmbeddings, c.source.embeddings);
    if (c.weightMatrices) {
      for (const name of ['wq', 'wk', 'wv', 'wo']) this.#writeInput(INPUT[name], c.weightMatrices[name]);
    }
    if (c.customMask) this.#core.byteInput(BYTE_INPUT.customMask, c.customMask.length).set(c.customMask);
    if (c.padding) this.#core.byteInput(BYTE_INPUT.padding, c.padding.length).set(c.padding);
    if (outputOnly) return this.#computeOutputOnly(c, weightRows);
    const options = { ...c.options, useReference: implementation === 'reference' };
    const problem = this.#core.run(c.tokens, c.source?.tokens ?? [], options);
    if (problem) throw new Error(problem);
    return this.#readResult(c);
  }

  #computeOutputOnly(c, weightRows) {
    if (!Array.isArray(weightRows) || !weightRows.every(Number.isInteger)) {
      throw new Error('weightRows must be an array of whole numbers (query rows)');
    }
    const problem = this.#core.runOutputOnly(c.tokens, c.source?.tokens ?? [], c.options, weightRows);
    if (problem) throw new Error(problem);
    const { T, options: { dModel, heads } } = c;
    const Tk = c.source ? c.source.tokens.length : T;
    const kvHeads = c.options.kvHeads || heads;
    const rowWeights = [];
    for (let h = 0; h < heads; ++h) {
      rowWeights.push({ rows: weightRows.length, cols: Tk, data: new Float32Array(this.#core.outputOnly(-1, h)) });
    }
    return {
      T, Tk, dModel, heads, kvHeads, dK: dModel / heads,
      output: { rows: T, cols: dModel, data: new Float32Array(this.#core.outputOnly(MODEL_OUTPUT.output, 0)) },
      weightRows: [...weightRows],
      rowWeights,
    };
  }

  #writeInput(id, { rows, cols, data }) {
    this.#core.input(id, rows, cols).set(data);
  }

  // Copies every result out of wasm memory, so the result stays valid after later calls.
  #readResult({ tokens, source, options }) {
    const { dModel, heads, positional, cross } = options;
    const T = tokens.length;
    const Tk = cross ? source.tokens.length : T;
    const dK = dModel / heads;
    const kvHeads = options.kvHeads || heads;
    const copy = (id, head = 0) => new Float32Array(this.#core.output(id, head));
    const take = (id, rows, cols, head = 0) => ({ rows, cols, data: copy(id, head) });
    const perHead = [];
    for (let h = 0; h < heads; ++h) {
      perHead.push({
        q: take(HEAD_OUTPUT.q, T, dK, h),
        k: take(HEAD_OUTPUT.k, Tk, dK, h),
        v: take(HEAD_OUTPUT.v, Tk, dK, h),
        scores: take(HEAD_OUTPUT.scores, T, Tk, h),
        masked: take(HEAD_OUTPUT.masked, T, Tk, h),
        exps: take(HEAD_OUTPUT.exps, T, Tk, h),
        weights: take(HEAD_OUTPUT.weights, T, Tk, h),
        context: take(HEAD_OUTPUT.context, T, dK, h),
        rowMax: copy(HEAD_OUTPUT.rowMax, h),
        rowSum: copy(HEAD_OUTPUT.rowSum, h),
        entropy: copy(HEAD_OUTPUT.entropy, h),
      });
    }
    const result = {
      T, Tk, dModel, heads, kvHeads, dK,
      tokens: [...tokens],
      x: take(MODEL_OUTPUT.x, T, dModel),
      q: take(MODEL_OUTPUT.q, T, dModel),
      k: take(MODEL_OUTPUT.k, Tk, kvHeads * dK),
      v: take(MODEL_OUTPUT.v, Tk, kvHeads * dK),
      mask: take(MODEL_OUTPUT.mask, T, Tk),
      perHead,
      concat: take(MODEL_OUTPUT.concat, T, dModel),
      output: take(MODEL_OUTPUT.output, T, dModel),
      weights: {
        wq: take(MODEL_OUTPUT.wq, dModel, dModel),
        wk: take(MODEL_OUTPUT.wk, dModel, kvHeads * dK),
        wv: take(MODEL_OUTPUT.wv, dModel, kvHeads * dK),
        wo: take(MODEL_OUTPUT.wo, dModel, dModel),
      },
    };
    if (cross) result.source = { tokens: [...source.tokens], x: take(MODEL_OUTPUT.xs, Tk, dModel) };
    if (positional) {
      result.positions = take(MODEL_OUTPUT.positions, T, dModel);
      result.embeddings = take(MODEL_OUTPUT.embeddings, T, dModel);
    }
    return result;
  }
}
