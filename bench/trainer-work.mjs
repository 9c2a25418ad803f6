// How long a training step and an evaluation take against the core's estimate (Trainer.stepSeconds,
// from the model's FLOPs and the build's rate in cpp/train/trainer.cpp): the figures behind that
// rate. Figures only: `node bench/trainer-work.mjs [samples]`. Run it with nothing else busy.
import { createAttention } from '../web/src/engine/attention.js';

const SAMPLES = Number(process.argv[2] ?? 5);
const CONFIGS = [
  { task: 'previous' },
  { task: 'induction' },
  { task: 'sort' },
  { task: 'text' },
  { task: 'text', layers: 4, heads: 8, dModel: 128 },
  { task: 'induction', contextLength: 64, dModel: 64, heads: 4, layers: 2, batchSize: 64 },
  { task: 'previous', contextLength: 128, dModel: 128, heads: 4, layers: 2, batchSize: 32, mlp: true, layerNorm: true },
  { task: 'previous', contextLength: 64, dModel: 256, heads: 8, layers: 2, batchSize: 16, mlp: true, layerNorm: true },
  // One dimension per head: the softmax and the heads' copies, not the products, take the time.
  { task: 'previous', contextLength: 128, dModel: 64, heads: 64, layers: 1, batchSize: 8 },
  { task: 'previous', contextLength: 32, dModel: 128, heads: 128, layers: 1, batchSize: 32 },
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const label = (c) =>
  Object.entries(c)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

for (const build of ['simd', 'scalar']) {
  const engine = await createAttention({ build });
  console.log(`\n${build} build: measured / estimated seconds per step (median of ${SAMPLES})`);
  for (const config of CONFIGS) {
    let trainer;
    try {
      trainer = engine.createTrainer(config);
    } catch (error) {
      console.log(`  ${label(config)}: refused (${error.message})`);
      continue;
    }
    const estimate = trainer.stepSeconds;
    // As many steps per sample as take about 0.2 s by the estimate (at least one).
    const steps = Math.max(1, Math.min(1000, Math.round(0.2 / estimate)));
    trainer.step(steps); // warm-up: buffers sized, JIT settled
    const times = [];
    for (let s = 0; s < SAMPLES; ++s) {
      const start = performance.now();
      trainer.step(steps);
      times.push((performance.now() - start) / 1000 / steps);
    }
    const measured = median(times);
    console.log(
      `  ${label(config)}: ${(measured * 1000).toFixed(2)} ms / ${(estimate * 1000).toFixed(2)} ms estimated = ${(measured / estimate).toFixed(2)}`,
    );
    trainer.dispose();
  }
}
