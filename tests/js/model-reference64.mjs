// An independent float64 forward pass of GPT-2, Llama and Qwen2 in JavaScript, from Hugging Face's
// formulas and tensor names (modeling_gpt2.py, modeling_llama.py, modeling_qwen2.py), to check
// what loadModel() and run() return end to end. Nothing is shared with the core.

const zeros = (rows, cols) => Array.from({ length: rows }, () => new Array(cols).fill(0));

// x·W for W stored [in, out] (Conv1D), x·Wᵀ for W stored [out, in] (nn.Linear); + b when given.
function linear(x, { shape, values }, outIn, bias) {
  const [rows, cols] = shape;
  const inputs = outIn ? cols : rows,
    outputs = outIn ? rows : cols;
  return x.map((row) =>
    Array.from({ length: outputs }, (_, j) => {
      let sum = bias ? bias.values[j] : 0;
      for (let i = 0; i < inputs; ++i) sum += row[i] * (outIn ? values[j * inputs + i] : values[i * outputs + j]);
      return sum;
    }),
  );
}

function layerNorm(x, g, b, eps) {
  return x.map((row) => {
    const mean = row.reduce((s, v) => s + v, 0) / row.length;
    const variance = row.reduce((s, v) => s + (v - mean) ** 2, 0) / row.length;
    return row.map((v, c) => ((v - mean) / Math.sqrt(variance + eps)) * g.values[c] + b.values[c]);
  });
}

function rmsNorm(x, g, eps) {
  return x.map((row) => {
    const meanSquare = row.reduce((s, v) => s + v * v, 0) / row.length;
    return row.map((v, c) => (v / Math.sqrt(meanSquare + eps)) * g.values[c]);
  });
}

const columns = (m, first, n) => m.map((row) => row.slice(first, first + n));

// rotate_half: dimension i turns with i + d/2 by t·θ^(−2i/d).
function rope(m, heads, dK, theta) {
  m.forEach((row, t) => {
    for (let h = 0; h < heads; ++h) {
      for (let i = 0; i < dK / 2; ++i) {
        const angle = t * theta ** ((-2 * i) / dK);
        const a = row[h * dK + i],
          b = row[h * dK + i + dK / 2];
        row[h * dK + i] = a * Math.cos(angle) - b * Math.sin(angle);
        row[h * dK + i + dK / 2] = b * Math.cos(angle) + a * Math.sin(angle);
      }
    }
  });
}

/**
 * The forward pass over `ids` of a model given by its config.json and weights (Map name → { shape,
 * values }) → { layers: [{ input, normed, heads: [{ attention, q, k, v }] }], logits }, number[][].
 */
export function modelForward64(config, weights, ids) {
  const w = (name) => weights.get(name);
  const gpt2 = config.model_type === 'gpt2';
  const T = ids.length;
  const C = gpt2 ? config.n_embd : config.hidden_size;
  const heads = gpt2 ? config.n_head : config.num_attention_heads;
  const kvHeads = gpt2 ? heads : config.num_key_value_heads;
  const layers = gpt2 ? config.n_layer : config.num_hidden_layers;
  const dK = C / heads;
  const embed = w(gpt2 ? 'wte.weight' : 'model.embed_tokens.weight');
  let x = ids.map((id, t) => Array.from({ length: C }, (_, c) => embed.values[id * C + c] + (gpt2 ? w('wpe.weight').values[t * C + c] : 0)));
  const out = { layers: [] };
  for (let l = 0; l < layers; ++l) {
    const p = gpt2 ? `h.${l}.` : `model.layers.${l}.`;
    const layer = { input: x.map((row) => [...row]), heads: [] };
    let q, k, v;
    if (gpt2) {
      layer.normed = layerNorm(x, w(`${p}ln_1.weight`), w(`${p}ln_1.bias`), config.layer_norm_epsilon ?? 1e-5);
      const qkv = linear(layer.normed, w(`${p}attn.c_attn.weight`), false, w(`${p}attn.c_attn.bias`));
      [q, k, v] = [0, 1, 2].map((i) => columns(qkv, i * C, C));
    } else {
      layer.normed = rmsNorm(x, w(`${p}input_layernorm.weight`), config.rms_norm_eps);
      q = linear(layer.normed, w(`${p}self_attn.q_proj.weight`), true, w(`${p}self_attn.q_proj.bias`));
      k = linear(layer.normed, w(`${p}self_attn.k_proj.weight`), true, w(`${p}self_attn.k_proj.bias`));
      v = linear(layer.normed, w(`${p}self_attn.v_proj.weight`), true, w(`${p}self_attn.v_proj.bias`));
      rope(q, heads, dK, config.rope_theta);
      rope(k, kvHeads, dK, config.rope_theta);
    }
    const concat = zeros(T, C);
    for (let h = 0; h < heads; ++h) {
      const g = Math.floor(h / (heads / kvHeads));
      const [qh, kh, vh] = [columns(q, h * dK, dK), columns(k, g * dK, dK), columns(v, g * dK, dK)];
      const attention = zeros(T, T);
      for (let i = 0; i < T; ++i) {
        const scores = kh.slice(0, i + 1).map((kj) => kj.reduce((s, kc, c) => s + qh[i][c] * kc, 0) / Math.sqrt(dK));
        const max = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - max));
        const sum = e.reduce((a, b) => a + b, 0);
        e.forEach((value, j) => {
          attention[i][j] = value / sum;
          for (let c = 0; c < dK; ++c) concat[i][h * dK + c] += attention[i][j] * vh[j][c];
        });
      }
      layer.heads.push({ attention, q: qh, k: kh, v: vh });
    }
    const add = (y) => {
      x = x.map((row, t) => row.map((value, c) => value + y[t][c]));
    };
    if (gpt2) {
      add(linear(concat, w(`${p}attn.c_proj.weight`), false, w(`${p}attn.c_proj.bias`)));
      const h2 = layerNorm(x, w(`${p}ln_2.weight`), w(`${p}ln_2.bias`), config.layer_norm_epsilon ?? 1e-5);
      const gelu = (u) => 0.5 * u * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (u + 0.044715 * u ** 3)));
      const hidden = linear(h2, w(`${p}mlp.c_fc.weight`), false, w(`${p}mlp.c_fc.bias`)).map((row) => row.map(gelu));
      add(linear(hidden, w(`${p}mlp.c_proj.weight`), false, w(`${p}mlp.c_proj.bias`)));
    } else {
      add(linear(concat, w(`${p}self_attn.o_proj.weight`), true, w(`${p}self_attn.o_proj.bias`)));
      const h2 = rmsNorm(x, w(`${p}post_attention_layernorm.weight`), config.rms_norm_eps);
      const up = linear(h2, w(`${p}mlp.up_proj.weight`), true);
      const gated = linear(h2, w(`${p}mlp.gate_proj.weight`), true).map((row, t) => row.map((g, j) => (g / (1 + Math.exp(-g))) * up[t][j]));
      add(linear(gated, w(`${p}mlp.down_proj.weight`), true));
    }
    out.layers.push(layer);
  }
  const final = gpt2
    ? layerNorm(x, w('ln_f.weight'), w('ln_f.bias'), config.layer_norm_epsilon ?? 1e-5)
    : rmsNorm(x, w('model.norm.weight'), config.rms_norm_eps);
  out.logits = linear(final, w('lm_head.weight') ?? embed, true);
  return out;
}
