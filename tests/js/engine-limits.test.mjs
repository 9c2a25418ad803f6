// A careless or hostile caller cannot break the engine: configs past its memory are refused before
// anything is copied in (saying what fits), callbacks cannot poison it, bad values are quoted as
// given, and after every failure the engine holds what it held at start and computes bit for bit
// what a fresh engine computes.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { WORKED_EXAMPLE } from './worked-example.mjs';

const BUILDS = ['simd', 'scalar'];
const engines = {};
const idle = {}; // memory in use by each engine right after it was created
const reference = {}; // the fixed config's output, from an engine that never saw a bad call
before(async () => {
  for (const build of BUILDS) {
    engines[build] = await createAttention({ build });
    idle[build] = engines[build].memoryInUse();
    reference[build] = (await createAttention({ build })).compute(FIXED).output.data;
  }
});

const FIXED = { ...WORKED_EXAMPLE, heads: 3, weights: 'random', seed: 7, positional: 'sinusoidal' };
const tokens = (n) => Array.from({ length: n }, (_, i) => `t${i}`);
// A huge number[][] that costs nothing to build: every row is the same array.
const hugeRows = (rows, cols) => new Array(rows).fill(new Array(cols).fill(0));

function refused(engine, run, message) {
  assert.throws(run, (error) => error instanceof Error && message.test(error.message), String(message));
}

for (const build of BUILDS) {
  describe(`the ${build} build`, () => {
    const engine = () => engines[build];
    // A refused call allocates nothing: the memory reserved does not grow and none stays in use.
    function refusedWithoutMemory(run, message) {
      const reserved = engine().memoryBytes();
      refused(engine(), run, message);
      assert.equal(engine().memoryBytes(), reserved, 'memory reserved');
      assert.equal(engine().memoryInUse(), idle[build], 'memory in use');
    }

    test('configs past the memory budget are refused before anything is copied, saying what fits', () => {
      refusedWithoutMemory(
        () => engine().compute({ tokens: tokens(1024), dModel: 64, heads: 64 }),
        /^this needs about 2065 MiB of the engine's memory, more than its limit of 1536 MiB: with these settings at most 882 tokens fit, or 1024 tokens with 32 heads; the forward-only path \(outputOnly\) keeps no T×T matrix$/,
      );
      refusedWithoutMemory(
        () => engine().compute({ tokens: tokens(3), dModel: 1024, embeddings: hugeRows(530_000, 1024) }),
        /^embeddings must be 3×1024 \(one row of dModel numbers per token\), got 530000×1024$/,
      );
      refusedWithoutMemory(() => engine().compute({ tokens: tokens(3), dModel: 1024, embeddings: hugeRows(100_000, 1024) }), /got 100000×1024$/);
      const allRows = Array.from({ length: 8192 }, (_, i) => i);
      refusedWithoutMemory(
        () => engine().compute({ tokens: tokens(8192), dModel: 1024, heads: 64 }, { outputOnly: true, weightRows: allRows }),
        /more than its limit of 1536 MiB: at most 599 weight rows fit$/,
      );
      refusedWithoutMemory(
        () => engine().compute({ tokens: ['a'.repeat(5000)], dModel: 4 }),
        /^a token is 5000 bytes long \(the limit is 1024 bytes of UTF-8\)$/,
      );
      refusedWithoutMemory(
        () => engine().compute({ tokens: tokens(3), dModel: 3, mask: 'custom', customMask: hugeRows(50_000, 50_000) }),
        /^customMask must be 3×3 .*got 50000×50000$/,
      );
      assert.deepEqual(engine().compute(FIXED).output.data, reference[build]);
    });

    test('a progress callback that is not a function, throws, or calls compute() again is refused, and nothing leaks', () => {
      refused(engine(), () => engine().compute(FIXED, { onProgress: 5 }), /^onProgress must be a function \(or null\)$/);
      refused(engine(), () => engine().compute(FIXED, { onProgress: 'x' }), /^onProgress must be a function/);
      let inner = null;
      refused(
        engine(),
        () => engine().compute(FIXED, { onProgress: () => engine().compute(FIXED) }),
        /^compute\(\) was called from inside onProgress/,
      );
      engine().compute(FIXED, {
        onProgress: () => {
          try {
            engine().compute(FIXED);
          } catch (error) {
            inner = error;
          }
        },
      });
      assert.match(inner.message, /called from inside onProgress/);

      // 100 000 calls whose callback throws end with that very error, and leave nothing behind.
      const boom = new Error('boom');
      const reserved = engine().memoryBytes();
      let sameError = 0;
      for (let n = 0; n < 100_000; ++n) {
        try {
          engine().compute(
            { tokens: ['a', 'b'], dModel: 4, heads: 2 },
            {
              onProgress: () => {
                throw boom;
              },
            },
          );
        } catch (error) {
          if (error === boom) sameError += 1;
        }
      }
      assert.equal(sameError, 100_000);
      assert.equal(engine().memoryInUse(), idle[build]);
      assert.equal(engine().memoryBytes(), reserved);
      // The forward-only path too, and a callback that throws something that is not an Error.
      assert.throws(
        () =>
          engine().compute(FIXED, {
            outputOnly: true,
            onProgress: () => {
              throw 42;
            },
          }),
        (thrown) => thrown === 42,
      );
      assert.equal(engine().memoryInUse(), idle[build]);
      assert.deepEqual(engine().compute(FIXED).output.data, reference[build]);
    });

    test('a sparse token list is refused and the next call is not served stale matrices', () => {
      const first = engine().compute({ tokens: ['x', 'y'], dModel: 4 });
      refused(engine(), () => engine().compute({ tokens: [, 'y'], dModel: 4 }), /^tokens\[0\] must be a string$/);
      refused(
        engine(),
        () => engine().compute({ tokens: ['a'], source: { tokens: ['b', , 'c'] }, dModel: 4 }),
        /^source\.tokens\[1\] must be a string$/,
      );
      const other = engine().compute({ tokens: ['p', 'q'], dModel: 4 });
      assert.notDeepEqual(other.x.data, first.x.data);
      assert.deepEqual(engine().compute({ tokens: ['x', 'y'], dModel: 4 }).x.data, first.x.data);
      refused(engine(), () => engine().compute(FIXED, { outputOnly: true, weightRows: [, 1] }), /^weightRows\[0\] must be a whole number/);
    });

    test('numbers are quoted as given, and whole numbers past 2³¹ mean what they say', () => {
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 2 ** 31 }), /^dModel must be between 1 and 1024 \(got 2147483648\)$/);
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 4, heads: -(2 ** 40) }), /\(got -1099511627776\)$/);
      refused(
        engine(),
        () => engine().compute(FIXED, { outputOnly: true, weightRows: [2 ** 32] }),
        /^weightRows\[0\] = 4294967296 is not a query row \(0 to 5\)$/,
      );
      const withEntry = (value) => ({ ...WORKED_EXAMPLE, embeddings: WORKED_EXAMPLE.embeddings.map((r, i) => (i === 1 ? [value, 0, 0] : r)) });
      refused(engine(), () => engine().compute(withEntry(1_000_001)), /^embeddings\[1\]\[0\] = 1000001 is too large \(the limit is ±1000000\)$/);
      refused(engine(), () => engine().compute(withEntry(1e308)), /^embeddings\[1\]\[0\] = 1e\+308 is too large \(the limit is ±1000000\)$/);
      refused(engine(), () => engine().compute(withEntry(NaN)), /^embeddings\[1\]\[0\] is not a finite number$/);
      const typed = { rows: 1, cols: 3, data: new Float64Array([0, -1e300, 0]) };
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 3, embeddings: typed }), /^embeddings\[0\]\[1\] = -1e\+300 is too large/);

      const causal = engine().compute({ tokens: tokens(5), dModel: 4 }).output.data;
      const open = engine().compute({ tokens: tokens(5), dModel: 4, mask: 'none' }).output.data;
      assert.deepEqual(engine().compute({ tokens: tokens(5), dModel: 4, mask: 'prefix', prefix: 2 ** 31 }).output.data, open);
      assert.deepEqual(engine().compute({ tokens: tokens(5), dModel: 4, mask: 'window', window: 2 ** 53 }).output.data, causal);
    });

    test('values that look like defaults but are not are refused', () => {
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 4, kvHeads: 0 }), /^kvHeads must be between 1 and heads = 1 \(got 0\)$/);
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 4, weights: null }), /^unknown weights null/);
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 4, mask: null }), /^unknown mask null/);
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 4, temperature: null }), /^temperature must be a number \(got null\)$/);
      refused(
        engine(),
        () => engine().compute({ tokens: ['a'], dModel: 4 }, { implementation: 'bogus' }),
        /^unknown implementation "bogus": use "simd" or "reference"$/,
      );
      refused(engine(), () => engine().compute({ tokens: ['a'], dModel: 4 }, { weightRows: [0] }), /^weightRows works with outputOnly: true only$/);
      assert.equal(engine().memoryInUse(), idle[build]);
      assert.deepEqual(engine().compute(FIXED).output.data, reference[build]);
    });

    test('the vectors of "one vector per token" come without running attention, and are those attention uses', () => {
      const config = { tokens: ['Your', 'journey', '猫', ''], dModel: 5, weights: 'identity', mask: 'none' };
      const { x } = engine().compute(config);
      const vectors = engine().tokenEmbeddings(config.tokens, 5);
      assert.deepEqual({ ...vectors }, { rows: 4, cols: 5, data: x.data });
      refused(engine(), () => engine().tokenEmbeddings(tokens(1025), 5), /^too many tokens: 1025 \(the limit is 1024\)$/);
      refused(engine(), () => engine().tokenEmbeddings(['a'], 0), /^dModel must be between 1 and 1024 \(got 0\)$/);
    });
  });
}

test('the largest config the budget admits computes (SIMD build)', () => {
  const engine = engines.simd;
  let message = '';
  try {
    engine.compute({ tokens: tokens(1024), dModel: 64, heads: 64 });
  } catch (error) {
    message = error.message;
  }
  const fits = Number(/at most (\d+) tokens fit/.exec(message)[1]);
  const result = engine.compute({ tokens: tokens(fits), dModel: 64, heads: 64 });
  assert.equal(result.perHead[63].weights.rows, fits);
  assert.ok(engine.memoryInUse() <= engine.info.limits.memoryBudgetBytes + idle.simd);
  refused(engine, () => engine.compute({ tokens: tokens(1024), dModel: 64, heads: 64 }), /at most/);
  assert.equal(engine.memoryInUse(), idle.simd);
  assert.deepEqual(engine.compute(FIXED).output.data, reference.simd);
});
