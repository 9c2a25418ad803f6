// Model shapes for bench/model-compare.mjs and the .safetensors files it times, written with random
// weights straight to disk, one tensor at a time (never held whole in memory). Nothing here is
// committed: the files go to a temporary folder.
import { open } from 'node:fs/promises';

/** config.json of the shapes the bench runs (random weights; the shapes of the published models). */
export const SHAPES = {
  // openai-community/gpt2: 124 M parameters
  gpt2: {
    model_type: 'gpt2',
    n_layer: 12,
    n_embd: 768,
    n_head: 12,
    vocab_size: 50257,
    n_positions: 1024,
    layer_norm_epsilon: 1e-5,
    activation_function: 'gelu_new',
  },
  // HuggingFaceTB/SmolLM-135M: 30 layers, 9 heads, 3 key/value heads, 135 M parameters
  smollm: {
    model_type: 'llama',
    num_hidden_layers: 30,
    hidden_size: 576,
    num_attention_heads: 9,
    num_key_value_heads: 3,
    intermediate_size: 1536,
    vocab_size: 49152,
    max_position_embeddings: 2048,
    rms_norm_eps: 1e-5,
    rope_theta: 10000,
    tie_word_embeddings: true,
    hidden_act: 'silu',
  },
};

/** Every tensor of a model of `config`, [name, shape], as Hugging Face names them (tied unembedding). */
export function tensorShapes(config) {
  const out = [];
  if (config.model_type === 'gpt2') {
    const C = config.n_embd,
      F = config.n_inner ?? 4 * C;
    out.push(['wte.weight', [config.vocab_size, C]], ['wpe.weight', [config.n_positions, C]]);
    for (let l = 0; l < config.n_layer; ++l) {
      const h = `h.${l}.`;
      out.push([`${h}ln_1.weight`, [C]], [`${h}ln_1.bias`, [C]], [`${h}attn.c_attn.weight`, [C, 3 * C]], [`${h}attn.c_attn.bias`, [3 * C]]);
      out.push([`${h}attn.c_proj.weight`, [C, C]], [`${h}attn.c_proj.bias`, [C]], [`${h}ln_2.weight`, [C]], [`${h}ln_2.bias`, [C]]);
      out.push([`${h}mlp.c_fc.weight`, [C, F]], [`${h}mlp.c_fc.bias`, [F]], [`${h}mlp.c_proj.weight`, [F, C]], [`${h}mlp.c_proj.bias`, [C]]);
    }
    out.push(['ln_f.weight', [C]], ['ln_f.bias', [C]]);
    return out;
  }
  const C = config.hidden_size,
    kv = (config.num_key_value_heads * C) / config.num_attention_heads,
    F = config.intermediate_size;
  out.push(['model.embed_tokens.weight', [config.vocab_size, C]]);
  for (let l = 0; l < config.num_hidden_layers; ++l) {
    const a = `model.layers.${l}.`;
    out.push([`${a}input_layernorm.weight`, [C]], [`${a}self_attn.q_proj.weight`, [C, C]], [`${a}self_attn.k_proj.weight`, [kv, C]]);
    out.push([`${a}self_attn.v_proj.weight`, [kv, C]], [`${a}self_attn.o_proj.weight`, [C, C]], [`${a}post_attention_layernorm.weight`, [C]]);
    out.push([`${a}mlp.gate_proj.weight`, [F, C]], [`${a}mlp.up_proj.weight`, [F, C]], [`${a}mlp.down_proj.weight`, [C, F]]);
  }
  out.push(['model.norm.weight', [C]]);
  return out;
}

export const parameterCount = (config) => tensorShapes(config).reduce((n, [, shape]) => n + shape.reduce((a, d) => a * d, 1), 0);

// Random values like a trained model's scale: matrices uniform with standard deviation 0.02, norm
// gains about 1, biases small; a seeded generator so every run writes the same bytes.
function fill(name, values, seed) {
  let state = seed >>> 0;
  const gain = /(ln_\d|ln_f|norm|layernorm)\.weight$/.test(name);
  const spread = name.endsWith('.bias') ? 0.002 : 0.02 * Math.sqrt(3);
  for (let i = 0; i < values.length; ++i) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const u = state / 2 ** 31 - 1; // [−1, 1)
    values[i] = gain ? 1 + 0.1 * u : spread * u;
  }
}

// float32 → bfloat16 (round to nearest even) and float16 (round to nearest; these values are normal
// or round to zero), for the 16-bit copies of the same model.
function to16(values, dtype) {
  const bits = new Uint16Array(values.length);
  const u32 = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; ++i) {
    const x = u32[i];
    if (dtype === 'BF16') {
      bits[i] = (x + 0x7fff + ((x >>> 16) & 1)) >>> 16;
      continue;
    }
    const sign = (x >>> 16) & 0x8000,
      exponent = ((x >>> 23) & 0xff) - 127 + 15,
      mantissa = x & 0x7fffff;
    if (exponent <= 0)
      bits[i] = sign; // below float16's normal range: 0 (|x| < 6e-5, rare here)
    else {
      const rounded = (exponent << 10) + (mantissa >>> 13) + ((mantissa >>> 12) & 1);
      bits[i] = sign | Math.min(rounded, 0x7bff);
    }
  }
  return new Uint8Array(bits.buffer);
}

/** Writes a model of `config` in `dtype` (F32, BF16 or F16) to `path`; returns its size in bytes. */
export async function writeModel(path, config, dtype = 'F32') {
  const item = dtype === 'F32' ? 4 : 2;
  const header = { __metadata__: { format: 'pt' } };
  let offset = 0;
  for (const [name, shape] of tensorShapes(config)) {
    const bytes = item * shape.reduce((n, d) => n * d, 1);
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + json.length) % 8)) % 8); // the data starts 8-byte aligned, as writers do
  const file = await open(path, 'w');
  const length = new Uint8Array(8);
  new DataView(length.buffer).setBigUint64(0, BigInt(json.length), true);
  let at = 0;
  for (const chunk of [length, new TextEncoder().encode(json)]) {
    await file.write(chunk, 0, chunk.length, at);
    at += chunk.length;
  }
  let seed = 1;
  for (const [name, shape] of tensorShapes(config)) {
    const values = new Float32Array(shape.reduce((n, d) => n * d, 1));
    fill(name, values, seed++);
    const bytes = dtype === 'F32' ? new Uint8Array(values.buffer) : to16(values, dtype);
    await file.write(bytes, 0, bytes.length, at);
    at += bytes.length;
  }
  await file.close();
  return at;
}
