// compute()'s biases ({ bq, bk, bv, bo }), RoPE's rotate-half pairing and its base (ropeTheta)
// through the JavaScript API, in both builds, against the float64 reference on odd sizes; bad
// values refused with an Error that names them, the engine's memory back to its idle figure.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { forward64, worstError } from './reference64.mjs';

const BUILDS = ['simd', 'scalar'];
const engines = {};
before(async () => {
  for (const build of BUILDS) engines[build] = await createAttention({ build });
});

const tokens = (T) => Array.from({ length: T }, (_, t) => `b${t % 4}`);
const row = (n, salt) => Array.from({ length: n }, (_, c) => 0.5 * Math.sin(1.3 * c + salt));
const SHAPES = [
  { T: 1, dModel: 6, heads: 3, kvHeads: 1 },
  { T: 7, dModel: 6, heads: 3, kvHeads: 1 },
  { T: 7, dModel: 18, heads: 3, kvHeads: 3 },
  { T: 9, dModel: 24, heads: 6, kvHeads: 2 },
];

function biasesOf({ dModel, heads, kvHeads }) {
  const kv = (kvHeads * dModel) / heads;
  return { bq: row(dModel, 1), bk: Float32Array.from(row(kv, 2)), bv: row(kv, 3), bo: Float64Array.from(row(dModel, 4)) };
}

for (const build of BUILDS) {
  describe(`the ${build} build`, () => {
    for (const shape of SHAPES) {
      const { T, dModel, heads, kvHeads } = shape;
      test(`biases and rotate-half RoPE match float64 at T=${T}, dModel=${dModel}, heads=${heads}, kvHeads=${kvHeads}`, () => {
        const config = {
          tokens: tokens(T),
          dModel,
          heads,
          kvHeads,
          seed: 3,
          biases: biasesOf(shape),
          positional: 'rope',
          ropePairing: 'half',
          ropeTheta: 1e6,
          positionOffset: 5,
        };
        const r = engines[build].compute(config);
        assert.deepEqual(Object.keys(r.biases), ['bq', 'bk', 'bv', 'bo']);
        assert.deepEqual(Array.from(r.biases.bk), Array.from(config.biases.bk));
        const ref = forward64(r, { rope: true, positionOffset: 5, ropeTheta: 1e6, ropeHalf: true });
        assert.ok(worstError(r.output, ref.output) <= 1, 'output');
        assert.ok(worstError(r.v, ref.v) <= 1, 'v');
        r.perHead.forEach((head, h) => {
          for (const name of ['q', 'k', 'scores', 'weights', 'context'])
            assert.ok(worstError(head[name], ref.perHead[h][name]) <= 1, `head ${h} ${name}`);
        });
        // the forward-only path adds them too
        const only = engines[build].compute(config, { outputOnly: true });
        assert.ok(worstError(only.output, ref.output) <= 1, 'forward-only output');
      });
    }

    test('a bias left out adds nothing, and a later call without biases drops them', () => {
      const engine = engines[build];
      const config = { tokens: tokens(5), dModel: 6, heads: 2, seed: 9 };
      const plain = engine.compute(config);
      assert.equal(plain.biases, undefined);
      const withV = engine.compute({ ...config, biases: { bv: row(6, 7) } });
      assert.deepEqual(Object.keys(withV.biases), ['bv']);
      assert.deepEqual(withV.q.data, plain.q.data);
      assert.ok(worstError(withV.output, forward64(withV).output) <= 1);
      assert.deepEqual(engine.compute(config).output.data, plain.output.data);
      // the same length given again after being left out is written afresh, not through a stale view
      const again = engine.compute({ ...config, biases: { bv: row(6, 7) } });
      assert.deepEqual(again.output.data, withV.output.data);
    });

    test('bad biases, pairings and bases are refused with the engine unchanged', async () => {
      const engine = await createAttention({ build });
      const idle = engine.memoryInUse();
      const config = { tokens: tokens(3), dModel: 12, heads: 4, kvHeads: 2, seed: 1, positional: 'rope' };
      const expected = engine.compute(config).output.data;
      const refusals = [
        [{ biases: null }, /^biases must be an object \{ bq, bk, bv, bo \}/],
        [{ biases: [1, 2] }, /^biases must be an object/],
        [{ biases: { bx: [1] } }, /^unknown bias "bx": use bq, bk, bv, bo$/],
        [{ biases: { bq: null } }, /^biases\.bq must be an array of numbers or a Float32Array$/],
        [{ biases: { bq: 'abc' } }, /^biases\.bq must be an array of numbers/],
        [{ biases: { bq: [...row(11, 0), '1'] } }, /^biases\.bq\[11\] is not a number \(got "1"\)$/],
        [{ biases: { bq: row(11, 0) } }, /^biases\.bq must be 12 numbers \(dModel\), got 11$/],
        [{ biases: { bk: row(12, 0) } }, /^biases\.bk must be 6 numbers \(kvHeads·dK\), got 12$/],
        [{ biases: { bo: [...row(11, 0), Number.NaN] } }, /^biases\.bo\[11\] is not a finite number$/],
        [{ biases: { bv: [0, 0, 0, 0, 0, 1e39] } }, /^biases\.bv\[5\] = 1e\+39 is too large/],
        [{ ropePairing: 'pairs' }, /^unknown ropePairing "pairs": use "adjacent", "half"$/],
        [{ ropePairing: null }, /^unknown ropePairing null/],
        [{ ropePairing: 'half' }, /^ropePairing "half" turns dimension i with i \+ dK\/2, so dK must be even \(got dK = 3\)$/],
        [{ ropeTheta: '10000' }, /^ropeTheta must be a number \(got "10000"\)$/],
        [{ ropeTheta: 1 }, /^ropeTheta must be a number above 1 and at most 10000000000 \(got 1\)$/],
        [{ ropeTheta: Number.NaN }, /^ropeTheta must be a number above 1 .*\(got nan\)$/],
      ];
      for (const [extra, message] of refusals) {
        assert.throws(
          () => engine.compute({ ...config, ...extra }),
          (error) => message.test(error.message),
          JSON.stringify(extra),
        );
        assert.equal(engine.memoryInUse(), idle, `memory after ${JSON.stringify(extra)}`);
      }
      // a valid call still works, and without RoPE the pairing of an odd dK does not matter
      assert.deepEqual(engine.compute(config).output.data, expected);
      assert.equal(engine.compute({ ...config, positional: 'none', ropePairing: 'half' }).perHead.length, 4);
    });
  });
}
