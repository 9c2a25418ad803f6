// onnxruntime-web running causal multi-head attention as a graph of standard ONNX ops (opset 17).
//
//   x (T, C) ─MatMul Wq─ q (T, C) ─Reshape─ (T, NH, HS) ─Transpose 1,0,2─ qh (NH, T, HS)
//            ─MatMul Wk─ k (T, C) ─Reshape─ (T, NH, HS) ─Transpose 1,2,0─ kt (NH, HS, T)
//            ─MatMul Wv─ v (T, C) ─Reshape─ (T, NH, HS) ─Transpose 1,0,2─ vh (NH, T, HS)
//   scores = (qh · kt) · (1/√HS) + mask      (NH, T, T); mask (T, T) is 0 on and below the
//                                                          diagonal, −∞ above (a constant)
//   weights = Softmax(scores, axis 2)         (NH, T, T)
//   context = weights · vh                    (NH, T, HS) ─Transpose 1,0,2─Reshape─ (T, C)
//   y = context · Wo                          (T, C)
// Weights and mask are initializers, as an exported model would have them.
import { node, attrInt, attrInts, tensor, valueInfo, model } from './onnx-proto.mjs';
import { ortContender } from './ort.mjs';

export function causalMask(T) {
  const m = new Float32Array(T * T);
  for (let i = 0; i < T; ++i) m.fill(-Infinity, i * T + i + 1, (i + 1) * T);
  return m;
}

export function buildGraphModel({ T, C, NH, HS, wq, wk, wv, wo }) {
  const nodes = [
    node('MatMul', ['x', 'wq'], ['q']),
    node('MatMul', ['x', 'wk'], ['k']),
    node('MatMul', ['x', 'wv'], ['v']),
    node('Reshape', ['q', 'split_shape'], ['q3']),
    node('Reshape', ['k', 'split_shape'], ['k3']),
    node('Reshape', ['v', 'split_shape'], ['v3']),
    node('Transpose', ['q3'], ['qh'], [attrInts('perm', [1, 0, 2])]),
    node('Transpose', ['k3'], ['kt'], [attrInts('perm', [1, 2, 0])]),
    node('Transpose', ['v3'], ['vh'], [attrInts('perm', [1, 0, 2])]),
    node('MatMul', ['qh', 'kt'], ['qk']),
    node('Mul', ['qk', 'scale'], ['scores']),
    node('Add', ['scores', 'mask'], ['masked']),
    node('Softmax', ['masked'], ['weights'], [attrInt('axis', 2)]),
    node('MatMul', ['weights', 'vh'], ['ctx']),
    node('Transpose', ['ctx'], ['ctx_t'], [attrInts('perm', [1, 0, 2])]),
    node('Reshape', ['ctx_t', 'merge_shape'], ['concat']),
    node('MatMul', ['concat', 'wo'], ['y']),
  ];
  const initializers = [
    tensor('wq', [C, C], wq.data),
    tensor('wk', [C, C], wk.data),
    tensor('wv', [C, C], wv.data),
    tensor('wo', [C, C], wo.data),
    tensor('split_shape', [3], [T, NH, HS]),
    tensor('merge_shape', [2], [T, C]),
    tensor('scale', [], Float32Array.of(1 / Math.sqrt(HS))),
    tensor('mask', [T, T], causalMask(T)),
  ];
  return model({
    nodes,
    initializers,
    inputs: [valueInfo('x', [T, C])],
    outputs: [valueInfo('y', [T, C])],
    opsets: { '': 17 },
  });
}

export const name = 'onnxruntime-web, standard ops';

export async function create(inputs) {
  return ortContender(buildGraphModel(inputs), [inputs.T, inputs.C], inputs.x);
}
