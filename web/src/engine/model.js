// A pretrained model loaded from a Hugging Face folder, as engine.loadModel() returns it: the
// files are read here (headers first, then one tensor at a time straight into the core's storage);
// the blocks run in the core (cpp/model/). See docs/api.md, "Loading a model".
import { callCore, quoted } from './config.js';
import { architectureOf, coreModelConfig } from './model-config.js';
import { DTYPE_CODE, canonicalName, locateTensors, nameShards } from './model-files.js';
import { isByteSource, openSafetensors } from './safetensors.js';
import { loadTokenizer } from './tokenizer.js';

function fail(message) {
  throw new Error(message);
}

function throwIf(problem) {
  if (problem) fail(problem);
}

const OPTIONS = ['config', 'weights', 'index', 'tokenizer', 'tokenizerConfig'];
// A tensor's bytes cross into the module in chunks of this many bytes (kStagingBytes in
// cpp/bindings/model_bindings.cpp), a multiple of every element size.
const CHUNK_BYTES = 4 * 1024 * 1024;
const ITEM_BYTES = { F32: 4, F16: 2, BF16: 2 };

// The weight files as a list, each an ArrayBuffer, Uint8Array or Blob.
function weightSources(weights) {
  const list = Array.isArray(weights) ? weights : [weights];
  if (list.length === 0) fail('weights is an empty list: give model.safetensors, or every shard of a sharded model');
  list.forEach((source, i) => {
    if (!isByteSource(source)) {
      fail(
        `${Array.isArray(weights) ? `weights[${i}]` : 'weights'} must be the bytes of a .safetensors file: an ArrayBuffer, a Uint8Array or a Blob (got ${quoted(source)})`,
      );
    }
  });
  return list;
}

const copy = (rows, cols, view) => ({ rows, cols, data: view.slice() });

/**
 * Loads a model: `config` (the parsed config.json), `weights` (model.safetensors as an ArrayBuffer,
 * Uint8Array or Blob, or a list of the shards with `index`, the parsed model.safetensors.index.json),
 * optionally `tokenizer` (the parsed tokenizer.json) and `tokenizerConfig`. Anything wrong is refused
 * with an Error before the weights are read, and a failed load leaves nothing in the engine's memory.
 */
export async function loadModel(module, options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) fail('loadModel() needs { config, weights }');
  for (const name of Object.keys(options)) {
    if (!OPTIONS.includes(name)) fail(`unknown field ${quoted(name)}: use ${OPTIONS.join(', ')}`);
  }
  const { config, weights, index, tokenizer: tokenizerJson, tokenizerConfig } = options;
  const architecture = architectureOf(config);
  const sources = weightSources(weights);
  const parts = await Promise.all(sources.map((source, i) => openSafetensors(source, sources.length === 1 ? 'the weights' : `weights[${i}]`)));
  nameShards(parts, index);
  const lmHead = parts.some((part) => [...part.tensors.keys()].some((name) => canonicalName(name, architecture) === 'lm_head.weight'));
  const settings = coreModelConfig(config, architecture, { lmHead });
  throwIf(callCore(() => module.validateModelConfig(settings)));
  if (tokenizerJson === undefined && tokenizerConfig !== undefined) fail('tokenizerConfig goes with tokenizer: give the parsed tokenizer.json too');
  const tokenizer = tokenizerJson === undefined ? null : await loadTokenizer(tokenizerJson, tokenizerConfig);

  const core = new module.WasmModel();
  try {
    throwIf(callCore(() => core.open(settings)));
    const located = locateTensors(parts, core.tensors(), architecture, settings);
    located.forEach(({ dtype }, i) => core.setDtype(i, DTYPE_CODE[dtype]));
    throwIf(core.checkMemory());
    throwIf(callCore(() => core.allocateAll()));
    for (let i = 0; i < located.length; ++i) {
      const { part, name, dtype } = located[i];
      const bytes = await part.read(name);
      // into the module a chunk at a time: the core stores each as it goes (in the kernels' strips),
      // so the module never holds a second copy of a tensor
      for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
        const chunk = bytes.subarray(at, at + CHUNK_BYTES);
        throwIf(callCore(() => core.reserveStaging(chunk.length)));
        core.staging().set(chunk); // (a fresh view, after the allocation: the memory may have grown meanwhile)
        throwIf(callCore(() => core.writeTensor(i, at / ITEM_BYTES[dtype], chunk.length / ITEM_BYTES[dtype])));
      }
      throwIf(callCore(() => core.commitTensor(i)));
    }
    core.doneLoading();
  } catch (error) {
    core.delete();
    throw error;
  }
  return new Model(core, settings, tokenizer);
}

class Model {
  #core;
  #settings;

  constructor(core, settings, tokenizer) {
    this.#core = core;
    this.#settings = settings;
    const { architecture, layers, heads, kvHeads, dModel, vocabSize, contextLength } = settings;
    /** { architecture, layers, heads, kvHeads, dModel, dK, vocabSize, contextLength } */
    this.info = Object.freeze({ architecture, layers, heads, kvHeads, dModel, dK: dModel / heads, vocabSize, contextLength });
    /** The model's tokenizer ({ encode, decode }) when loadModel() was given tokenizer.json, else null. */
    this.tokenizer = tokenizer;
  }

  /**
   * The model on a sequence of token ids → { logits (T × vocabSize), layers: [{ input (the residual
   * stream entering the block, T × dModel), normed (what its attention sees), heads: [{ attention
   * (T × T), q, k, v (T × dK, q and k after RoPE) }] }] }.
   */
  run(ids) {
    const core = this.#live();
    if (!Array.isArray(ids)) fail('run() takes an array of token ids');
    const { vocabSize, layers, heads, kvHeads, dModel, dK } = this.info;
    const given = new Int32Array(ids.length); // (each id read once: the core reads this copy)
    for (let t = 0; t < given.length; ++t) {
      const id = ids[t];
      if (!Number.isInteger(id)) fail(`ids[${t}] must be a whole number (got ${quoted(id)})`);
      // (the core checks the range; past int32 it would not see the number given)
      if (Math.abs(id) >= 2 ** 31) fail(`ids[${t}] = ${id} is not a token of the vocabulary (0 to ${vocabSize - 1})`);
      given[t] = id;
    }
    const T = given.length;
    throwIf(callCore(() => core.reserveIds(T)));
    core.ids().set(given);
    throwIf(callCore(() => core.run()));
    const group = heads / kvHeads;
    return {
      logits: copy(T, vocabSize, core.logits()),
      layers: Array.from({ length: layers }, (_, l) => ({
        input: copy(T, dModel, core.layerInput(l)),
        normed: copy(T, dModel, core.layerNormed(l)),
        heads: Array.from({ length: heads }, (_, h) => ({
          attention: copy(T, T, core.attention(l, h)),
          q: copy(T, dK, core.headQ(l, h)),
          k: copy(T, dK, core.headK(l, Math.floor(h / group))),
          v: copy(T, dK, core.headV(l, Math.floor(h / group))),
        })),
      })),
    };
  }

  /**
   * Layer `layer` of a run as a compute() config: X = the layer's normed input, its W_Q, W_K, W_V,
   * W_O and biases, its RoPE, the causal mask. compute() then gives every head's map of the run.
   * `tokens`: labels for the rows (default "0", "1", …).
   */
  attentionConfig(run, layer, tokens) {
    const core = this.#live();
    const { layers, dModel, heads, kvHeads, architecture } = this.info;
    if (!Number.isInteger(layer) || layer < 0 || layer >= layers) fail(`layer must be a whole number from 0 to ${layers - 1} (got ${quoted(layer)})`);
    const normed = run?.layers?.[layer]?.normed;
    if (!normed || normed.cols !== dModel || !(normed.data instanceof Float32Array)) fail("attentionConfig() takes a result of this model's run()");
    const T = normed.rows;
    const labels = tokens ?? Array.from({ length: T }, (_, t) => String(t));
    if (!Array.isArray(labels) || labels.length !== T) fail(`tokens must be an array of ${T} strings, one per row`);
    throwIf(callCore(() => core.prepareAttentionWeights(layer)));
    const parts = core.attentionWeights();
    const matrix = (name, cols) => copy(dModel, cols, parts[name]);
    const kvWidth = kvHeads * (dModel / heads);
    const weights = { wq: matrix('wq', dModel), wk: matrix('wk', kvWidth), wv: matrix('wv', kvWidth), wo: matrix('wo', dModel) };
    const biases = Object.fromEntries(['bq', 'bk', 'bv', 'bo'].filter((name) => parts[name]).map((name) => [name, parts[name].slice()]));
    const config = { tokens: [...labels], dModel, heads, kvHeads, embeddings: normed, weights, biases, mask: 'causal' };
    if (architecture !== 'gpt2') Object.assign(config, { positional: 'rope', ropePairing: 'half', ropeTheta: this.#settings.ropeTheta });
    return config;
  }

  /** Frees the model's memory; later calls throw. */
  dispose() {
    this.#core?.delete();
    this.#core = null;
  }

  #live() {
    if (!this.#core) fail('this model was disposed');
    return this.#core;
  }
}
