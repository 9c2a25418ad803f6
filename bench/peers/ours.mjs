// Our engine as benchmark contenders: the wasm SIMD or scalar build, on the forward-only path
// (engine.compute(config, { outputOnly: true })) or on the full path that hands every
// intermediate matrix to JavaScript.
import { createAttention } from '../../web/src/engine/attention.js';

const engines = new Map();

/** The engine of `build` ('simd' | 'scalar'), created once per process. */
export async function engineFor(build) {
  if (!engines.has(build)) engines.set(build, await createAttention({ build }));
  return engines.get(build);
}

/**
 * Whether this facade has the forward-only path: a call with outputOnly that returns the
 * output without the per-head intermediates, and accepts typed embeddings without tokens.
 */
export async function hasOutputOnly() {
  const engine = await engineFor('simd');
  const m = (rows, cols) => ({ rows, cols, data: new Float32Array(rows * cols).fill(0.5) });
  try {
    const r = engine.compute(
      { dModel: 3, heads: 1, embeddings: m(2, 3), weights: { wq: m(3, 3), wk: m(3, 3), wv: m(3, 3), wo: m(3, 3) } },
      { outputOnly: true },
    );
    return r.output?.data?.length === 6 && r.perHead === undefined;
  } catch {
    return false;
  }
}

/**
 * A contender running engine `build` on `inputs`. `outputOnly`: take the forward-only path
 * (tokens left out, T from the embeddings); otherwise the full path (tokens given, as it needs).
 * `reuseOutput` (forward-only): every call writes the output into the same array (outputInto).
 */
export async function create(inputs, { build, outputOnly, reuseOutput = false }) {
  const engine = await engineFor(build);
  const { T, C, NH, x, wq, wk, wv, wo } = inputs;
  const config = { dModel: C, heads: NH, embeddings: x, weights: { wq, wk, wv, wo }, mask: 'causal', scale: true };
  if (!outputOnly) config.tokens = Array.from({ length: T }, (_, t) => `t${t}`);
  const options = outputOnly ? { outputOnly: true, ...(reuseOutput ? { outputInto: new Float32Array(T * C) } : {}) } : undefined;
  const runSync = () => engine.compute(config, options).output.data;
  return { runSync, run: async () => runSync(), dispose() {} };
}
