// Tiny Hugging Face models written by the tests themselves (nothing is downloaded): config.json
// objects at odd sizes, every tensor under its real name, and .safetensors files built byte by byte.
// Weight values are m/512 with |m| ≤ 255 (norm gains (192 + m)/256): at most 8 significant bits,
// so F32, F16 and BF16 files hold the very same numbers.

export const CONFIGS = {
  gpt2: {
    model_type: 'gpt2',
    n_layer: 2,
    n_embd: 15,
    n_head: 3,
    vocab_size: 11,
    n_positions: 9,
    n_inner: 23,
    layer_norm_epsilon: 1e-5,
    activation_function: 'gelu_new',
    tie_word_embeddings: true,
  },
  gpt2Narrow: { model_type: 'gpt2', n_layer: 1, n_embd: 5, n_head: 5, vocab_size: 7, n_positions: 7, n_inner: null },
  llama: {
    model_type: 'llama',
    num_hidden_layers: 2,
    hidden_size: 18,
    num_attention_heads: 3,
    num_key_value_heads: 1,
    vocab_size: 10,
    intermediate_size: 13,
    max_position_embeddings: 16,
    rms_norm_eps: 1e-6,
    rope_theta: 10000,
    tie_word_embeddings: true,
    hidden_act: 'silu',
    rope_scaling: null,
  },
  qwen2: {
    model_type: 'qwen2',
    num_hidden_layers: 2,
    hidden_size: 24,
    num_attention_heads: 6,
    num_key_value_heads: 2,
    vocab_size: 13,
    intermediate_size: 11,
    max_position_embeddings: 32,
    rms_norm_eps: 1e-6,
    rope_theta: 1000000,
    tie_word_embeddings: false,
    use_sliding_window: false,
  },
};

/** Every tensor of a model of `config` as Hugging Face names it: [name, shape]. */
export function tensorShapes(config, { lmHead = false } = {}) {
  const out = [];
  if (config.model_type === 'gpt2') {
    const C = config.n_embd,
      F = config.n_inner ?? 4 * C;
    out.push(['wte.weight', [config.vocab_size, C]], ['wpe.weight', [config.n_positions, C]]);
    for (let l = 0; l < config.n_layer; ++l) {
      const h = `h.${l}.`;
      out.push(
        [`${h}ln_1.weight`, [C]],
        [`${h}ln_1.bias`, [C]],
        [`${h}attn.c_attn.weight`, [C, 3 * C]],
        [`${h}attn.c_attn.bias`, [3 * C]],
        [`${h}attn.c_proj.weight`, [C, C]],
        [`${h}attn.c_proj.bias`, [C]],
        [`${h}ln_2.weight`, [C]],
        [`${h}ln_2.bias`, [C]],
        [`${h}mlp.c_fc.weight`, [C, F]],
        [`${h}mlp.c_fc.bias`, [F]],
        [`${h}mlp.c_proj.weight`, [F, C]],
        [`${h}mlp.c_proj.bias`, [C]],
      );
    }
    out.push(['ln_f.weight', [C]], ['ln_f.bias', [C]]);
    if (lmHead) out.push(['lm_head.weight', [config.vocab_size, C]]);
    return out;
  }
  const C = config.hidden_size,
    HS = C / config.num_attention_heads,
    kv = config.num_key_value_heads * HS,
    F = config.intermediate_size;
  out.push(['model.embed_tokens.weight', [config.vocab_size, C]]);
  for (let l = 0; l < config.num_hidden_layers; ++l) {
    const a = `model.layers.${l}.`;
    out.push(
      [`${a}input_layernorm.weight`, [C]],
      [`${a}self_attn.q_proj.weight`, [C, C]],
      [`${a}self_attn.k_proj.weight`, [kv, C]],
      [`${a}self_attn.v_proj.weight`, [kv, C]],
      [`${a}self_attn.o_proj.weight`, [C, C]],
      [`${a}post_attention_layernorm.weight`, [C]],
      [`${a}mlp.gate_proj.weight`, [F, C]],
      [`${a}mlp.up_proj.weight`, [F, C]],
      [`${a}mlp.down_proj.weight`, [C, F]],
    );
    if (config.model_type === 'qwen2') {
      out.push([`${a}self_attn.q_proj.bias`, [C]], [`${a}self_attn.k_proj.bias`, [kv]], [`${a}self_attn.v_proj.bias`, [kv]]);
    }
  }
  out.push(['model.norm.weight', [C]]);
  if (!config.tie_word_embeddings) out.push(['lm_head.weight', [config.vocab_size, C]]);
  return out;
}

/** Deterministic values for every tensor: Map(name → { shape, values: Float64Array }). */
export function tinyWeights(config, { seed = 5, lmHead = false } = {}) {
  let state = seed >>> 0;
  const next = (low, high) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return low + ((state >>> 8) % (high - low + 1));
  };
  const weights = new Map();
  for (const [name, shape] of tensorShapes(config, { lmHead })) {
    const gain = /(ln_\d|ln_f|norm|layernorm)\.weight$/.test(name);
    const values = Float64Array.from({ length: shape.reduce((n, d) => n * d, 1) }, () =>
      gain ? (192 + next(-64, 63)) / 256 : next(-255, 255) / 512,
    );
    weights.set(name, { shape, values });
  }
  return weights;
}

// float16 bits of a value it holds exactly (from the format's definition).
function float16Bits(v) {
  if (v === 0) return Object.is(v, -0) ? 0x8000 : 0;
  const sign = v < 0 ? 0x8000 : 0;
  const e = Math.floor(Math.log2(Math.abs(v)));
  return sign | ((e + 15) << 10) | Math.round((Math.abs(v) / 2 ** e - 1) * 1024);
}

/** The little-endian bytes of `values` as dtype F32, F16, BF16 (or F64, which the core refuses). */
export function encode(values, dtype) {
  if (dtype === 'F32') return new Uint8Array(Float32Array.from(values).buffer);
  if (dtype === 'F64') return new Uint8Array(Float64Array.from(values).buffer);
  const bits = new Uint16Array(values.length);
  const f32 = new Float32Array(1),
    u32 = new Uint32Array(f32.buffer);
  values.forEach((v, i) => {
    if (dtype === 'F16') bits[i] = float16Bits(v);
    else {
      f32[0] = v;
      bits[i] = u32[0] >>> 16; // bfloat16: the top half (exact for these values)
    }
  });
  return new Uint8Array(bits.buffer);
}

/**
 * A .safetensors file: [{ name, dtype, shape, bytes }] → Uint8Array. `header` rewrites the parsed
 * header before it is written (for broken files); `pad` spaces pad the JSON, as writers do to align.
 */
export function safetensorsFile(entries, { header: edit = (h) => h, metadata = { format: 'pt' }, pad = 0 } = {}) {
  let offset = 0;
  const header = { __metadata__: metadata };
  for (const { name, dtype, shape, bytes } of entries) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes.length] };
    offset += bytes.length;
  }
  const json = new TextEncoder().encode(JSON.stringify(edit(header)) + ' '.repeat(pad));
  const file = new Uint8Array(8 + json.length + offset);
  new DataView(file.buffer).setBigUint64(0, BigInt(json.length), true);
  file.set(json, 8);
  let at = 8 + json.length;
  for (const { bytes } of entries) {
    file.set(bytes, at);
    at += bytes.length;
  }
  return file;
}

/** The entries of a model's file: every weight in `dtype` (or dtypeOf(name)), names as `rename` gives them. */
export function modelEntries(weights, { dtype = 'F32', dtypeOf = () => dtype, rename = (name) => name } = {}) {
  return [...weights].map(([name, { shape, values }]) => ({ name: rename(name), dtype: dtypeOf(name), shape, bytes: encode(values, dtypeOf(name)) }));
}

/** A sharded model: the entries split into `count` files, and its index (weight_map by file name). */
export function shards(entries, count) {
  const files = Array.from({ length: count }, () => []);
  entries.forEach((entry, i) => files[Math.floor((i * count) / entries.length)].push(entry));
  const names = files.map((_, i) => `model-${String(i + 1).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.safetensors`);
  const weight_map = {};
  files.forEach((file, i) =>
    file.forEach(({ name }) => {
      weight_map[name] = names[i];
    }),
  );
  return { files: files.map((file) => safetensorsFile(file)), names, index: { metadata: { total_size: 0 }, weight_map } };
}

/** Ids for T tokens of a vocabulary of V. */
export const idsFor = (T, V) => Array.from({ length: T }, (_, t) => (t * 5 + 3) % V);
