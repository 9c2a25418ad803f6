// The softmax's axis (`softmaxOver`, link param `smax`): the course's misconception "softmax runs
// over the columns" as the engine computes it, and the link field that asks for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { decodeHash, encodeHash } from '../../web/src/state/url.js';
import { ALL_FIELDS } from '../../web/src/state/schema.js';
import { lessonEngineConfig, toEngineConfig } from '../../web/src/state/validate.js';

const at = (m, r, c) => m.data[r * m.cols + c];

test('the link field smax: keys by default, queries when asked, anything else ignored', () => {
  const field = ALL_FIELDS.find((f) => f.key === 'softmaxOver');
  assert.deepEqual(
    { param: field.param, values: field.values, default: field.default },
    { param: 'smax', values: ['keys', 'queries'], default: 'keys' },
  );
  assert.equal(decodeHash('#preset=journey').state.softmaxOver, 'keys');
  const asked = decodeHash('#preset=journey&v=1&smax=queries');
  assert.equal(asked.state.softmaxOver, 'queries');
  assert.deepEqual(asked.ignored, []);
  const bad = decodeHash('#preset=journey&v=1&smax=rows');
  assert.equal(bad.state.softmaxOver, 'keys');
  assert.ok(bad.ignored.length > 0);
  // Written only when it differs from the preset, and read back the same.
  assert.doesNotMatch(encodeHash({ presetId: 'journey', state: decodeHash('#preset=journey').state }), /smax/);
  const link = encodeHash({ presetId: 'journey', state: asked.state });
  assert.match(link, /smax=queries/);
  assert.equal(decodeHash(link).state.softmaxOver, 'queries');
  // The engine is asked for it only when it is not the default.
  assert.equal(lessonEngineConfig({ mask: 'causal', softmaxOver: 'keys' }).softmaxOver, undefined);
  assert.equal(toEngineConfig(asked.state).softmaxOver, 'queries');
});

test('over queries the engine normalises columns: rows sum to weightSum, not 1', async () => {
  const engine = await createAttention();
  const config = toEngineConfig(decodeHash('#preset=journey&v=1&smax=queries').state);
  for (const implementation of ['simd', 'reference']) {
    const r = engine.compute(config, { implementation });
    const head = r.perHead[0];
    for (let j = 0; j < r.Tk; j += 1) {
      let column = 0;
      for (let i = 0; i < r.T; i += 1) column += at(head.weights, i, j);
      assert.ok(Math.abs(column - 1) < 1e-5, `column ${j} sums to ${column}`);
    }
    for (let i = 0; i < r.T; i += 1) {
      let row = 0;
      for (let j = 0; j < r.Tk; j += 1) row += at(head.weights, i, j);
      assert.ok(Math.abs(row - head.weightSum[i]) < 1e-5);
    }
    // Causal: the last key is the last query's alone, so that row takes more than 1, the first less.
    assert.equal(at(head.weights, r.T - 1, r.Tk - 1), 1);
    assert.ok(head.weightSum[r.T - 1] > 1 && head.weightSum[0] < 1);
  }
  // Over keys every row's weightSum is 1.
  const keys = engine.compute({ ...config, softmaxOver: 'keys' });
  for (const sum of keys.perHead[0].weightSum) assert.ok(Math.abs(sum - 1) < 1e-6);
});

test('softmaxOver is checked, and refused on the paths that normalise row by row', async () => {
  const engine = await createAttention();
  const config = { tokens: ['a', 'b', 'c'], dModel: 4, heads: 2 };
  assert.throws(() => engine.compute({ ...config, softmaxOver: 'rows' }), /unknown softmaxOver "rows"/);
  assert.throws(() => engine.compute({ ...config, softmaxOver: 'queries' }, { outputOnly: true }), /softmaxOver "queries"/);
  // laterWeight: what a row takes from the keys after it, 0 under the causal mask.
  const none = engine.compute({ ...config, mask: 'none' });
  const causal = engine.compute(config);
  assert.ok(none.perHead[0].laterWeight[0] > 0);
  assert.ok(Math.abs(none.perHead[0].laterWeight[0] - (at(none.perHead[0].weights, 0, 1) + at(none.perHead[0].weights, 0, 2))) < 1e-6);
  assert.deepEqual(Array.from(causal.perHead[1].laterWeight), [0, 0, 0]);
});
