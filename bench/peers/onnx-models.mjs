// GPT-2 and Llama (SmolLM) as ONNX graphs of standard ops (opset 17), built by hand from the same
// weights our engine loads, for onnxruntime-web to run the same blocks (bench/model-compare.mjs).
// Tensors are 2-D (T, ·) with T fixed (axes are written as 1, not −1: onnx-proto.mjs writes
// non-negative varints only); every linear layer is a Gemm on the weight as the file
// stores it (GPT-2's Conv1D [in, out]; nn.Linear [out, in] with transB), as an exporter writes it.
//
//   GPT-2:  x = Gather(wte, ids) + Gather(wpe, 0…T−1)
//           per layer: h = LayerNormalization(x); q | k | v = Gemm(h, c_attn) split;
//                      per head softmax(q·kᵀ/√d + causal M)·v; x += Gemm(·, c_proj);
//                      x += Gemm(gelu_tanh(Gemm(LayerNormalization(x), c_fc)), c_proj)
//           logits = Gemm(LayerNormalization(x), wte, transB)
//   Llama:  the same with RMSNorm (x/√(mean(x²) + ε)·g), q, k, v turned by rotate-half RoPE (cos
//           and sin tables as constants), key/value heads repeated to the query heads (Expand),
//           SwiGLU (silu(Gemm(h, gate))·Gemm(h, up), then down), no biases, tied unembedding.
import { attrFloat, attrInt, attrInts, model, node, tensor, valueInfo } from './onnx-proto.mjs';

export function causalMask(T) {
  const m = new Float32Array(T * T);
  for (let i = 0; i < T; ++i) m.fill(-Infinity, i * T + i + 1, (i + 1) * T);
  return m;
}

const scalar = (value) => Float32Array.of(value);

// A small graph-writing helper: unique names, nodes and initializers collected in order.
function graph() {
  const nodes = [];
  const initializers = [];
  let n = 0;
  const g = {
    nodes,
    initializers,
    op(type, inputs, attributes = [], domain = '') {
      const out = `t${n++}`;
      nodes.push(node(type, inputs, [out], attributes, domain));
      return out;
    },
    ops(type, inputs, count, attributes = []) {
      const outs = Array.from({ length: count }, () => `t${n++}`);
      nodes.push(node(type, inputs, outs, attributes));
      return outs;
    },
    constant(name, dims, values) {
      initializers.push(tensor(name, dims, values));
      return name;
    },
  };
  return g;
}

// softmax(q·kᵀ/√HS + M)·v per head; q, k, v (T, NH·HS) → (T, NH·HS).
function attention(g, q, k, v, { T, NH, HS }) {
  const split = g.constant(`split_shape_${g.nodes.length}`, [3], [T, NH, HS]);
  const heads = (x, perm) => g.op('Transpose', [g.op('Reshape', [x, split])], [attrInts('perm', perm)]);
  const scores = g.op('MatMul', [heads(q, [1, 0, 2]), heads(k, [1, 2, 0])]);
  const masked = g.op('Add', [g.op('Mul', [scores, 'inv_sqrt_hs']), 'mask']);
  const weights = g.op('Softmax', [masked], [attrInt('axis', 2)]);
  const context = g.op('MatMul', [weights, heads(v, [1, 0, 2])]);
  return g.op('Reshape', [g.op('Transpose', [context], [attrInts('perm', [1, 0, 2])]), 'merge_shape']);
}

function finish(g, { T, C, HS }, output) {
  g.constant('inv_sqrt_hs', [], scalar(1 / Math.sqrt(HS)));
  g.constant('mask', [T, T], causalMask(T));
  g.constant('merge_shape', [2], [T, C]);
  return model({
    nodes: g.nodes,
    initializers: g.initializers,
    inputs: [valueInfo('ids', [T], 'int64')],
    outputs: [valueInfo(output, [T, g.vocab])],
    opsets: { '': 17 },
  });
}

/** The ONNX model of a GPT-2 of `config` (config.json) with `weights` (name → Float32Array) for T tokens. */
export function gpt2Model(config, weights, T) {
  const C = config.n_embd,
    NH = config.n_head,
    HS = C / NH,
    F = config.n_inner ?? 4 * C,
    eps = config.layer_norm_epsilon ?? 1e-5;
  const g = graph();
  g.vocab = config.vocab_size;
  const w = (name, dims) => g.constant(name, dims, weights.get(name));
  const layerNorm = (x, prefix) =>
    g.op('LayerNormalization', [x, w(`${prefix}.weight`, [C]), w(`${prefix}.bias`, [C])], [attrInt('axis', 1), attrFloat('epsilon', eps)]);
  const gemm = (x, prefix, dims) => g.op('Gemm', [x, w(`${prefix}.weight`, dims), w(`${prefix}.bias`, [dims[1]])]);
  const positions = g.constant(
    'positions',
    [T],
    Array.from({ length: T }, (_, t) => t),
  );
  let x = g.op('Add', [
    g.op('Gather', [w('wte.weight', [config.vocab_size, C]), 'ids']),
    g.op('Gather', [w('wpe.weight', [config.n_positions, C]), positions]),
  ]);
  g.constant('split_qkv', [3], [C, C, C]);
  for (const [name, value] of [
    ['half', 0.5],
    ['one', 1],
    ['cubic', 0.044715],
    ['sqrt_2_over_pi', Math.sqrt(2 / Math.PI)],
  ])
    g.constant(name, [], scalar(value));
  for (let l = 0; l < config.n_layer; ++l) {
    const p = `h.${l}`;
    const qkv = gemm(layerNorm(x, `${p}.ln_1`), `${p}.attn.c_attn`, [C, 3 * C]);
    const [q, k, v] = g.ops('Split', [qkv, 'split_qkv'], 3, [attrInt('axis', 1)]);
    x = g.op('Add', [x, gemm(attention(g, q, k, v, { T, NH, HS }), `${p}.attn.c_proj`, [C, C])]);
    const f = gemm(layerNorm(x, `${p}.ln_2`), `${p}.mlp.c_fc`, [C, F]);
    // gelu_new, 0.5·f·(1 + tanh(√(2/π)·(f + 0.044715·f³))), as the exporter writes it (ORT fuses it)
    const inner = g.op('Mul', [g.op('Add', [f, g.op('Mul', [g.op('Mul', [g.op('Mul', [f, f]), f]), 'cubic'])]), 'sqrt_2_over_pi']);
    const gelu = g.op('Mul', [g.op('Mul', [f, 'half']), g.op('Add', [g.op('Tanh', [inner]), 'one'])]);
    x = g.op('Add', [x, gemm(gelu, `${p}.mlp.c_proj`, [F, C])]);
  }
  const logits = g.op('Gemm', [layerNorm(x, 'ln_f'), 'wte.weight'], [attrInt('transB', 1)]);
  return finish(g, { T, C, HS }, logits);
}

/** The ONNX model of a Llama (SmolLM) of `config` with `weights` (name → Float32Array) for T tokens. */
export function llamaModel(config, weights, T) {
  const C = config.hidden_size,
    NH = config.num_attention_heads,
    KVH = config.num_key_value_heads,
    HS = C / NH;
  const F = config.intermediate_size,
    group = NH / KVH,
    kv = KVH * HS;
  const g = graph();
  g.vocab = config.vocab_size;
  const w = (name, dims) => g.constant(name, dims, weights.get(name));
  g.constant('eps', [], scalar(config.rms_norm_eps));
  const rmsNorm = (x, name) => {
    const meanSquare = g.op('ReduceMean', [g.op('Mul', [x, x])], [attrInts('axes', [1]), attrInt('keepdims', 1)]);
    return g.op('Mul', [g.op('Div', [x, g.op('Sqrt', [g.op('Add', [meanSquare, 'eps'])])]), w(name, [C])]);
  };
  const linear = (x, name, dims) => g.op('Gemm', [x, w(name, dims)], [attrInt('transB', 1)]);
  // rotate-half RoPE tables: cos and sin of t·θ^(−2i/HS), each repeated over both halves   (T, 1, HS)
  const cos = new Float32Array(T * HS),
    sin = new Float32Array(T * HS);
  for (let t = 0; t < T; ++t) {
    for (let i = 0; i < HS / 2; ++i) {
      const angle = t * config.rope_theta ** ((-2 * i) / HS);
      cos[t * HS + i] = cos[t * HS + i + HS / 2] = Math.cos(angle);
      sin[t * HS + i] = sin[t * HS + i + HS / 2] = Math.sin(angle);
    }
  }
  g.constant('rope_cos', [T, 1, HS], cos);
  g.constant('rope_sin', [T, 1, HS], sin);
  for (const [name, values] of [
    ['half_start', [0]],
    ['half_mid', [HS / 2]],
    ['half_end', [HS]],
    ['head_axis', [2]],
  ])
    g.constant(name, [1], values);
  const rope = (x, heads) => {
    const x3 = g.op('Reshape', [x, g.constant(`rope_shape_${g.nodes.length}`, [3], [T, heads, HS])]);
    const first = g.op('Slice', [x3, 'half_start', 'half_mid', 'head_axis']);
    const second = g.op('Slice', [x3, 'half_mid', 'half_end', 'head_axis']);
    const rotated = g.op('Concat', [g.op('Neg', [second]), first], [attrInt('axis', 2)]);
    const turned = g.op('Add', [g.op('Mul', [x3, 'rope_cos']), g.op('Mul', [rotated, 'rope_sin'])]);
    return g.op('Reshape', [turned, g.constant(`rope_flat_${g.nodes.length}`, [2], [T, heads * HS])]);
  };
  // key/value head g serves query heads g·group … (g + 1)·group − 1 (transformers' repeat_kv)
  g.constant('kv_split', [4], [T, KVH, 1, HS]);
  g.constant('kv_expand', [4], [T, KVH, group, HS]);
  const repeat = (x) => g.op('Reshape', [g.op('Expand', [g.op('Reshape', [x, 'kv_split']), 'kv_expand']), 'merge_shape']);
  let x = g.op('Gather', [w('model.embed_tokens.weight', [config.vocab_size, C]), 'ids']);
  for (let l = 0; l < config.num_hidden_layers; ++l) {
    const p = `model.layers.${l}`;
    const h = rmsNorm(x, `${p}.input_layernorm.weight`);
    const q = rope(linear(h, `${p}.self_attn.q_proj.weight`, [C, C]), NH);
    const k = rope(linear(h, `${p}.self_attn.k_proj.weight`, [kv, C]), KVH);
    const v = linear(h, `${p}.self_attn.v_proj.weight`, [kv, C]);
    const context = attention(g, q, repeat(k), repeat(v), { T, NH, HS });
    x = g.op('Add', [x, linear(context, `${p}.self_attn.o_proj.weight`, [C, C])]);
    const h2 = rmsNorm(x, `${p}.post_attention_layernorm.weight`);
    const gate = linear(h2, `${p}.mlp.gate_proj.weight`, [F, C]);
    const swiglu = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), linear(h2, `${p}.mlp.up_proj.weight`, [F, C])]);
    x = g.op('Add', [x, linear(swiglu, `${p}.mlp.down_proj.weight`, [C, F])]);
  }
  const logits = g.op('Gemm', [rmsNorm(x, 'model.norm.weight'), 'model.embed_tokens.weight'], [attrInt('transB', 1)]);
  return finish(g, { T, C, HS }, logits);
}
