// The trainer's JavaScript API: defaults, training to accuracy, what run() shows (the same
// attention the lesson computes from the layer's input and trained weights), parameters in and
// out, explicit batches, and bad calls that leave the trainer as it was.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';

const engines = {};
before(async () => {
  for (const build of ['simd', 'scalar']) engines[build] = await createAttention({ build });
});
const trainers = [];
const trainer = (options, build = 'simd') => {
  const t = engines[build].createTrainer(options);
  trainers.push(t);
  return t;
};
after(() => trainers.forEach((t) => t.dispose()));

const worst = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

test('the config is filled in from the task, vocab included', () => {
  const t = trainer({ task: 'sort' });
  assert.deepEqual(t.config, {
    task: 'sort',
    vocab: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', '|'],
    contextLength: 11,
    dModel: 32,
    heads: 4,
    layers: 2,
    mlp: false,
    layerNorm: true,
    positions: 'learned',
    learningRate: 0.003,
    batchSize: 32,
    seed: 1,
  });
  assert.ok(Object.isFrozen(t.config.vocab));
  assert.equal(trainer({}).config.task, 'induction');
  assert.deepEqual(trainer({ task: 'previous', vocab: ['x', 'y', '猫'] }).config.vocab, ['x', 'y', '猫']);
  assert.equal(trainer({ task: 'text' }).config.vocab.includes('猫'), false);
  assert.ok(trainer({ task: 'text' }).config.vocab.includes('信'));
});

test('the induction default learns to 95 % accuracy, and steps are counted', () => {
  const t = trainer({ task: 'induction' });
  const before = t.evaluate(256);
  let accuracy = 0;
  let step = 0;
  while (accuracy < 0.95 && step < 3000) {
    step = t.step(100).step;
    accuracy = t.evaluate(256).accuracy;
  }
  assert.ok(accuracy >= 0.95, `accuracy ${accuracy} after ${step} steps`);
  assert.ok(t.evaluate(256).loss < before.loss);
  assert.equal(t.step(2).step, step + 2);

  // On a sequence the learner types (a context's length, as trained): the second copy of the
  // segment is predicted from the first.
  const typed = [...'pomnlpomnl', ...'cfakehb', ...'cfakehb'];
  const run = t.run(typed);
  const segment = [5, 0, 10, 4, 7, 1]; // f a k e h b: what follows each token of the segment
  assert.deepEqual(run.targets.slice(17, 23), segment);
  const right = run.predictions.slice(17, 23).filter((id, i) => id === segment[i]).length;
  assert.ok(right >= 5, `${right} of 6 predicted: ${run.predictions.slice(17, 23)}`);
});

test('run() shows the attention the lesson computes from the layer input and the trained weights', () => {
  const t = trainer({ task: 'reverse' });
  t.step(50);
  const ids = [3, 1, 4, 1, 5, 10, 5, 1, 4, 1, 3];
  const run = t.run(ids);
  assert.equal(run.logits.rows, 11);
  assert.equal(run.logits.cols, 11);
  const params = t.parameters();
  for (let l = 0; l < 2; ++l) {
    const lesson = engines.simd.compute({
      tokens: ids.map((id) => t.config.vocab[id]),
      dModel: 32,
      heads: 4,
      embeddings: run.layers[l].input,
      weights: { wq: params[`layers.${l}.wq`], wk: params[`layers.${l}.wk`], wv: params[`layers.${l}.wv`], wo: params[`layers.${l}.wo`] },
      mask: 'causal',
    });
    for (let h = 0; h < 4; ++h) {
      const shown = run.layers[l].heads[h].attention.data;
      assert.ok(worst(shown, lesson.perHead[h].weights.data) < 1e-5, `layer ${l} head ${h}`);
      for (let i = 0; i < 11; ++i) {
        const row = shown.subarray(i * 11, (i + 1) * 11);
        assert.ok(Math.abs(row.reduce((s, v) => s + v, 0) - 1) < 1e-5);
        assert.ok(
          row.subarray(i + 1).every((v) => v === 0),
          'causal',
        );
      }
    }
  }
});

test('parameters go out and in; a model trained on one build predicts the same on the other', () => {
  const a = trainer({ task: 'previous' });
  a.step(200);
  const params = a.parameters();
  assert.deepEqual(Object.keys(params), ['wte', 'wpe', 'layers.0.wq', 'layers.0.wk', 'layers.0.wv', 'layers.0.wo', 'unembed']);
  const b = trainer({ task: 'previous', seed: 9 }, 'scalar');
  b.setParameters(params);
  const sequence = ['a', 'b', 'c', 'a', 'l', 'k'];
  const ra = a.run(sequence),
    rb = b.run(sequence);
  assert.deepEqual(rb.predictions, ra.predictions);
  assert.ok(worst(ra.logits.data, rb.logits.data) < 1e-3);
  assert.ok(worst(ra.layers[0].heads[0].attention.data, rb.layers[0].heads[0].attention.data) < 1e-3);
});

test('explicit batches give a loss and every gradient, without an update', () => {
  const t = trainer({ task: 'previous', vocab: ['x', 'y', 'z'] });
  const before = t.parameters();
  const { loss, gradients } = t.lossAndGradients({
    inputs: [
      [0, 1, 2],
      [2, 2, 1],
    ],
    targets: [
      [-1, 0, 1],
      [-1, 2, 2],
    ],
  });
  assert.ok(loss > 0 && Number.isFinite(loss));
  assert.deepEqual(Object.keys(gradients), Object.keys(before));
  assert.equal(gradients.wte.rows, 3);
  assert.ok(gradients.unembed.data.some((v) => v !== 0));
  assert.deepEqual(t.parameters(), before);
  assert.equal(t.step(1).step, 1);
});

test('bad configs and calls are named and leave the trainer as it was', () => {
  const refused = (run, message) => assert.throws(run, (e) => e instanceof Error && message.test(e.message), String(message));
  refused(() => trainer({ task: 'bogus' }), /^unknown task "bogus"/);
  refused(() => trainer({ task: 'sort', heads: 5 }), /^heads \(5\) must divide dModel \(32\)$/);
  refused(() => trainer({ dModl: 8 }), /^unknown field "dModl"/);
  refused(() => trainer({ task: 'sort', vocab: ['a', 'b'] }), /needs the separator "\|"/);
  refused(() => trainer({ vocab: ['a', 'a', 'b'] }), /^vocab must list distinct tokens$/);
  refused(() => trainer({ contextLength: 2 ** 31 }), /^contextLength must be a whole number/);
  refused(() => trainer({ layers: 9 }), /^layers must be between 1 and 4 \(got 9\)$/);

  const t = trainer({ task: 'previous' });
  const params = t.parameters();
  refused(() => t.run(['a', 'q']), /^tokens\[1\] = "q" is not in the vocabulary$/);
  refused(() => t.run(Array(13).fill('a')), /1 to 12 tokens \(the context length\)$/);
  refused(() => t.run([]), /the context length/);
  refused(() => t.setParameters({ wte: { rows: 2, cols: 2, data: new Float32Array(4) } }), /^wte must be \{ rows: 12, cols: 16, data \}/);
  refused(() => t.setParameters({ 'layers.0.wq': { rows: 16, cols: 16, data: new Float32Array(256).fill(NaN) } }), /is not a finite float32 number/);
  refused(() => t.setParameters({ 'layers.0.wq': params['layers.0.wq'], nope: params.wte }), /^unknown parameter "nope"/);
  refused(() => t.lossAndGradients({ inputs: [[0, 1]], targets: [[0, 99]] }), /^target 99 is not in the vocabulary/);
  refused(
    () =>
      t.lossAndGradients({
        inputs: [[0, 1], [0]],
        targets: [
          [0, 1],
          [0, 1],
        ],
      }),
    /^inputs\[1\] must hold 2 ids/,
  );
  refused(() => t.step(0), /^step count must be a whole number from 1/);
  assert.deepEqual(t.parameters(), params);
  assert.equal(t.step(1).step, 1);
  t.dispose();
  refused(() => t.step(1), /disposed/);
});
