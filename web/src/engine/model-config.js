// config.json, as Hugging Face's transformers writes it, turned into the core's model config
// (cpp/model/model.hpp). This file checks types and refuses, by name, what the core does not
// compute (another model_type, rope_scaling, another activation…); the values — sizes, heads
// dividing d_model, ε, θ — are the core's to check.
import { quoted } from './config.js';

/** The architectures the core runs, by config.json's model_type. */
export const ARCHITECTURES = Object.freeze(['gpt2', 'llama', 'qwen2']);

function fail(message) {
  throw new Error(message);
}

/** config.json's model_type, one of ARCHITECTURES; anything else is refused by name. */
export function architectureOf(config) {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) fail('loadModel() needs config: the parsed config.json');
  const type = config.model_type;
  if (typeof type !== 'string') fail(`config.json has no model_type (got ${quoted(type)}): it says which architecture the weights are`);
  if (!ARCHITECTURES.includes(type)) {
    fail(`model_type ${quoted(type)} is not supported: the core runs "gpt2", "llama" (SmolLM too) and "qwen2"`);
  }
  return type;
}

// A field of config.json, or `fallback` where the file leaves it out (or, where transformers
// allows it, gives null).
function field(config, key, fallback, nullable = false) {
  const value = config[key];
  return value === undefined || (nullable && value === null) ? fallback : value;
}

function whole(config, key, fallback, nullable) {
  const value = field(config, key, fallback, nullable);
  if (!Number.isInteger(value) || Math.abs(value) >= 2 ** 31) fail(`config.json's ${key} must be a whole number (got ${quoted(value)})`);
  return value;
}

function number(config, key, fallback) {
  const value = field(config, key, fallback);
  if (typeof value !== 'number') fail(`config.json's ${key} must be a number (got ${quoted(value)})`);
  return value;
}

function flag(config, key, fallback) {
  const value = field(config, key, fallback);
  if (typeof value !== 'boolean') fail(`config.json's ${key} must be true or false (got ${quoted(value)})`);
  return value;
}

// A setting whose other values change the arithmetic in ways the core does not compute.
function only(config, key, fallback, allowed, why) {
  const value = field(config, key, fallback, true);
  if (!allowed.includes(value)) fail(`config.json's ${key} ${quoted(value)} is not supported: ${why}`);
}

function gpt2Config(config, { lmHead }) {
  only(config, 'activation_function', 'gelu_new', ['gelu_new', 'gelu_pytorch_tanh'], 'the core computes GPT-2\'s tanh GELU ("gelu_new")');
  only(config, 'scale_attn_weights', true, [true], 'the core divides the scores by √d_k');
  only(config, 'scale_attn_by_inverse_layer_idx', false, [false], "the core scales every layer's scores alike");
  only(config, 'add_cross_attention', false, [false], 'the core runs decoder-only models');
  const dModel = whole(config, 'n_embd');
  const heads = whole(config, 'n_head');
  return {
    architecture: 'gpt2',
    layers: whole(config, 'n_layer'),
    dModel,
    heads,
    kvHeads: heads,
    vocabSize: whole(config, 'vocab_size'),
    hidden: whole(config, 'n_inner', 4 * dModel, true),
    contextLength: whole(config, 'n_positions', config.n_ctx),
    normEpsilon: number(config, 'layer_norm_epsilon', 1e-5),
    ropeTheta: 10000,
    // GPT-2's unembedding is wte unless the file has an lm_head of its own
    tied: !lmHead,
    attentionBias: true,
    mlpBias: true,
  };
}

function llamaConfig(config, architecture) {
  only(config, 'hidden_act', 'silu', ['silu'], 'the core computes SwiGLU with SiLU');
  only(config, 'rope_scaling', null, [null], 'the core turns q and k by the plain rotary angles (position·θ^(−2i/d_k))');
  only(config, 'partial_rotary_factor', 1, [1], 'the core turns every dimension of a head');
  if (architecture === 'qwen2') only(config, 'use_sliding_window', false, [false], "the core's mask is causal over the whole sequence");
  const dModel = whole(config, 'hidden_size');
  const heads = whole(config, 'num_attention_heads');
  const headDim = field(config, 'head_dim', undefined, true);
  if (headDim !== undefined && headDim !== dModel / heads) {
    fail(
      `config.json's head_dim (${quoted(headDim)}) is not hidden_size / num_attention_heads (${dModel / heads}): the core's heads split d_model evenly`,
    );
  }
  return {
    architecture,
    layers: whole(config, 'num_hidden_layers'),
    dModel,
    heads,
    kvHeads: whole(config, 'num_key_value_heads', heads, true),
    vocabSize: whole(config, 'vocab_size'),
    hidden: whole(config, 'intermediate_size'),
    contextLength: whole(config, 'max_position_embeddings'),
    normEpsilon: number(config, 'rms_norm_eps', 1e-6),
    ropeTheta: number(config, 'rope_theta', 10000),
    tied: flag(config, 'tie_word_embeddings', false),
    // Qwen2 has q, k, v biases whatever attention_bias says (the core knows); Llama as configured
    attentionBias: architecture === 'llama' && flag(config, 'attention_bias', false),
    mlpBias: architecture === 'llama' && flag(config, 'mlp_bias', false),
  };
}

/**
 * The core's config from config.json (`architecture` from architectureOf). `lmHead`: the weights
 * hold lm_head.weight, which unties GPT-2's unembedding (Llama and Qwen2 say it in config.json).
 */
export function coreModelConfig(config, architecture, { lmHead }) {
  return architecture === 'gpt2' ? gpt2Config(config, { lmHead }) : llamaConfig(config, architecture);
}
