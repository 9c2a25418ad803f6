// RoPE, positionOffset and ALiBi through the JavaScript API, in both builds, against the float64
// reference on odd sizes: T = 1 and 7, d_k = 3 (odd: its last dimension is not rotated), 5 heads
// of d_k = 1, head counts that are not powers of two; and bad values refused with an Error.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { alibiSlopes64, forward64, worstError } from './reference64.mjs';

const BUILDS = ['simd', 'scalar'];
const engines = {};
before(async () => {
  for (const build of BUILDS) engines[build] = await createAttention({ build });
});

const tokens = (T) => Array.from({ length: T }, (_, t) => `r${t % 5}`);
const SHAPES = [
  { T: 1, dModel: 5, heads: 5 },
  { T: 7, dModel: 3, heads: 1 }, // d_k = 3
  { T: 7, dModel: 5, heads: 5 }, // d_k = 1: nothing to rotate
  { T: 7, dModel: 12, heads: 3, kvHeads: 1 },
  { T: 9, dModel: 18, heads: 6, kvHeads: 2 },
];

// The largest |difference| between two results' scores, over every head.
function largestScoreChange(a, b) {
  let worst = 0;
  a.perHead.forEach((head, h) =>
    head.scores.data.forEach((s, n) => {
      worst = Math.max(worst, Math.abs(s - b.perHead[h].scores.data[n]));
    }),
  );
  return worst;
}

function checkAgainstReference(r, options) {
  const ref = forward64(r, options);
  assert.ok(worstError(r.output, ref.output) <= 1, 'output');
  r.perHead.forEach((head, h) => {
    for (const name of ['q', 'k', 'scores', 'masked', 'weights', 'context']) {
      assert.ok(worstError(head[name], ref.perHead[h][name]) <= 1, `head ${h} ${name}`);
    }
    if (options.alibi) assert.ok(worstError(head.bias, ref.perHead[h].bias) <= 1, `head ${h} bias`);
  });
}

for (const build of BUILDS) {
  describe(`the ${build} build`, () => {
    for (const { T, dModel, heads, kvHeads } of SHAPES) {
      for (const [name, extra] of [
        ['RoPE', { positional: 'rope' }],
        ['RoPE from 11', { positional: 'rope', positionOffset: 11 }],
        ['ALiBi', { alibi: true }],
        ['ALiBi, no mask', { alibi: true, mask: 'none' }],
        ['RoPE + ALiBi', { positional: 'rope', alibi: true }],
      ]) {
        test(`${name} matches float64 at T=${T}, dModel=${dModel}, heads=${heads}, kvHeads=${kvHeads ?? heads}`, () => {
          const config = { tokens: tokens(T), dModel, heads, kvHeads, seed: 4, ...extra };
          const r = engines[build].compute(config);
          checkAgainstReference(r, {
            mask: extra.mask ?? 'causal',
            rope: extra.positional === 'rope',
            positionOffset: extra.positionOffset ?? 0,
            alibi: !!extra.alibi,
          });
          const fast = engines[build].compute(config, { outputOnly: true, weightRows: [T - 1] });
          assert.ok(
            worstError(
              fast.output,
              forward64(r, {
                mask: extra.mask ?? 'causal',
                rope: extra.positional === 'rope',
                positionOffset: extra.positionOffset ?? 0,
                alibi: !!extra.alibi,
              }).output,
            ) <= 1,
            'forward-only output',
          );
        });
      }
    }

    test('an odd d_k leaves its last dimension unrotated, and the angles are reported', () => {
      const r = engines[build].compute({ tokens: tokens(7), dModel: 3, heads: 1, positional: 'rope', positionOffset: 2 });
      assert.deepEqual([r.ropeAngles.rows, r.ropeAngles.cols], [7, 1]);
      for (let t = 0; t < 7; ++t) {
        assert.equal(r.ropeAngles.data[t], t + 2); // θ_0 = 1
        assert.equal(r.perHead[0].q.data[3 * t + 2], r.q.data[3 * t + 2]);
        assert.equal(r.perHead[0].k.data[3 * t + 2], r.k.data[3 * t + 2]);
      }
      assert.equal(r.positions, undefined);
    });

    test('with RoPE shifting every position leaves every score unchanged; with sinusoidal it does not', () => {
      const config = { tokens: tokens(7), dModel: 12, heads: 3, seed: 2 };
      const at = (extra) => engines[build].compute({ ...config, ...extra });
      assert.ok(largestScoreChange(at({ positional: 'rope' }), at({ positional: 'rope', positionOffset: 1000 })) < 1e-5);
      assert.ok(largestScoreChange(at({ positional: 'sinusoidal' }), at({ positional: 'sinusoidal', positionOffset: 1000 })) > 1e-2);
    });

    test("ALiBi reports its slopes, the reference code's for 5 heads", () => {
      const r = engines[build].compute({ tokens: tokens(4), dModel: 10, heads: 5, alibi: true });
      const slopes = alibiSlopes64(5);
      assert.equal(r.alibiSlopes.length, 5);
      r.alibiSlopes.forEach((m, h) => assert.ok(Math.abs(m - slopes[h]) <= 1e-7 * slopes[h]));
      assert.deepEqual(Array.from(r.alibiSlopes), [2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8, 2 ** -1].map(Math.fround));
      assert.equal(r.perHead[0].bias.data[1 * 4 + 3], Math.fround(-0.25 * 2));
      assert.equal(engines[build].compute({ tokens: tokens(4), dModel: 10, heads: 5 }).perHead[0].bias, undefined);
    });

    test('bad values are refused with an Error that names them', () => {
      const base = { tokens: tokens(3), dModel: 4, heads: 2 };
      const refused = (config, message) =>
        assert.throws(
          () => engines[build].compute({ ...base, ...config }),
          (e) => e instanceof Error && message.test(e.message),
        );
      refused({ positional: 'rotary' }, /^unknown positional "rotary": use "none", "sinusoidal", "rope"$/);
      refused({ positionOffset: -1 }, /^positionOffset must be a whole number between 0 and 1000000 \(got -1\)$/);
      refused({ positionOffset: 1.5 }, /^positionOffset must be a whole number \(got 1\.5\)$/);
      refused({ positionOffset: 2 ** 31 }, /^positionOffset must be a whole number between 0 and 1000000 \(got 2147483648\)$/);
      refused({ alibi: 'yes' }, /^alibi must be true or false$/);
      refused({ positional: 'rope', source: { tokens: ['x'] } }, /^positional "rope" works in self-attention only/);
      refused({ alibi: true, source: { tokens: ['x'] } }, /^alibi works in self-attention only/);
      assert.equal(engines[build].compute(base).T, 3); // and the engine keeps working
    });
  });
}
