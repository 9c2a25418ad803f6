// A loaded model side by side with onnxruntime-web (issue: real checkpoints, item 7):
//
//   node bench/model-compare.mjs [--shapes gpt2,smollm] [--samples N] [--tokens T] [--dtypes F32,BF16,F16] [--kernels PATH]
//
// For each shape (GPT-2 small, 124 M parameters; SmolLM-135M's, 30 layers, 9 heads, 3 key/value
// heads), random weights are written as a .safetensors file to a temporary folder (never kept), then:
//   - open + first run: engine.loadModel() on the file as a Blob (read one tensor at a time), then
//     one run of T tokens, timed from a fresh engine;
//   - our run(ids) against onnxruntime-web running the same blocks with the same weights
//     (bench/peers/onnx-models.mjs), one thread each, in this process, T = 64 by default: after a
//     warm-up, samples taken round-robin (one of each, then the next round), medians;
//   - the GFLOP/s of our run (the products' FLOPs: 2·T·(every weight matrix) + the attention's
//     causal pairs) against our kernels' ceiling, as bench_kernels measures it in wasm (a loop of
//     independent multiply-adds; and the packed product alone at the model's width);
//   - with --dtypes, our run from the same model stored in 16 bits (kept 16-bit in memory).
// Figures only: the exit code never depends on them. The largest logit difference from
// onnxruntime's says that both computed the same thing.
import { execFileSync } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAttention } from '../web/src/engine/attention.js';
import { openSafetensors } from '../web/src/engine/safetensors.js';
import { parameterCount, SHAPES, tensorShapes, writeModel } from './model-files.mjs';

const { values: args } = parseArgs({
  options: {
    shapes: { type: 'string', default: 'gpt2,smollm' },
    samples: { type: 'string', default: '7' },
    tokens: { type: 'string', default: '64' },
    dtypes: { type: 'string', default: 'F32' },
    kernels: { type: 'string', default: fileURLToPath(new URL('../build/wasm/bench_kernels.cjs', import.meta.url)) },
  },
});
const SAMPLES = Math.max(1, Number.parseInt(args.samples, 10) || 7);
const T = Math.max(1, Number.parseInt(args.tokens, 10) || 64);
const WARM_UP_RUNS = 2;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => x.toFixed(1);

// FLOPs of one forward of T tokens: every weight matrix once per token (2 per multiply-add; the
// embeddings are read, not multiplied, except as the unembedding), and per head q·k and a·v over
// the causal pairs.
function forwardFlops(config, tokens) {
  const gpt2 = config.model_type === 'gpt2';
  const C = gpt2 ? config.n_embd : config.hidden_size;
  const layers = gpt2 ? config.n_layer : config.num_hidden_layers;
  let weights = config.vocab_size * C; // the unembedding
  for (const [name, shape] of tensorShapes(config)) if (shape.length === 2 && !/(wte|wpe|embed_tokens)/.test(name)) weights += shape[0] * shape[1];
  const pairs = (tokens * (tokens + 1)) / 2;
  return 2 * tokens * weights + layers * 4 * C * pairs;
}

// The kernels' ceiling at the model's width: bench_kernels' multiply-add loop and its packed
// product (four T×C·C×C products, as the projections of its attention forward). Measured before
// and after the model's runs, in a process of its own; the higher of each is kept (on a shared
// machine the other load can only lower a figure, never raise it).
function kernelFigures(C, heads) {
  try {
    const out = execFileSync('node', ['--no-experimental-fetch', args.kernels, '7', `${T},${C},${heads}`], {
      encoding: 'utf8',
      env: { ...process.env, NODE_PATH: '/usr/share/nodejs' },
    });
    const line = JSON.parse(out.trim().split('\n').pop());
    return { ceiling: line.ceilingGflops, product: (8 * T * C * C) / (line.projectionsMs * 1e6) };
  } catch (error) {
    return { error: `bench_kernels did not run (${error.message.split('\n')[0]}): cmake --build --preset wasm --target bench_kernels` };
  }
}

const best = (a, b) =>
  a.error ? a : b.error ? b : { ceiling: Math.max(a.ceiling, b.ceiling), product: Math.max(a.product, b.product), both: [a, b] };

async function ortSession(config, path) {
  const ort = await import('onnxruntime-web');
  const { ortVersion } = await import('./peers/ort.mjs'); // (sets the wasm paths, one thread)
  const { gpt2Model, llamaModel } = await import('./peers/onnx-models.mjs');
  const file = await openSafetensors(await openAsBlob(path), 'model');
  const weights = new Map();
  for (const name of file.tensors.keys()) {
    const bytes = await file.read(name);
    weights.set(name, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
  }
  const bytes = (config.model_type === 'gpt2' ? gpt2Model : llamaModel)(config, weights, T);
  weights.clear();
  const start = performance.now();
  const session = await ort.InferenceSession.create(bytes, {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const createMs = performance.now() - start;
  return {
    version: ortVersion,
    createMs,
    async run(ids) {
      const result = await session.run({ ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [ids.length]) });
      const out = result[session.outputNames[0]];
      const data = out.data.slice();
      out.dispose?.();
      return data;
    },
    release: () => session.release(),
  };
}

function largestDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  return worst;
}

async function measureShape(key, folder) {
  const config = SHAPES[key];
  const gpt2 = config.model_type === 'gpt2';
  const C = gpt2 ? config.n_embd : config.hidden_size;
  const heads = gpt2 ? config.n_head : config.num_attention_heads;
  const ids = Array.from({ length: T }, (_, t) => (t * 7919 + 11) % config.vocab_size);
  const path = join(folder, `${key}.safetensors`);
  const kernelsBefore = kernelFigures(C, heads);
  const bytes = await writeModel(path, config, 'F32');
  console.log(`\n## ${key}: ${(parameterCount(config) / 1e6).toFixed(1)} M parameters, ${(bytes / 2 ** 20).toFixed(0)} MiB F32, T = ${T}`);

  // open + first run, from a fresh engine (the file was just written: it is in the page cache)
  const engine = await createAttention({ build: 'simd' });
  let start = performance.now();
  const model = await engine.loadModel({ config, weights: await openAsBlob(path) });
  const openMs = performance.now() - start;
  start = performance.now();
  const first = model.run(ids);
  const firstMs = performance.now() - start;
  console.log(
    `open ${ms(openMs)} ms + first run ${ms(firstMs)} ms = ${((openMs + firstMs) / 1000).toFixed(2)} s; engine memory in use ${(engine.memoryInUse() / 2 ** 20).toFixed(0)} MiB`,
  );

  const ort = await ortSession(config, path);
  console.log(`onnxruntime-web ${ort.version}: session created in ${ms(ort.createMs)} ms`);
  const reference = await ort.run(ids);
  console.log(
    `largest logit difference from onnxruntime-web: ${largestDifference(first.logits.data, reference).toExponential(2)} (relative above 1)`,
  );

  const ours = [];
  const theirs = [];
  for (let i = 0; i < WARM_UP_RUNS; ++i) {
    model.run(ids);
    await ort.run(ids);
  }
  for (let s = 0; s < SAMPLES; ++s) {
    start = performance.now();
    model.run(ids);
    ours.push(performance.now() - start);
    start = performance.now();
    await ort.run(ids);
    theirs.push(performance.now() - start);
  }
  ort.release();
  const oursMs = median(ours),
    theirsMs = median(theirs);
  const gflops = forwardFlops(config, T) / (oursMs * 1e6);
  console.log(
    `run(ids), median of ${SAMPLES}: ours ${ms(oursMs)} ms, onnxruntime-web ${ms(theirsMs)} ms: ours / onnxruntime = ${(oursMs / theirsMs).toFixed(2)}`,
  );
  console.log(
    `  (samples: ours ${ours.map(ms).join(' ')}; onnxruntime ${theirs.map(ms).join(' ')}; fastest of each: ${(Math.min(...ours) / Math.min(...theirs)).toFixed(2)})`,
  );
  const kernels = best(kernelsBefore, kernelFigures(C, heads));
  if (kernels.error) console.log(kernels.error);
  else {
    console.log(
      `ours ${gflops.toFixed(1)} GFLOP/s (the fastest run ${(forwardFlops(config, T) / (Math.min(...ours) * 1e6)).toFixed(1)}; ${(forwardFlops(config, T) / 1e9).toFixed(2)} GFLOP a run), onnxruntime-web ${(forwardFlops(config, T) / (theirsMs * 1e6)).toFixed(1)} GFLOP/s`,
    );
    console.log(
      `  our kernels' ceiling (multiply-add loop) ${kernels.ceiling.toFixed(1)} GFLOP/s: ours at ${((100 * gflops) / kernels.ceiling).toFixed(0)} %; the packed product alone at C = ${C}, T = ${T}: ${kernels.product.toFixed(1)} GFLOP/s (ours at ${((100 * gflops) / kernels.product).toFixed(0)} % of it)`,
    );
    console.log(
      `  (bench_kernels before and after: ceiling ${kernels.both.map((k) => k.ceiling.toFixed(1)).join(', ')}; product ${kernels.both.map((k) => k.product.toFixed(1)).join(', ')} GFLOP/s)`,
    );
  }

  // the same model stored in 16 bits, kept in 16 bits: timed round-robin with the F32 one
  for (const dtype of args.dtypes.split(',').filter((d) => d !== 'F32')) {
    const path16 = join(folder, `${key}-${dtype}.safetensors`);
    await writeModel(path16, config, dtype);
    const engine16 = await createAttention({ build: 'simd' });
    start = performance.now();
    const model16 = await engine16.loadModel({ config, weights: await openAsBlob(path16) });
    const open16 = performance.now() - start;
    const logits16 = model16.run(ids).logits.data;
    for (let i = 0; i < WARM_UP_RUNS; ++i) model16.run(ids);
    const wide = [];
    const narrow = [];
    for (let s = 0; s < SAMPLES; ++s) {
      start = performance.now();
      model.run(ids);
      wide.push(performance.now() - start);
      start = performance.now();
      model16.run(ids);
      narrow.push(performance.now() - start);
    }
    console.log(
      `${dtype} file, kept ${dtype} in memory: open ${ms(open16)} ms, engine memory ${(engine16.memoryInUse() / 2 ** 20).toFixed(0)} MiB; run median ${ms(median(narrow))} ms against F32's ${ms(median(wide))} ms in the same rounds (${(median(narrow) / median(wide)).toFixed(2)}×); logits within ${largestDifference(logits16, first.logits.data).toExponential(1)} of F32's (the weights rounded to ${dtype})`,
    );
    model16.dispose();
    await rm(path16);
  }
  model.dispose();
  await rm(path);
}

console.log(
  `# Loaded models against onnxruntime-web — Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, one thread each, wasm SIMD build`,
);
console.log(`(${(await readFile(new URL('../web/src/engine/wasm/attention-simd.wasm', import.meta.url))).length} bytes of attention-simd.wasm)`);
const folder = await mkdtemp(join(os.tmpdir(), 'model-compare-'));
try {
  for (const key of args.shapes.split(',')) {
    if (!SHAPES[key]) console.log(`unknown shape ${key}: use ${Object.keys(SHAPES).join(', ')}`);
    else await measureShape(key, folder);
  }
} finally {
  await rm(folder, { recursive: true, force: true });
}
