// The package's main export: scaled dot-product attention computed by the C++ core in
// WebAssembly, with every intermediate matrix handed to JavaScript.
//
//   const engine = await createAttention();
//   const result = engine.compute({ tokens: ['Your', 'journey'], dModel: 3, heads: 1 });
//   result.perHead[0].weights  // { rows: 2, cols: 2, data: Float32Array }
//
// The API is documented in README.md ("The JavaScript API"); types in attention.d.ts.
import { engineFailure, isOwnError, normaliseConfig, quoted } from './config.js';
import { BYTE_INPUT, DECODE_OUTPUT, HEAD_OUTPUT, INPUT, MODEL_OUTPUT, OPTION_NAMES, POSITIONAL, TRACE_OUTPUT } from './module-ids.js';
import { attentionMemory, LONG_SEQUENCE } from './memory-figures.js';
import { loadModule, pickBuild } from './load-module.js';
import { Trainer, trainingEstimate } from './trainer.js';

const invert = (table) => {
  const names = [];
  for (const [name, id] of Object.entries(table)) names[id] = name;
  return names;
};
// Name tables indexed by the core's output id (arrays, not objects: the lookups run once per
// matrix on every call, and a small forward takes only microseconds).
const MODEL_NAME = invert(MODEL_OUTPUT);
const ROW_STAT_NAME = invert({
  rowMax: HEAD_OUTPUT.rowMax,
  rowSum: HEAD_OUTPUT.rowSum,
  entropy: HEAD_OUTPUT.entropy,
  weightSum: HEAD_OUTPUT.weightSum,
  laterWeight: HEAD_OUTPUT.laterWeight,
});
const HEAD_NAME = invert(HEAD_OUTPUT);
const TRACE_NAME = invert(TRACE_OUTPUT);
const DECODE_NAME = invert(DECODE_OUTPUT);

// The entries of a packed array ([n, n × (id, head, rows, cols), data…]) as { id, head, rows,
// cols, data } with data a view into `packed` (copied out of wasm memory already).
function* unpack(packed) {
  const count = packed[0];
  let offset = 1 + 4 * count;
  for (let n = 0; n < count; ++n) {
    const h = 1 + 4 * n;
    const rows = packed[h + 2],
      cols = packed[h + 3];
    yield { id: packed[h], head: packed[h + 1], rows, cols, data: new Float32Array(packed.buffer, 4 * offset, rows * cols) };
    offset += rows * cols;
  }
}

// The FlashAttention trace's flat arrays cut into tiles (see FlashTrace in cpp/attention.hpp).
function traceTiles(parts, heads, dK) {
  const perHead = Array.from({ length: heads }, (_, h) => ({ tiles: [], context: parts.context[h] }));
  const table = parts.tiles;
  let logit = 0,
    row = 0,
    partial = 0;
  for (let n = 0; n < table.rows; ++n) {
    const [head, row0, rows, key0, keys, skipped] = table.data.subarray(6 * n, 6 * n + 6);
    const tile = { row0, rows, key0, keys, skipped: skipped !== 0 };
    if (!tile.skipped) {
      tile.logits = { rows, cols: keys, data: parts.logits.data.subarray(logit, logit + rows * keys) };
      tile.max = parts.max.data.subarray(row, row + rows);
      tile.sum = parts.sum.data.subarray(row, row + rows);
      tile.rescale = parts.rescale.data.subarray(row, row + rows);
      tile.partial = { rows, cols: dK, data: parts.partial.data.subarray(partial, partial + rows * dK) };
      logit += rows * keys;
      row += rows;
      partial += rows * dK;
    }
    perHead[head].tiles.push(tile);
  }
  return perHead;
}

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

const IMPLEMENTATIONS = Object.freeze({ simd: true, reference: true });

// A list of whole numbers, checked index by index (every() would skip the holes of a sparse array);
// whether each is in range is the core's check.
function wholeNumbers(value, name) {
  if (!Array.isArray(value)) throw new Error(`${name} must be an array of whole numbers (query rows)`);
  const list = Array.from({ length: value.length }, (_, n) => value[n]); // (read once: the core reads the copy)
  for (let n = 0; n < list.length; ++n) {
    if (!Number.isInteger(list[n])) throw new Error(`${name}[${n}] must be a whole number (got ${quoted(list[n])})`);
  }
  return list;
}

// onProgress as the core calls it: an exception must not unwind through WebAssembly (it would skip
// the core's destructors and leak its stack), so it is caught here and stops the computation.
function guardedProgress(onProgress) {
  const guard = { callback: null, thrown: false, error: undefined };
  if (onProgress) {
    guard.callback = (fraction) => {
      try {
        onProgress(fraction);
        return true;
      } catch (error) {
        guard.thrown = true;
        guard.error = error;
        return false;
      }
    };
  }
  return guard;
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
  #options = null; // Float64Array over the core's settings block
  #lastTokens = null; // the token lists the core holds, so unchanged ones are not re-sent
  #lastSourceTokens = null;
  #inputViews = []; // per input id: { rows, cols, view } of the last input() call
  #running = false; // a call is in progress (a progress callback may not start another)
  #callersThrow = null; // { error }: what the caller's onProgress threw, passed on unchanged

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
        maxTokensTrace: module.maxTokensTrace,
        maxTokensDecode: module.maxTokensDecode,
        maxTraceTiles: module.maxTraceTiles,
        maxPositionOffset: module.maxPositionOffset,
        maxDModel: module.maxModelWidth,
        maxEntry: module.maxEntry,
        maxTokenBytes: module.maxTokenBytes,
        memoryBudgetBytes: module.memoryBudgetBytes,
        trainMemoryBudgetBytes: module.trainMemoryBudgetBytes,
        maxTrainLayers: module.maxTrainLayers,
        maxTrainWidth: module.maxTrainWidth,
        maxTrainContext: module.maxTrainContext,
        maxTrainBatch: module.maxTrainBatch,
        maxTrainVocab: module.maxTrainVocab,
        maxCallSeconds: module.maxCallSeconds,
      }),
    });
  }

  /**
   * Runs the forward pass. Throws an Error naming the problem for bad input (including a call
   * that would not fit the engine's memory: the message says what fits); the engine stays usable,
   * and after any failed call holds no more memory than it did at start. Options:
   * - `outputOnly: true` — the forward-only path for large inputs: returns { T, Tk, dModel,
   *   heads, kvHeads, dK, output } and, for the query rows listed in `weightRows`, their
   *   attention weights per head (`rowWeights[h]`, weightRows.length × Tk). No T×T matrix is
   *   kept, so memory grows as O(T·dModel). Tokens may be omitted when embeddings are given.
   * - `implementation`: 'simd' (default) or 'reference' (the scalar reference implementation of
   *   the full path, for checking one against the other).
   * - `outputInto`: with outputOnly, a Float32Array of T·dModel floats that receives the output
   *   (and is returned as output.data) instead of a new array: a caller that runs large inputs
   *   again and again then allocates nothing per call.
   * - `onProgress(fraction)`: called during the computation with the fraction done (0…1), for
   *   progress bars when computing in a worker. If it throws, the computation stops and compute()
   *   throws what it threw. It may not call compute() again.
   */
  compute(config, { implementation = 'simd', outputOnly = false, weightRows, outputInto = null, onProgress = null } = {}) {
    return this.#guarded(() => {
      if (!Object.hasOwn(IMPLEMENTATIONS, implementation)) {
        throw new Error(`unknown implementation ${quoted(implementation)}: use "simd" or "reference"`);
      }
      if (outputOnly && implementation !== 'simd')
        throw new Error('the forward-only path (outputOnly) has one implementation: leave out implementation');
      if (!outputOnly && weightRows !== undefined) throw new Error('weightRows works with outputOnly: true only');
      if (onProgress !== null && typeof onProgress !== 'function') throw new Error('onProgress must be a function (or null)');
      const rows = outputOnly ? wholeNumbers(weightRows ?? [], 'weightRows') : [];
      const c = normaliseConfig(config, { outputOnly, limits: this.info.limits });
      if (outputInto !== null) checkOutputInto(outputInto, outputOnly, c.T * c.options.dModel);
      c.options.useReference = implementation === 'reference'; // (c is normaliseConfig's own copy)
      c.options.weightRowCount = rows.length;
      this.#writeOptions(c.options);
      this.#throwIf(this.#core.check()); // sizes and memory, before anything is copied in
      this.#writeInputs(c);
      const progress = guardedProgress(onProgress);
      const problem = outputOnly
        ? this.#core.runOutputOnly(...this.#tokensToSend(c), rows, progress.callback)
        : this.#core.run(...this.#tokensToSend(c), progress.callback);
      if (progress.thrown) {
        this.#callersThrow = { error: progress.error }; // (thrown on as it is: it is the caller's own)
        throw progress.error;
      }
      this.#throwIf(problem);
      return outputOnly ? this.#readOutputOnly(c, rows, outputInto) : this.#readResult(c);
    });
  }

  /**
   * The forward-only path run with tiles of blockRows × blockKeys (1…64, T ≤ 64), every step
   * recorded: per head, its tiles over the T × Tk grid (Tk: the source's tokens in
   * cross-attention) in the order the path visits them, each { row0, rows, key0, keys, skipped }
   * and, unless skipped, its logits, the running max and sum after it, the rescale factor
   * e^(m_old − m_new) and the partial output. See README "The JavaScript API".
   */
  flashTrace(config, tile = {}) {
    return this.#guarded(() => {
      if (!tile || typeof tile !== 'object') throw new Error('flashTrace() needs the tile as { blockRows, blockKeys }');
      const { blockRows, blockKeys } = tile;
      for (const [name, value] of [
        ['blockRows', blockRows],
        ['blockKeys', blockKeys],
      ]) {
        if (!Number.isInteger(value)) throw new Error(`${name} must be a whole number (got ${quoted(value)})`);
      }
      const c = normaliseConfig(config, { limits: this.info.limits });
      Object.assign(c.options, { outputOnly: true, trace: true, blockRows, blockKeys });
      this.#writeOptions(c.options);
      this.#throwIf(this.#core.check());
      this.#writeInputs(c);
      this.#throwIf(this.#core.runTrace(...this.#tokensToSend(c)));
      const parts = { context: [] };
      for (const entry of unpack(this.#core.packed().slice())) {
        const name = TRACE_NAME[entry.id];
        const matrix = { rows: entry.rows, cols: entry.cols, data: entry.data };
        if (name === 'context') parts.context[entry.head] = matrix;
        else parts[name] = matrix;
      }
      const {
        T,
        options: { dModel, heads },
      } = c;
      const dK = dModel / heads;
      const Tk = c.source ? c.source.tokens.length : T; // (cross-attention: the source's tokens are the keys)
      const shape = { dModel, heads, blockRows, blockKeys };
      return {
        T,
        Tk,
        dModel,
        heads,
        kvHeads: c.options.kvHeads || heads,
        dK,
        blockRows,
        blockKeys,
        perHead: traceTiles(parts, heads, dK),
        output: parts.output,
        memory: { current: attentionMemory({ T, Tk, ...shape }), long: attentionMemory({ T: LONG_SEQUENCE, ...shape }) },
      };
    });
  }

  /**
   * Causal generation with a KV cache, one token per step (T ≤ 256): step t computes token t's
   * q, k, v and its attention row against the cache of tokens 0…t. Returns the rows (row t of
   * perHead[h].weights), the outputs, the final cache (after step t it holds rows 0…t), per step
   * the largest difference from the full causal pass and the multiply-adds with and without the
   * cache, and the cache's bytes per token per layer.
   */
  decode(config) {
    return this.#guarded(() => {
      const c = normaliseConfig(config, { limits: this.info.limits });
      c.options.decode = true;
      this.#writeOptions(c.options);
      this.#throwIf(this.#core.check());
      this.#writeInputs(c);
      this.#throwIf(this.#core.runDecode(this.#tokensToSend(c)[0]));
      const parts = { weights: [] };
      for (const entry of unpack(this.#core.packed().slice())) {
        const name = DECODE_NAME[entry.id];
        const matrix = { rows: entry.rows, cols: entry.cols, data: entry.data };
        if (name === 'weights') parts.weights[entry.head] = matrix;
        else parts[name] = matrix;
      }
      const counts = this.#core.decodeCounts().slice();
      const {
        T,
        options: { dModel, heads },
      } = c;
      return {
        T,
        dModel,
        heads,
        kvHeads: c.options.kvHeads || heads,
        dK: dModel / heads,
        tokens: [...c.tokens],
        perHead: parts.weights.map((weights) => ({ weights })),
        output: parts.output,
        kCache: parts.kCache,
        vCache: parts.vCache,
        difference: parts.difference.data,
        multiplyAdds: { cached: counts.subarray(0, T), uncached: counts.subarray(T, 2 * T) },
        cacheBytesPerToken: counts[2 * T],
      };
    });
  }

  /**
   * The vectors "one vector per token" gives `tokens` at `dModel` (no positions), computed without
   * running attention: for an editor of X. { rows, cols, data: Float32Array }.
   */
  tokenEmbeddings(tokens, dModel) {
    return this.#guarded(() => {
      const c = normaliseConfig({ tokens, dModel }, { limits: this.info.limits });
      this.#writeOptions(c.options);
      this.#throwIf(this.#core.check());
      this.#throwIf(this.#core.computeTokenEmbeddings(c.tokens)); // (the copy: the caller's array is not read again)
      return { rows: c.T, cols: c.options.dModel, data: this.#core.tokenEmbeddings().slice() };
    });
  }

  /**
   * A trainer of a tiny decoder-only transformer on a task, sharing this engine's module:
   * step(), evaluate(), run(), parameters(), setParameters(), lossAndGradients(), dispose().
   */
  createTrainer(options = {}) {
    return new Trainer(this.#module, options);
  }

  /**
   * What a trainer of `options` would cost, without making one: { bytes, stepSeconds } (the
   * estimate of one step on this build). Throws what createTrainer would throw.
   */
  trainingEstimate(options = {}) {
    return trainingEstimate(this.#module, options);
  }

  /**
   * A pretrained GPT-2, Llama or Qwen2 model from a Hugging Face folder's files, sharing this
   * engine's module: { info, tokenizer, run(ids), attentionConfig(run, layer), dispose() }
   * (web/src/engine/model.js, docs/api.md "Loading a model").
   */
  async loadModel(options) {
    const { loadModel } = await import('./model.js'); // (only pages that open a model load its code)
    return loadModel(this.#module, options);
  }

  /** Bytes of WebAssembly memory the engine has reserved (it grows, and never shrinks). */
  memoryBytes() {
    return this.#module.HEAP8.length;
  }

  /**
   * Bytes of that memory in use (by the engine and any trainer made from it): after a refused or
   * failed call, back to its value at start.
   */
  memoryInUse() {
    return this.#core.memoryInUse();
  }

  // One call at a time (a callback may not re-enter), and after a failure the core lets go of
  // what it holds and every view of its storage is dropped.
  #guarded(call) {
    if (this.#running) throw new Error('compute() was called from inside onProgress: wait until the running call returns');
    this.#running = true;
    try {
      return call();
    } catch (error) {
      this.#lastTokens = null;
      this.#lastSourceTokens = null;
      this.#inputViews = [];
      try {
        this.#core.release();
      } catch (releaseError) {
        throw engineFailure(releaseError);
      }
      const callers = this.#callersThrow;
      this.#callersThrow = null;
      throw isOwnError(error) || (callers && error === callers.error) ? error : engineFailure(error);
    } finally {
      this.#running = false;
    }
  }

  #throwIf(problem) {
    if (problem) throw new Error(problem);
  }

  // Every input's entries are read from the caller first (read(): checked, in JavaScript's own
  // arrays), then each is copied into the storage the core sized for it, through a view taken
  // after that allocation: no caller code and no allocation runs while a view is open.
  #writeInputs(c) {
    const matrices = [];
    if (c.embeddings) matrices.push([INPUT.embeddings, c.embeddings]);
    if (c.source?.embeddings) matrices.push([INPUT.sourceEmbeddings, c.source.embeddings]);
    if (c.weightMatrices) for (const name of ['wq', 'wk', 'wv', 'wo']) matrices.push([INPUT[name], c.weightMatrices[name]]);
    for (const name of ['bq', 'bk', 'bv', 'bo']) {
      if (c.biases[name]) matrices.push([INPUT[name], c.biases[name]]);
      else this.#inputViews[INPUT[name]] = undefined; // (a bias left out is dropped by the core, and with it the storage under its view)
    }
    const bytes = [];
    if (c.customMask) bytes.push([BYTE_INPUT.customMask, c.customMask]);
    if (c.padding) bytes.push([BYTE_INPUT.padding, c.padding]);
    const matrixData = matrices.map(([, source]) => source.read());
    const byteData = bytes.map(([, source]) => source.read());
    matrices.forEach(([id, source], n) => this.#writeInput(id, source, matrixData[n]));
    bytes.forEach(([id], n) => {
      this.#throwIf(this.#core.allocateBytes(id, byteData[n].length));
      this.#core.byteInput(id).set(byteData[n]);
    });
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

  #readOutputOnly(c, weightRows, outputInto) {
    const {
      T,
      options: { dModel, heads },
    } = c;
    const Tk = c.source ? c.source.tokens.length : T;
    const kvHeads = c.options.kvHeads || heads;
    // Copied out with slice(), as #readResult does: new Float32Array(view) is slower in V8.
    const rowWeights = [];
    for (let h = 0; h < heads; ++h) {
      rowWeights.push({ rows: weightRows.length, cols: Tk, data: this.#core.outputOnly(-1, h).slice() });
    }
    const output = this.#core.outputOnly(MODEL_OUTPUT.output, 0);
    if (outputInto) outputInto.set(output);
    return {
      T,
      Tk,
      dModel,
      heads,
      kvHeads,
      dK: dModel / heads,
      output: { rows: T, cols: dModel, data: outputInto ?? output.slice() },
      weightRows: [...weightRows],
      rowWeights,
    };
  }

  // Writes an input matrix into the core's storage. The view over that storage is kept and reused
  // while the shape stays the same (the core then keeps the same buffer): one Embind call less per
  // matrix, which is a fifth of a (6, 3, 1) forward. A view goes stale only when wasm memory grows
  // (it is then detached: length 0).
  #writeInput(id, { rows, cols }, data) {
    let cached = this.#inputViews[id];
    if (!cached || cached.rows !== rows || cached.cols !== cols || cached.view.length !== rows * cols) {
      this.#throwIf(this.#core.allocate(id, rows, cols));
      cached = { rows, cols, view: this.#core.input(id) };
      this.#inputViews[id] = cached;
    }
    cached.view.set(data);
  }

  // Copies every result out of wasm memory in one go (the core packs them into one array), so
  // the result stays valid after later calls; the matrices are views into that one copy.
  #readResult(c) {
    const { tokens, source, options } = c;
    const { dModel, heads, positional, cross, alibi } = options;
    const packed = this.#core.packed().slice(); // slice(): the fastest copy of a same-type view
    const model = {};
    const perHead = Array.from({ length: heads }, () => ({}));
    const count = packed[0];
    let offset = 1 + 4 * count;
    for (let n = 0; n < count; ++n) {
      const h = 1 + 4 * n;
      const id = packed[h],
        head = packed[h + 1],
        rows = packed[h + 2],
        cols = packed[h + 3];
      // (the constructor, not subarray(): subarray looks up a species constructor each time)
      const data = new Float32Array(packed.buffer, 4 * offset, rows * cols);
      offset += rows * cols;
      if (MODEL_NAME[id] !== undefined) model[MODEL_NAME[id]] = { rows, cols, data };
      else if (ROW_STAT_NAME[id] !== undefined) perHead[head][ROW_STAT_NAME[id]] = data;
      else if (id !== HEAD_OUTPUT.bias || alibi) perHead[head][HEAD_NAME[id]] = { rows, cols, data };
    }
    const T = tokens.length || model.x.rows;
    const result = {
      T,
      Tk: model.k.rows,
      dModel,
      heads,
      kvHeads: options.kvHeads || heads,
      dK: dModel / heads,
      tokens: [...tokens],
      x: model.x,
      q: model.q,
      k: model.k,
      v: model.v,
      mask: model.mask,
      perHead,
      concat: model.concat,
      output: model.output,
      weights: { wq: model.wq, wk: model.wk, wv: model.wv, wo: model.wo },
    };
    if (cross) result.source = { tokens: [...source.tokens], x: model.xs };
    if (positional === POSITIONAL.sinusoidal) {
      result.positions = model.positions;
      result.embeddings = model.embeddings;
    }
    if (positional === POSITIONAL.rope) result.ropeAngles = model.ropeAngles;
    if (alibi) result.alibiSlopes = model.alibiSlopes.data;
    const biases = Object.keys(c.biases);
    if (biases.length > 0) result.biases = Object.fromEntries(biases.map((name) => [name, model[name].data]));
    return result;
  }
}

export { tokenize } from './tokenize.js';
export { attentionMemory, kvCacheBytesPerToken, MODEL_SHAPES } from './memory-figures.js';
