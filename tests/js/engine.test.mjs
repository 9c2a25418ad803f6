// The JavaScript facade, loading the very modules the page loads (web/src/engine/wasm/), in both
// builds: the worked example, agreement with an independent float64 reference for odd sizes,
// determinism across builds, ownership of results, and every bad input.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { forward64, worstError } from './reference64.mjs';
import { WORKED_EXAMPLE, row, fixed3 } from './worked-example.mjs';

const BUILDS = ['simd', 'scalar'];
const engines = {};
before(async () => {
  for (const build of BUILDS) engines[build] = await createAttention({ build });
});

const bits = (value) => new Uint32Array(new Float32Array([value]).buffer)[0];

for (const build of BUILDS) {
  describe(`the ${build} build`, () => {
    test('reports which SIMD path it runs', () => {
      const { info } = engines[build];
      assert.equal(info.build, build);
      if (build === 'simd') assert.match(info.simdPath, /^xsimd sse4\.1 → wasm simd128$/);
      else assert.match(info.simdPath, /scalar/);
      assert.deepEqual(info.limits, {
        maxTokens: 1024,
        maxTokensOutputOnly: 8192,
        maxTokensTrace: 64,
        maxTokensDecode: 256,
        maxTraceTiles: 65536,
        maxPositionOffset: 1000000,
        maxDModel: 1024,
        maxEntry: 1e6,
        maxTokenBytes: 1024,
        memoryBudgetBytes: 1536 * 1024 * 1024,
        trainMemoryBudgetBytes: 512 * 1024 * 1024,
        maxCallSeconds: 2,
        maxTrainLayers: 4,
        maxTrainWidth: 256,
        maxTrainContext: 128,
        maxTrainBatch: 256,
        maxTrainVocab: 256,
      });
    });

    test('reproduces the worked example to 3 decimals', () => {
      const r = engines[build].compute(WORKED_EXAMPLE);
      const head = r.perHead[0];
      assert.equal(r.T, 6);
      assert.equal(r.dK, 3);
      assert.deepEqual(fixed3(row(head.scores, 0)), [0.577, 0.551, 0.544, 0.274, 0.264, 0.364]);
      assert.deepEqual(fixed3(row(head.weights, 1)), [0.423, 0.577, 0, 0, 0, 0]);
      assert.deepEqual(fixed3(row(head.weights, 5)), [0.151, 0.197, 0.194, 0.153, 0.124, 0.181]);
      assert.deepEqual(fixed3(row(head.context, 1)), [0.499, 0.566, 0.757]);
      assert.deepEqual(fixed3(row(head.context, 5)), [0.422, 0.623, 0.551]);
      assert.deepEqual(row(r.output, 0), row(r.x, 0), "row 1's output equals its input");
      assert.equal(head.masked.data[1], -Infinity);
      assert.equal(head.weights.data[1], 0);
    });

    const shapes = [
      { T: 1, dModel: 5, heads: 1 },
      { T: 7, dModel: 5, heads: 5 },
      { T: 7, dModel: 12, heads: 3 },
      { T: 33, dModel: 6, heads: 3 },
      { T: 9, dModel: 64, heads: 4 },
    ];
    for (const { T, dModel, heads } of shapes) {
      for (const mask of ['causal', 'none']) {
        test(`matches float64 within 1e-5 at T=${T}, dModel=${dModel}, heads=${heads}, ${mask}`, () => {
          const tokens = Array.from({ length: T }, (_, t) => `w${t}`);
          const r = engines[build].compute({ tokens, dModel, heads, mask, seed: 99 });
          const ref = forward64(r, { mask });
          for (const name of ['q', 'k', 'v', 'concat', 'output']) {
            assert.ok(worstError(r[name], ref[name]) <= 1, name);
          }
          r.perHead.forEach((head, h) => {
            for (const name of ['q', 'k', 'v', 'scores', 'masked', 'weights', 'context']) {
              assert.ok(worstError(head[name], ref.perHead[h][name]) <= 1, `head ${h} ${name}`);
            }
          });
        });
      }
    }

    test('gives the pinned bits for seeded weights and per-token embeddings', () => {
      // The same bit patterns as tests/cpp/test_weights.cpp checks natively.
      const r = engines[build].compute({ tokens: ['attention'], dModel: 4, heads: 1, seed: 0 });
      assert.equal(bits(r.weights.wq.data[0]), 0x3ec44150);
      assert.equal(bits(r.weights.wo.data[15]), 0xbdbe6810);
      const x = engines[build].compute({ tokens: ['attention'], dModel: 3, heads: 1 }).x;
      assert.equal(bits(x.data[2]), 0x3ecf4748);
    });

    test('hands out results that JavaScript owns', () => {
      const first = engines[build].compute(WORKED_EXAMPLE);
      const before = Float32Array.from(first.perHead[0].weights.data);
      engines[build].compute({ tokens: ['a', 'b'], dModel: 4, heads: 2 });
      assert.deepEqual(first.perHead[0].weights.data, before);
    });

    test('writes new inputs of an unchanged shape, also after the wasm memory has grown', () => {
      // The facade reuses its view of the core's input storage while the shape stays the same.
      const engine = engines[build];
      const config = (scale) => ({
        ...WORKED_EXAMPLE,
        embeddings: WORKED_EXAMPLE.embeddings.map((r) => r.map((v) => v * scale)),
      });
      const once = engine.compute(config(1)).output.data.slice();
      const twice = engine.compute(config(2)).output.data.slice();
      assert.notDeepEqual(twice, once);
      // Large enough to grow the memory, which detaches every earlier view.
      const grownFrom = engine.memoryBytes();
      engine.compute({ tokens: Array.from({ length: 700 }, (_, t) => `t${t}`), dModel: 64, heads: 4 });
      assert.ok(engine.memoryBytes() > grownFrom, 'the memory grew');
      assert.deepEqual(engine.compute(config(1)).output.data, once);
      assert.deepEqual(engine.compute(config(2)).output.data, twice);
    });

    describe('refuses bad input with a named Error and keeps working', () => {
      const bad = [
        ['no tokens', { ...WORKED_EXAMPLE, tokens: [], embeddings: undefined }, /no tokens/],
        ['too many tokens', { tokens: new Array(1025).fill('a'), dModel: 4, heads: 1 }, /too many tokens: 1025 \(the limit is 1024\)/],
        ['heads not dividing dModel', { tokens: ['a'], dModel: 6, heads: 4 }, /heads \(4\) must divide dModel \(6\)/],
        ['zero heads', { tokens: ['a'], dModel: 6, heads: 0 }, /heads must be between 1 and dModel/],
        ['dModel missing', { tokens: ['a'], heads: 1 }, /dModel must be a whole number/],
        ['embeddings of the wrong shape', { ...WORKED_EXAMPLE, embeddings: WORKED_EXAMPLE.embeddings.slice(1) }, /embeddings must be 6×3.*got 5×3/],
        [
          'ragged embeddings',
          { ...WORKED_EXAMPLE, embeddings: WORKED_EXAMPLE.embeddings.map((r, i) => (i === 1 ? r.slice(0, 2) : r)) },
          /embeddings\[1\] has 2 numbers/,
        ],
        [
          'a non-numeric entry',
          { ...WORKED_EXAMPLE, embeddings: WORKED_EXAMPLE.embeddings.map((r, i) => (i === 2 ? [r[0], 'x', r[2]] : r)) },
          /embeddings\[2\]\[1\] is not a number/,
        ],
        [
          'a NaN entry',
          { ...WORKED_EXAMPLE, embeddings: WORKED_EXAMPLE.embeddings.map((r, i) => (i === 3 ? [NaN, 0, 0] : r)) },
          /embeddings\[3\]\[0\] is not a finite number/,
        ],
        [
          'an infinite weight',
          {
            ...WORKED_EXAMPLE,
            weights: {
              wq: [
                [1, 0, 0],
                [0, 1, 0],
                [0, 0, Infinity],
              ],
              wk: [
                [1, 0, 0],
                [0, 1, 0],
                [0, 0, 1],
              ],
              wv: [
                [1, 0, 0],
                [0, 1, 0],
                [0, 0, 1],
              ],
              wo: [
                [1, 0, 0],
                [0, 1, 0],
                [0, 0, 1],
              ],
            },
          },
          /wq\[2\]\[2\] is not a finite number/,
        ],
        ['weights of the wrong shape', { ...WORKED_EXAMPLE, weights: { wq: [[1]], wk: [[1]], wv: [[1]], wo: [[1]] } }, /wq must be 3×3/],
        ['missing weight matrix', { ...WORKED_EXAMPLE, weights: { wq: [[1]] } }, /weights\.wk is missing/],
        ['an unknown mask', { ...WORKED_EXAMPLE, mask: 'diagonal' }, /unknown mask "diagonal"/],
        ['unknown weights', { ...WORKED_EXAMPLE, weights: 'xavier' }, /unknown weights "xavier"/],
        ['a non-string token', { tokens: ['a', 3], dModel: 2, heads: 1 }, /tokens\[1\] must be a string/],
        ['a negative seed', { tokens: ['a'], dModel: 2, heads: 1, seed: -1 }, /seed must be between 0 and 4294967295/],
      ];
      for (const [what, config, message] of bad) {
        test(what, () => {
          assert.throws(
            () => engines[build].compute(config),
            (error) => error instanceof Error && message.test(error.message),
          );
          const r = engines[build].compute(WORKED_EXAMPLE);
          assert.deepEqual(fixed3(row(r.perHead[0].weights, 1)), [0.423, 0.577, 0, 0, 0, 0]);
        });
      }
    });
  });
}

test('the SIMD and scalar builds agree within 1e-5', () => {
  const config = { tokens: 'the cat sat on the mat and looked around'.split(' '), dModel: 12, heads: 3, seed: 5 };
  const a = engines.simd.compute(config);
  const b = engines.scalar.compute(config);
  for (let n = 0; n < a.output.data.length; ++n) {
    assert.ok(Math.abs(a.output.data[n] - b.output.data[n]) <= 1e-5 * Math.max(1, Math.abs(b.output.data[n])));
  }
  assert.deepEqual(a.x.data, b.x.data, 'embeddings are bit-identical');
  assert.deepEqual(a.weights.wv.data, b.weights.wv.data, 'weights are bit-identical');
});

test('the SIMD implementation matches the scalar reference inside one module', () => {
  const config = { tokens: Array.from({ length: 13 }, (_, t) => `t${t}`), dModel: 10, heads: 5, seed: 3, mask: 'none' };
  const simd = engines.simd.compute(config);
  const reference = engines.simd.compute(config, { implementation: 'reference' });
  const worst = Math.max(...simd.output.data.map((v, n) => Math.abs(v - reference.output.data[n])));
  assert.ok(worst <= 1e-5, `max |simd − reference| = ${worst}`);
});
