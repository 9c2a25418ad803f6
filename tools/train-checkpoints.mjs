// Trains the checkpoints the page ships (web/src/presets/checkpoints/<task>.json) with the
// project's own trainer, from each task's defaults (seed 1) for a fixed number of steps, so the
// files are reproducible. Run: npm run train:checkpoints (after the wasm build).
//   node tools/train-checkpoints.mjs [task …]
import { mkdir, writeFile } from 'node:fs/promises';
import { createAttention } from '../web/src/engine/attention.js';
import { CHECKPOINT_STEPS, encodeCheckpoint } from '../web/src/engine/checkpoint.js';

const OUT = new URL('../web/src/presets/checkpoints/', import.meta.url);

export async function trainCheckpoint(engine, task) {
  const trainer = engine.createTrainer({ task });
  try {
    // In calls of about a second each (a call may take about 2 s); the same steps either way.
    const perCall = Math.max(1, Math.floor(1 / trainer.stepSeconds));
    while (trainer.steps < CHECKPOINT_STEPS[task]) trainer.step(Math.min(perCall, CHECKPOINT_STEPS[task] - trainer.steps));
    return encodeCheckpoint(trainer);
  } finally {
    trainer.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const engine = await createAttention({ build: 'simd' });
  const tasks = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(CHECKPOINT_STEPS);
  await mkdir(OUT, { recursive: true });
  for (const task of tasks) {
    const text = await trainCheckpoint(engine, task);
    const { evaluation } = JSON.parse(text);
    await writeFile(new URL(`${task}.json`, OUT), text);
    console.log(
      `${task}: ${(text.length / 1024).toFixed(1)} KB, accuracy ${(100 * evaluation.accuracy).toFixed(1)} %, loss ${evaluation.loss.toFixed(3)}`,
    );
  }
}
