// `npm run bench`: the median time of one engine.compute() — every intermediate matrix copied to
// JavaScript — for the wasm SIMD build and the wasm scalar build, measured in one Node process,
// interleaved round-robin after a warm-up so that machine noise hits both alike; then the native
// build (a separate process, same inputs) as its own column. Prints figures only; it never
// passes or fails.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createAttention } from '../web/src/engine/attention.js';

const SIZES = [
  [64, 64, 4],
  [256, 256, 8],
  [1024, 512, 8],
];
const SAMPLES = Number(process.argv[2] ?? 5);

const flops = (T, C) => 8 * T * C * C + 4 * T * T * C; // projections, scores, weighted sum, output
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const config = (T, C, NH) => ({
  tokens: Array.from({ length: T }, (_, t) => `tok${t}`),
  dModel: C,
  heads: NH,
  seed: 1,
});

const engines = { simd: await createAttention({ build: 'simd' }), scalar: await createAttention({ build: 'scalar' }) };
console.log(`wasm SIMD path: ${engines.simd.info.simdPath}; samples per size: ${SAMPLES}`);

const nativeBinary = fileURLToPath(new URL('../build/native/bench_native', import.meta.url));
const native = new Map(
  execFileSync(nativeBinary, [String(SAMPLES), ...SIZES.map((s) => s.join(','))], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((row) => row.mode === 'full')
    .map((row) => [`${row.T},${row.C},${row.NH}`, row]),
);

// Calls per sample, so that a sample lasts at least ~20 ms: small sizes are timed over many
// calls (a single sub-millisecond call is mostly timer and JIT noise).
function callsPerSample(engine, cfg) {
  // Warm-up first: Embind's glue and our facade need a few dozen calls before V8 optimises them.
  for (const start = performance.now(); performance.now() - start < 300; ) engine.compute(cfg);
  let calls = 1;
  for (;;) {
    const start = performance.now();
    for (let n = 0; n < calls; ++n) engine.compute(cfg);
    if (performance.now() - start >= 20 || calls >= 4096) return calls;
    calls *= 2;
  }
}

const rows = [];
for (const [T, C, NH] of SIZES) {
  const cfg = config(T, C, NH);
  // Warm-up: also lets the JIT settle and sizes the engines' buffers.
  const calls = Object.fromEntries(Object.entries(engines).map(([name, engine]) => [name, callsPerSample(engine, cfg)]));
  const times = { simd: [], scalar: [] };
  for (let s = 0; s < SAMPLES; ++s) {
    for (const [name, engine] of Object.entries(engines)) {
      const start = performance.now();
      for (let n = 0; n < calls[name]; ++n) engine.compute(cfg);
      times[name].push((performance.now() - start) / calls[name]);
    }
  }
  const simd = median(times.simd);
  const scalar = median(times.scalar);
  const nat = native.get(`${T},${C},${NH}`);
  const gflops = (ms) => (flops(T, C) / (ms * 1e6)).toFixed(2);
  rows.push({
    'T, C, NH': `${T}, ${C}, ${NH}`,
    'wasm SIMD ms': simd.toFixed(3),
    'wasm scalar ms': scalar.toFixed(3),
    [`native (${nat.arch}) ms`]: nat.medianMs.toFixed(3),
    'SIMD / scalar': (simd / scalar).toFixed(3),
    'scalar / SIMD (speed-up)': (scalar / simd).toFixed(2),
    'wasm SIMD GFLOP/s': gflops(simd),
    'native GFLOP/s': gflops(nat.medianMs),
  });
}
console.table(rows);
