// The Train panel's DOM-free modules (web/src/train/): the link field's text, the learner's
// sequence, the curve's geometry and a trained head as a lesson state; and that links made
// before the field existed open as they did.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/src/engine/attention.js';
import { formatTrainText, parseTrainText } from '../../web/src/state/schema.js';
import { EXAMPLES, exampleOf, readSequence, sequenceText, shownToken } from '../../web/src/train/sequence.js';
import { curvePoints, thinned } from '../../web/src/train/curve.js';
import { lessonStateOfHead } from '../../web/src/train/lesson-state.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { decodeHash, encodeHash } from '../../web/src/state/url.js';

const CONFIG = {
  contextLength: 11,
  batchSize: 32,
  vocab: ['a', 'b', 'c', '|'],
  layers: 2,
  heads: 2,
  dModel: 32,
  mlp: false,
  layerNorm: true,
  positions: 'learned',
  learningRate: 0.003,
  seed: 7,
};

test('the train field writes every config field, its version first, and reads back the same model', () => {
  const text = formatTrainText({ task: 'sort', config: CONFIG, steps: 250 });
  assert.equal(text, 'sort_v2_T11_B32_Va.b.c.|_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s250');
  assert.deepEqual(parseTrainText(text), { task: 'sort', checkpoint: false, config: CONFIG, steps: 250 });
  assert.equal(formatTrainText({ task: 'induction', checkpoint: true, steps: 12 }), 'induction_v2_ckpt_s12');
  assert.deepEqual(parseTrainText('induction_v2_ckpt_s12'), { task: 'induction', checkpoint: true, config: null, steps: 12 });
  // A vocabulary's separators and escapes travel as %2E, %5F and %25; any character otherwise.
  const odd = { ...CONFIG, vocab: ['.', '_', '%', '%2E', '让', ' '] };
  assert.deepEqual(parseTrainText(formatTrainText({ task: 'text', config: odd, steps: 1 })).config, odd);
});

test('a version-1 recipe (before T, B and V were written) still opens, with the task’s defaults for them', () => {
  const { contextLength, batchSize, vocab, ...v1 } = CONFIG;
  assert.deepEqual(parseTrainText('sort_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s250'), {
    task: 'sort',
    checkpoint: false,
    config: v1,
    steps: 250,
  });
  assert.deepEqual(parseTrainText('induction_ckpt_s12'), { task: 'induction', checkpoint: true, config: null, steps: 12 });
});

test('a train field that is not one is refused whole', () => {
  for (const bad of [
    '',
    'induction',
    'copy_ckpt_s0',
    'sort_ckpt',
    'sort_ckpt_s-1',
    'sort_L9_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1',
    'sort_L2_H2_C32_mlp2_ln1_poslearned_lr0.003_seed7_s1',
    'sort_L2_H2_C32_mlp0_ln1_posrope_lr0.003_seed7_s1',
    'sort_L2_H2_C32_mlp0_ln1_poslearned_lr5_seed7_s1',
    'sort_L2_H2_C32_mlp0_ln1_poslearned_seed7_s1',
    'sort_ckpt_s100001',
    'sort_v3_ckpt_s1',
    'sort_v0_ckpt_s1',
    'sort_v2_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1', // (a version-2 recipe without T, B and V)
    'sort_v2_T1_B32_Va.b_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1',
    'sort_v2_T11_B0_Va.b_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1',
    'sort_v2_T11_B32_Va_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1',
    'sort_v2_T11_B32_Va.a_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1',
    'sort_v2_T11_B32_Va.._L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1',
    `sort_v2_T11_B32_Va.${'b'.repeat(17)}_L2_H2_C32_mlp0_ln1_poslearned_lr0.003_seed7_s1`,
  ]) {
    assert.equal(parseTrainText(bad), null, bad);
  }
});

test('a link keeps the train field, and a bad one is said and dropped', () => {
  const state = { ...decodeHash('').state, train: 'previous_ckpt_s40' };
  const hash = encodeHash({ presetId: 'default', state });
  assert.match(hash, /train=previous_ckpt_s40/);
  assert.deepEqual(decodeHash(hash).state, state);
  const bad = decodeHash('#v=1&train=previous_s40');
  assert.equal(bad.state.train, '');
  assert.equal(bad.ignored.length, 1);
});

test('an old link (before the train field) opens its state with no model, and writes no train field', () => {
  const decoded = decodeHash('#preset=journey&v=1&mask=none&lang=zh-CN');
  assert.deepEqual(decoded.ignored, []);
  assert.equal(decoded.state.train, '');
  assert.equal(decoded.state.mask, 'none');
  assert.doesNotMatch(encodeHash({ presetId: decoded.presetId, state: decoded.state }), /train/);
});

test('a sequence is read in the task’s vocabulary, a bad one said by name', () => {
  const letters = ['a', 'b', 'c', '|'];
  assert.deepEqual(readSequence('a b | c', letters, 8), { ok: true, tokens: ['a', 'b', '|', 'c'] });
  assert.deepEqual(readSequence('ab|c', letters, 8), { ok: true, tokens: ['a', 'b', '|', 'c'] });
  assert.deepEqual(readSequence('a z', letters, 8), { ok: false, key: 'train.error.unknownToken', params: { token: 'z', vocab: 'a b c |' } });
  assert.equal(readSequence('  ', letters, 8).key, 'train.error.empty');
  assert.deepEqual(readSequence('a b c a b', letters, 4).params, { T: 5, max: 4 });
  // With a space in the vocabulary (text), every character is a token, the space too.
  assert.deepEqual(readSequence('ab a', ['a', 'b', ' '], 8).tokens, ['a', 'b', ' ', 'a']);
  assert.equal(sequenceText(['a', 'b', ' ', 'a'], ['a', 'b', ' ']), 'ab a');
  assert.equal(sequenceText(['a', '|', 'b'], letters), 'a | b');
  assert.equal(shownToken(' '), '␣');
});

test('every task’s example is in its default vocabulary and context', async () => {
  const engine = await createAttention();
  for (const task of Object.keys(EXAMPLES)) {
    const trainer = engine.createTrainer({ task });
    const { vocab, contextLength } = trainer.config;
    const read = readSequence(EXAMPLES[task], vocab, contextLength);
    assert.ok(read.ok, task);
    assert.deepEqual(exampleOf(task, vocab, contextLength), read.tokens);
    trainer.dispose();
  }
});

test('the curve spans its box: loss from 0 to its largest value, accuracy from 0 to 1', () => {
  const points = curvePoints(
    [
      { step: 0, loss: 2, accuracy: 0 },
      { step: 50, loss: 1, accuracy: 0.5 },
      { step: 100, loss: 0, accuracy: 1 },
    ],
    { width: 100, height: 50 },
  );
  assert.equal(points.loss, '0.0,0.0 50.0,25.0 100.0,50.0');
  assert.equal(points.accuracy, '0.0,50.0 50.0,25.0 100.0,0.0');
  const long = Array.from({ length: 401 }, (_, step) => ({ step, loss: 1, accuracy: 0 }));
  const kept = thinned(long, 400);
  assert.ok(kept.length <= 201 + 1);
  assert.equal(kept.at(-1).step, 400);
});

test('a trained head as a lesson state computes the trainer’s attention map (1e-5)', async () => {
  const engine = await createAttention();
  const trainer = engine.createTrainer({ task: 'induction' });
  trainer.step(30);
  const tokens = ['k', 'd', 'n', 'm', 'b', 'f', 'm', 'b', 'f'];
  const run = trainer.run(tokens);
  const params = trainer.parameters();
  for (const layer of [0, 1]) {
    const weights = Object.fromEntries(['wq', 'wk', 'wv', 'wo'].map((key) => [key, params[`layers.${layer}.${key}`]]));
    const map = run.layers[layer].heads[1].attention;
    const state = lessonStateOfHead({ tokens, input: run.layers[layer].input, weights, heads: 2, layer, head: 1, map, train: '' });
    assert.equal(state.trainLayer, layer + 1);
    // The entry selected is the head's peak in the last row.
    const last = Array.from(map.data.subarray((tokens.length - 1) * tokens.length));
    assert.equal(state.cell, `weights.2.${tokens.length}.${last.indexOf(Math.max(...last)) + 1}`);
    // Through the link, as the page opens it.
    const decoded = decodeHash(encodeHash({ presetId: 'default', state }));
    assert.deepEqual(decoded.ignored, []);
    const result = engine.compute(engineConfigOf(decoded.state));
    for (let head = 0; head < 2; head += 1) {
      const want = run.layers[layer].heads[head].attention.data;
      const got = result.perHead[head].weights.data;
      const worst = Math.max(...Array.from(want, (w, k) => Math.abs(w - got[k])));
      assert.ok(worst <= 1e-5, `layer ${layer} head ${head}: ${worst}`);
    }
  }
  trainer.dispose();
});
