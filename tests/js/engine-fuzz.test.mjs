// The engine fuzz: thousands of random configs and mistaken calls, seeded (ENGINE_FUZZ_SEED to
// replay another run), in both builds. Every call either returns a result of the right shape or
// throws an Error with a message for people; none aborts the module or leaks its memory, and at
// the end the engine computes a fixed config bit for bit as a fresh one does. A failure found here
// becomes a case of engine-limits.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { rng } from './share-random.mjs';
import { WORKED_EXAMPLE } from './worked-example.mjs';

const SEED = Number(process.env.ENGINE_FUZZ_SEED ?? 20261204);
const CALLS_PER_BUILD = 3000;
const FIXED = { ...WORKED_EXAMPLE, heads: 3, weights: 'random', seed: 11 };
// What an engine that lost control says: none of these may ever reach a caller.
const BROKEN = /Aborted|RuntimeError|BindingError|memory access|out of bounds|unreachable|\[object /;

const engines = {};
before(async () => {
  for (const build of ['simd', 'scalar']) engines[build] = await createAttention({ build });
});

// Mostly sensible values, sometimes a mistake a caller makes.
function fuzzValue(r, sensible) {
  if (!r.chance(0.06)) return sensible();
  return r.pick([0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 1e308, '3', null, {}, [], true]);
}

function fuzzNumber(r) {
  return r.chance(0.03) ? r.pick([NaN, Infinity, -Infinity, 1e308, 1e7, -1000001, '1', null, undefined]) : (r() - 0.5) * 4;
}

function fuzzMatrix(r, rows, cols) {
  const rowsGiven = r.chance(0.05) ? rows + r.int(-1, 2) : rows;
  const colsGiven = r.chance(0.05) ? cols + r.int(-1, 2) : cols;
  const matrix = Array.from({ length: Math.max(0, rowsGiven) }, () => Array.from({ length: Math.max(0, colsGiven) }, () => fuzzNumber(r)));
  if (matrix.length > 1 && r.chance(0.03)) matrix[1] = matrix[1].slice(1); // ragged
  if (matrix.length > 0 && r.chance(0.02)) delete matrix[0]; // a hole
  if (r.chance(0.15)) return { rows: rowsGiven, cols: colsGiven, data: Float32Array.from(matrix.flat(), Number) };
  return matrix;
}

function fuzzTokens(r, T) {
  const tokens = Array.from({ length: T }, () => r.pick(['a', 'cat', '猫', '', '\u0000', '🙂', 'x'.repeat(r.int(0, 40)), '<b>']));
  if (T > 0 && r.chance(0.02)) delete tokens[r.int(0, T - 1)];
  if (r.chance(0.01)) tokens.push(3);
  if (r.chance(0.005)) tokens.push('y'.repeat(1100));
  return tokens;
}

function fuzzCall(r) {
  const T = r.chance(0.02) ? r.pick([0, 1025]) : r.int(1, 9);
  const dModel = fuzzValue(r, () => r.int(1, 12));
  const heads = fuzzValue(r, () => r.pick([1, 1, 2, 3, 4, 5, 6]));
  const C = Number.isInteger(dModel) && dModel > 0 && dModel < 64 ? dModel : 4;
  const config = { tokens: fuzzTokens(r, T), dModel, heads };
  if (r.chance(0.3)) config.kvHeads = fuzzValue(r, () => r.pick([1, 2, 3]));
  if (r.chance(0.2)) config.embeddings = fuzzMatrix(r, T, C);
  if (r.chance(0.3)) config.weights = r.pick(['identity', 'random', 'bogus']);
  if (r.chance(0.1)) {
    const kv = C; // right only with as many key/value heads as heads
    config.weights = { wq: fuzzMatrix(r, C, C), wk: fuzzMatrix(r, C, kv), wv: fuzzMatrix(r, C, kv), wo: fuzzMatrix(r, C, C) };
  }
  if (r.chance(0.3)) config.seed = fuzzValue(r, () => r.int(0, 1000));
  if (r.chance(0.25)) config.positional = r.pick(['none', 'sinusoidal', 'rope', 'rope', 'rotary']);
  if (r.chance(0.15)) config.positionOffset = fuzzValue(r, () => r.pick([0, 1, 37, 1000000, 1000001, -1]));
  if (r.chance(0.2)) config.alibi = r.pick([true, true, false, 'yes', 1]);
  const S = r.int(1, 6);
  if (r.chance(0.15)) config.source = { tokens: fuzzTokens(r, S), ...(r.chance(0.3) ? { embeddings: fuzzMatrix(r, S, C) } : {}) };
  const Tk = config.source ? S : T;
  if (r.chance(0.6)) config.mask = r.pick(['none', 'causal', 'window', 'prefix', 'custom', 'diagonal']);
  if (r.chance(0.3)) config.window = fuzzValue(r, () => r.int(1, 10));
  if (r.chance(0.3)) config.prefix = fuzzValue(r, () => r.int(0, 10));
  if (config.mask === 'custom' || r.chance(0.03)) {
    config.customMask = Array.from({ length: r.chance(0.9) ? T : T + 1 }, () => Array.from({ length: Tk }, () => r.pick([true, false, false, 0, 1])));
  }
  if (r.chance(0.15)) config.padding = Array.from({ length: r.chance(0.9) ? Tk : Tk + 1 }, () => r.pick([true, false, false, false]));
  if (r.chance(0.15)) config.maskFill = r.pick(['-inf', -1e9, -1e31, 0, 1, NaN, -Infinity]);
  if (r.chance(0.15)) config.temperature = fuzzValue(r, () => r.pick([0.01, 0.5, 1, 2, 100]));
  for (const flag of ['maskBeforeScale', 'scale', 'naiveSoftmax']) if (r.chance(0.1)) config[flag] = r.pick([true, false, 'yes']);

  const options = {};
  // a tenth of the calls each go to the FlashAttention trace and to the incremental decode
  if (r.chance(0.1)) {
    const block = () => fuzzValue(r, () => r.pick([1, 2, 3, 5, 16, 64, 65, 0]));
    return { config, options, method: 'flashTrace', methodOptions: r.chance(0.95) ? { blockRows: block(), blockKeys: block() } : undefined };
  }
  if (r.chance(0.1)) return { config, options, method: 'decode' };
  if (r.chance(0.3)) {
    options.outputOnly = true;
    if (r.chance(0.5)) options.weightRows = Array.from({ length: r.int(0, 3) }, () => fuzzValue(r, () => r.int(0, T)));
    if (r.chance(0.1)) delete config.tokens;
  }
  if (r.chance(0.05)) options.implementation = r.pick(['reference', 'simd', 'bogus']);
  if (r.chance(0.1))
    options.onProgress = r.pick([
      5,
      'x',
      () => {},
      () => {
        throw new Error('thrown by onProgress');
      },
      'reenter',
    ]);
  return { config, options, method: 'compute' };
}

function checkResult(result, config, options, method) {
  const T = config.tokens?.length ?? result.T;
  assert.equal(result.output.rows, T);
  assert.equal(result.output.cols, config.dModel);
  if (!options.outputOnly) assert.equal(result.perHead.length, config.heads ?? 1);
  if (method === 'decode') assert.equal(result.difference.length, T);
  if (method === 'flashTrace') assert.ok(result.perHead.every((head) => head.tiles.length > 0));
}

for (const build of ['simd', 'scalar']) {
  test(`engine fuzz, ${build} build: ${CALLS_PER_BUILD} calls (seed ${SEED})`, async () => {
    const engine = engines[build];
    const expected = (await createAttention({ build })).compute(FIXED).output.data;
    const idle = engine.memoryInUse();
    const r = rng(SEED + (build === 'simd' ? 0 : 1));
    let computed = 0;
    for (let n = 0; n < CALLS_PER_BUILD; ++n) {
      const { config, options, method, methodOptions } = fuzzCall(r);
      if (options.onProgress === 'reenter') options.onProgress = () => engine.compute(FIXED);
      const where = `call ${n} of seed ${SEED}, ${method}: ${JSON.stringify(config).slice(0, 400)} ${JSON.stringify(methodOptions ?? options)}`;
      let result;
      try {
        result =
          method === 'compute'
            ? engine.compute(config, options)
            : method === 'flashTrace'
              ? engine.flashTrace(config, methodOptions)
              : engine.decode(config);
      } catch (error) {
        assert.ok(error instanceof Error, `${where} threw a non-Error`);
        assert.ok(error.message.length > 0 && !BROKEN.test(error.message), `${where}: ${error.message}`);
        assert.equal(engine.memoryInUse(), idle, `${where} left memory in use`);
        continue;
      }
      computed += 1;
      checkResult(result, config, options, method);
    }
    assert.ok(computed > CALLS_PER_BUILD / 10, `only ${computed} calls computed: the fuzz is too hostile to reach the core`);
    assert.deepEqual(engine.compute(FIXED).output.data, expected);
  });
}
