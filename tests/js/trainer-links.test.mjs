// A `train` link's promise: the recipe retrains the sender's model bit for bit, for every task, on
// the SIMD build and on the scalar build alike, however the worker slices the steps. Small recipes,
// so the file stays quick; each covers other code paths (positions, MLP, LayerNorm, blocked products).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createAttention } from '../../web/src/engine/attention.js';
import { openCheckpoint } from '../../web/src/engine/checkpoint.js';
import { formatTrainText, readTrainText, TRAIN_RECIPE } from '../../web/src/state/schema.js';
import { exampleOf } from '../../web/src/train/sequence.js';

const BUILDS = ['simd', 'scalar'];
const STEPS = 24; // from seed; from a checkpoint (larger models) fewer
const CHECKPOINT_STEPS = 6;
const letters = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));

// One link per task, from seed.
const SEEDED = [
  { task: 'previous', contextLength: 8, batchSize: 4, vocab: letters(12), layers: 1, heads: 1, dModel: 8, positions: 'learned', seed: 3 },
  { task: 'induction', contextLength: 12, batchSize: 4, vocab: letters(8), layers: 2, heads: 2, dModel: 8, positions: 'sinusoidal', seed: 5 },
  {
    task: 'reverse',
    contextLength: 9,
    batchSize: 4,
    vocab: [...letters(10), '|'],
    layers: 2,
    heads: 2,
    dModel: 8,
    mlp: true,
    layerNorm: true,
    positions: 'none',
    seed: 7,
  },
  {
    task: 'sort',
    contextLength: 9,
    batchSize: 4,
    vocab: [...letters(10), '|'],
    layers: 1,
    heads: 2,
    dModel: 8,
    layerNorm: true,
    positions: 'learned',
    seed: 2,
  },
  // The vocabulary is the corpus's (the task's default). d_model 64 with an MLP and 64 rows: the
  // SIMD build's products take their blocked path.
  {
    task: 'text',
    contextLength: 16,
    batchSize: 4,
    layers: 1,
    heads: 4,
    dModel: 64,
    mlp: true,
    layerNorm: true,
    positions: 'learned',
    seed: 1,
  },
];

const engines = {};
const checkpoints = {};
before(async () => {
  for (const build of BUILDS) engines[build] = await createAttention({ build });
  for (const task of TRAIN_RECIPE.checkpointTasks) {
    checkpoints[task] = JSON.parse(await readFile(new URL(`../../web/src/presets/checkpoints/${task}.json`, import.meta.url), 'utf8'));
  }
});
const trainers = [];
after(() => trainers.forEach((t) => t.dispose()));

// The link's text for a seeded recipe (every item written, as the panel writes it).
function seededLink({ task, vocab, ...rest }) {
  const defaults = engines.simd.createTrainer({ task });
  trainers.push(defaults);
  const config = { mlp: false, layerNorm: false, learningRate: 0.005, ...rest, vocab: vocab ?? defaults.config.vocab };
  return formatTrainText({ task, config, steps: STEPS });
}

// A trainer as the panel's worker opens a link's model: from the recipe's config or the checkpoint.
function openLink(build, text) {
  const read = readTrainText(text);
  assert.ok(read.ok, `${text}: ${JSON.stringify(read.problem)}`);
  const { task, checkpoint, config } = read.value;
  const trainer = checkpoint ? openCheckpoint(engines[build], checkpoints[task]) : engines[build].createTrainer({ task, ...config });
  trainers.push(trainer);
  return { trainer, steps: read.value.steps, example: exampleOf(task, trainer.config.vocab, trainer.config.contextLength) };
}

// Step by step: the loss after every step, and the parameters at the end.
function trainStepwise(build, text) {
  const { trainer, steps } = openLink(build, text);
  const losses = Array.from({ length: steps }, () => trainer.step(1).loss);
  return { losses, parameters: trainer.parameters() };
}

// As the worker trains: slices of 1, 2, 3, … steps with an evaluation and a run of the example
// between them (neither may move training). The losses at the slices' ends.
function trainInSlices(build, text) {
  const { trainer, steps, example } = openLink(build, text);
  const seen = [{ evaluation: trainer.evaluate(8), predictions: trainer.run(example).predictions }];
  const losses = [];
  for (let n = 1; trainer.steps < steps; ++n) {
    losses.push(trainer.step(Math.min(n, steps - trainer.steps)));
    seen.push({ evaluation: trainer.evaluate(8), predictions: trainer.run(example).predictions });
  }
  return { losses, seen, parameters: trainer.parameters() };
}

// Each link trained once per build and way, on first use (the tests below compare them).
const runs = new Map();
function trained(way, build, text) {
  const key = `${way.name} ${build} ${text}`;
  if (!runs.has(key)) runs.set(key, way(build, text));
  return runs.get(key);
}

// The first entry whose bits differ, or null: float32 compared as the integers of their bits.
function firstDifference(a, b) {
  assert.deepEqual(Object.keys(a), Object.keys(b));
  for (const name of Object.keys(a)) {
    const x = new Uint32Array(a[name].data.buffer),
      y = new Uint32Array(b[name].data.buffer);
    assert.equal(x.length, y.length, name);
    const i = x.findIndex((bits, k) => bits !== y[k]);
    if (i >= 0) return `${name}[${i}]: ${a[name].data[i]} against ${b[name].data[i]}`;
  }
  return null;
}

const LINKS = () => [
  ...SEEDED.map(seededLink),
  ...TRAIN_RECIPE.checkpointTasks.map((task) => formatTrainText({ task, checkpoint: true, steps: CHECKPOINT_STEPS })),
];

test('the recipes cover every task, from seed and from each shipped checkpoint', () => {
  const tasks = LINKS().map((text) => readTrainText(text).value.task);
  assert.deepEqual([...new Set(tasks)].sort(), [...TRAIN_RECIPE.tasks].sort());
});

test('each build retrains a link bit for bit, run to run and however the steps are sliced', () => {
  for (const text of LINKS()) {
    for (const build of BUILDS) {
      const once = trained(trainStepwise, build, text),
        again = trainStepwise(build, text);
      assert.deepEqual(again.losses, once.losses, `${build} ${text}: losses`);
      assert.equal(firstDifference(once.parameters, again.parameters), null, `${build} ${text}`);
      assert.ok(once.losses.every(Number.isFinite), `${build} ${text}: ${once.losses}`);

      const sliced = trained(trainInSlices, build, text);
      for (const { step, loss } of sliced.losses) assert.equal(loss, once.losses[step - 1], `${build} ${text}: step ${step}`);
      assert.equal(firstDifference(once.parameters, sliced.parameters), null, `${build} ${text}: sliced`);
    }
  }
});

test('the SIMD and scalar builds retrain a link to the same bits: losses, evaluations, parameters', () => {
  for (const text of LINKS()) {
    const [simd, scalar] = BUILDS.map((build) => trained(trainStepwise, build, text));
    assert.deepEqual(scalar.losses, simd.losses, `${text}: losses`);
    assert.equal(firstDifference(simd.parameters, scalar.parameters), null, text);
    const [simdSeen, scalarSeen] = BUILDS.map((build) => trained(trainInSlices, build, text).seen);
    assert.deepEqual(scalarSeen, simdSeen, `${text}: evaluations and predictions`);
  }
});
