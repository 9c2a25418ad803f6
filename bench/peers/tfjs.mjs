// @tensorflow/tfjs-backend-wasm running causal multi-head attention with per-head 2-D matMul.
// Its fast path is XNNPACK's fully-connected operator, taken only for 2-D (batch 1) products
// with neither transpose flag; batched or transposed products fall back to a plain blocked loop
// several times slower. So every product here is 2-D and untransposed, and Kᵀ is explicit:
//
//   qh, kh, vh = x · Wq[:, head], x · Wk[:, head], x · Wv[:, head]    (T, HS) each
//   weights_h  = softmax(qh · transpose(kh) · (1/√HS) + mask)          (T, T)
//   context_h  = weights_h · vh                                       (T, HS)
//   y          = concat_h(context_h) · Wo                             (T, C)
// The per-head weight slices and the mask (0 on and below the diagonal, −∞ above) are made
// once, as model weights would be; x is uploaded on every run, as every contender's input is.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { causalMask } from './onnx-graph.mjs';

export const name = 'tfjs-backend-wasm, per-head 2-D matMul';
export const tfjsVersion = tf.version_core;

let ready = null;

// Once per process: the wasm backend from node_modules, SIMD binary, one thread.
async function initBackend() {
  const require = createRequire(import.meta.url);
  const distDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  setWasmPaths(`${distDir}/`);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false); // Node already reports false; be explicit
  setThreadsCount(1);
  await tf.setBackend('wasm');
  await tf.ready();
  return { simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT') };
}

export async function backendInfo() {
  ready ??= initBackend();
  return ready;
}

export async function create({ T, C, NH, HS, x, wq, wk, wv, wo }) {
  await backendInfo();
  const headColumns = (w, h) => tf.tidy(() => tf.slice(tf.tensor2d(w.data, [C, C]), [0, h * HS], [C, HS]));
  const heads = Array.from({ length: NH }, (_, h) => ({
    wq: headColumns(wq, h),
    wk: headColumns(wk, h),
    wv: headColumns(wv, h),
  }));
  const woT = tf.tensor2d(wo.data, [C, C]);
  const mask = tf.tensor2d(causalMask(T), [T, T]);
  const scale = tf.scalar(1 / Math.sqrt(HS));
  const forward = () =>
    tf.tidy(() => {
      const xt = tf.tensor2d(x.data, [T, C]);
      const contexts = heads.map((w) => {
        const qh = tf.matMul(xt, w.wq);
        const kh = tf.matMul(xt, w.wk);
        const vh = tf.matMul(xt, w.wv);
        const scores = tf.add(tf.mul(tf.matMul(qh, tf.transpose(kh)), scale), mask);
        return tf.matMul(tf.softmax(scores), vh);
      });
      const concat = NH === 1 ? contexts[0] : tf.concat(contexts, 1);
      return tf.matMul(concat, woT);
    });
  return {
    runSync() {
      const y = forward();
      const data = y.dataSync(); // a copy out of wasm memory
      y.dispose();
      return data;
    },
    async run() {
      return this.runSync();
    },
    dispose() {
      for (const w of heads) tf.dispose([w.wq, w.wk, w.wv]);
      tf.dispose([woT, mask, scale]);
    },
  };
}
