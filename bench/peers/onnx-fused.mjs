// onnxruntime-web running causal multi-head attention with its fused contrib op
// com.microsoft.Attention (opset com.microsoft 1), then the output projection as a MatMul:
//
//   x3 (1, T, C) ─Attention(weights = [Wq | Wk | Wv] (C, 3C), bias = 0 (3C),
//                           num_heads = NH, unidirectional = 1)─ context (1, T, C)
//   y = context · Wo                                               (1, T, C)
//
// The op applies scale 1/√HS by default. With unidirectional = 1 it masks keys after the query
// (its mask value is mask_filter_value, −10000 by default, instead of −∞: the same weights to
// float32 precision, since e^(−10000) underflows to 0).
import { node, attrInt, tensor, valueInfo, model } from './onnx-proto.mjs';
import { ortContender } from './ort.mjs';

// [Wq | Wk | Wv]: row r of the result is row r of wq, then of wk, then of wv.
function stackColumns(C, ...ws) {
  const out = new Float32Array(C * C * ws.length);
  for (let r = 0; r < C; ++r) {
    ws.forEach((w, j) => out.set(w.data.subarray(r * C, (r + 1) * C), (r * ws.length + j) * C));
  }
  return out;
}

export function buildFusedModel({ T, C, NH, wq, wk, wv, wo }) {
  const nodes = [
    node('Attention', ['x', 'wqkv', 'bias'], ['ctx'], [attrInt('num_heads', NH), attrInt('unidirectional', 1)], 'com.microsoft'),
    node('MatMul', ['ctx', 'wo'], ['y']),
  ];
  const initializers = [
    tensor('wqkv', [C, 3 * C], stackColumns(C, wq, wk, wv)),
    tensor('bias', [3 * C], new Float32Array(3 * C)),
    tensor('wo', [C, C], wo.data),
  ];
  return model({
    nodes,
    initializers,
    inputs: [valueInfo('x', [1, T, C])],
    outputs: [valueInfo('y', [1, T, C])],
    opsets: { '': 17, 'com.microsoft': 1 },
  });
}

export const name = 'onnxruntime-web, fused com.microsoft.Attention';

export async function create(inputs) {
  return ortContender(buildFusedModel(inputs), [1, inputs.T, inputs.C], inputs.x);
}
