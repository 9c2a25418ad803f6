// The options that grew the API (issues 3 and 4) reach the core and come back in the result:
// mask kinds, padding, fill values, temperature, naive softmax, key/value heads,
// cross-attention and positional encoding — and each is validated with a named Error.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { WORKED_EXAMPLE, row, fixed3 } from './worked-example.mjs';

let engine;
before(async () => {
  engine = await createAttention();
});

const maskPicture = (r) =>
  Array.from({ length: r.T }, (_, i) =>
    row(r.mask, i)
      .map((m) => (m ? 'x' : '.'))
      .join(''),
  );
const base = { tokens: ['a', 'b', 'c', 'd', 'e'], dModel: 4, heads: 2, seed: 3 };

test('mask kinds and padding draw their patterns', () => {
  assert.deepEqual(maskPicture(engine.compute({ ...base, mask: 'window', window: 2 })), ['.xxxx', '..xxx', 'x..xx', 'xx..x', 'xxx..']);
  assert.deepEqual(maskPicture(engine.compute({ ...base, mask: 'prefix', prefix: 3 })), ['...xx', '...xx', '...xx', '....x', '.....']);
  assert.deepEqual(maskPicture(engine.compute({ ...base, mask: 'none', padding: [false, false, true, false, true] })), [
    '..x.x',
    '..x.x',
    '..x.x',
    '..x.x',
    '..x.x',
  ]);
  const customMask = Array.from({ length: 5 }, (_, i) => Array.from({ length: 5 }, (_, j) => i === j));
  assert.deepEqual(maskPicture(engine.compute({ ...base, mask: 'custom', customMask })), ['x....', '.x...', '..x..', '...x.', '....x']);
});

test('a fill of 0 leaves the future visible; -1e9 hides it', () => {
  const zero = engine.compute({ ...WORKED_EXAMPLE, maskFill: 0 });
  assert.ok(zero.perHead[0].weights.data[1] > 0.1);
  const big = engine.compute({ ...WORKED_EXAMPLE, maskFill: -1e9 });
  assert.equal(big.perHead[0].weights.data[1], 0);
  assert.deepEqual(fixed3(row(big.perHead[0].weights, 1)), [0.423, 0.577, 0, 0, 0, 0]);
  const before = engine.compute({ ...WORKED_EXAMPLE, maskFill: -1e9, maskBeforeScale: true });
  assert.ok(Math.abs(before.perHead[0].masked.data[1] - -1e9 / Math.sqrt(3)) < 1e3);
});

test('temperature, row statistics and naive softmax', () => {
  const cold = engine.compute({ ...WORKED_EXAMPLE, temperature: 0.1 });
  const hot = engine.compute({ ...WORKED_EXAMPLE, temperature: 10 });
  assert.ok(cold.perHead[0].entropy[5] < hot.perHead[0].entropy[5]);
  const r = engine.compute(WORKED_EXAMPLE);
  assert.equal(r.perHead[0].rowMax.length, 6);
  assert.ok(Math.abs(r.perHead[0].rowMax[1] - 0.863) < 5e-4);
  // Row 2: e^(0.551−0.863) + e^0 ≈ 1.732
  assert.ok(Math.abs(r.perHead[0].rowSum[1] - 1.732) < 5e-3);
  const scaled = { ...WORKED_EXAMPLE, mask: 'none', scale: false, embeddings: WORKED_EXAMPLE.embeddings.map((x) => x.map((v) => v * 100)) };
  const naive = engine.compute({ ...scaled, naiveSoftmax: true });
  assert.ok(Number.isNaN(naive.perHead[0].weights.data[0]));
  assert.ok(engine.compute(scaled).perHead[0].weights.data.every(Number.isFinite));
});

test('key/value heads, cross-attention and positions change the shapes they should', () => {
  const gqa = engine.compute({ ...base, dModel: 12, heads: 6, kvHeads: 2 });
  assert.equal(gqa.k.cols, 4);
  assert.deepEqual(gqa.perHead[0].k.data, gqa.perHead[2].k.data);
  const cross = engine.compute({ tokens: ['我', '爱', '你'], source: { tokens: ['I', 'love', 'you', '.'] }, dModel: 8, heads: 2, mask: 'none' });
  assert.equal(cross.Tk, 4);
  assert.equal(cross.perHead[1].weights.rows, 3);
  assert.equal(cross.perHead[1].weights.cols, 4);
  assert.deepEqual(cross.source.tokens, ['I', 'love', 'you', '.']);
  const pos = engine.compute({ ...base, positional: 'sinusoidal' });
  assert.equal(pos.positions.data[1], 1); // cos 0
  pos.x.data.forEach((v, n) => assert.equal(v, Math.fround(pos.embeddings.data[n] + pos.positions.data[n])));
});

test('the new options are validated with named errors', () => {
  const cases = [
    [{ ...base, mask: 'window', window: 0 }, /window must be a whole number, at least 1/],
    [{ ...base, mask: 'custom' }, /needs customMask/],
    [{ ...base, mask: 'custom', customMask: [[true]] }, /customMask must be 5×5/],
    [{ ...base, padding: [true] }, /padding must have one entry per token \(5\), got 1/],
    [{ ...base, maskFill: 'zero' }, /maskFill must be "-inf" or a number/],
    [{ ...base, maskFill: 5 }, /maskFill must be -Infinity or a number between -1e30 and 0/],
    [{ ...base, temperature: 0 }, /temperature must be between 0.01 and 100/],
    [{ ...base, kvHeads: 3 }, /kvHeads must be between 1 and heads = 2 \(got 3\)/],
    [{ ...base, heads: 4, dModel: 8, kvHeads: 3 }, /kvHeads \(3\) must divide heads \(4\)/],
    [{ ...base, positional: 'rotary' }, /unknown positional "rotary": use "none", "sinusoidal", "rope"/],
    [{ ...base, source: { tokens: [] } }, /no source tokens/],
    [{ ...base, naiveSoftmax: 'yes' }, /naiveSoftmax must be true or false/],
  ];
  for (const [config, message] of cases) {
    assert.throws(
      () => engine.compute(config),
      (e) => e instanceof Error && message.test(e.message),
      String(message),
    );
  }
  assert.deepEqual(fixed3(row(engine.compute(WORKED_EXAMPLE).perHead[0].weights, 1)), [0.423, 0.577, 0, 0, 0, 0]);
});

test('token lists are re-sent whenever they change, including after an anonymous run', () => {
  const embeddings = { rows: 2, cols: 4, data: new Float32Array(8).fill(0.5) };
  const anonymous = engine.compute({ embeddings, dModel: 4, heads: 1 }, { outputOnly: true });
  assert.equal(anonymous.T, 2);
  assert.throws(() => engine.compute({ tokens: [], dModel: 4, heads: 1 }), /no tokens/);
  const a = engine.compute({ tokens: ['x', 'y'], dModel: 4, heads: 1 });
  const b = engine.compute({ tokens: ['x', 'z'], dModel: 4, heads: 1 });
  assert.notDeepEqual(a.x.data, b.x.data);
  const c = engine.compute({ tokens: ['x', 'y'], dModel: 4, heads: 1 });
  assert.deepEqual(a.x.data, c.x.data);
});

test('the forward-only path matches the full path and keeps the rows asked for', () => {
  const config = { tokens: Array.from({ length: 150 }, (_, t) => `t${t % 37}`), dModel: 12, heads: 3, seed: 9 };
  const full = engine.compute(config);
  const fast = engine.compute(config, { outputOnly: true, weightRows: [0, 149] });
  assert.equal(fast.perHead, undefined);
  for (let n = 0; n < full.output.data.length; ++n) {
    assert.ok(Math.abs(fast.output.data[n] - full.output.data[n]) <= 1e-5 * Math.max(1, Math.abs(full.output.data[n])));
  }
  assert.deepEqual(fixed3(Array.from(fast.rowWeights[2].data.subarray(150, 300))), fixed3(row(full.perHead[2].weights, 149)));
  assert.throws(() => engine.compute(config, { outputOnly: true, weightRows: [150] }), /weightRows\[0\] = 150 is not a query row/);
  assert.throws(() => engine.compute({ dModel: 4 }, { outputOnly: true }), /tokens may only be left out when embeddings are given/);
});

test('outputInto receives the forward-only output; a wrong one is refused before anything runs', () => {
  const config = { tokens: ['a', 'b', 'c', 'd', 'e'], dModel: 6, heads: 3, seed: 4 };
  const fresh = engine.compute(config, { outputOnly: true });
  const into = new Float32Array(5 * 6).fill(Number.NaN);
  const reused = engine.compute(config, { outputOnly: true, outputInto: into });
  assert.equal(reused.output.data, into);
  assert.deepEqual(Array.from(into), Array.from(fresh.output.data));
  // Writing into it again leaves the earlier result (a copy) as it was.
  const other = engine.compute({ ...config, seed: 5 }, { outputOnly: true, outputInto: into });
  assert.equal(other.output.data, into);
  assert.notDeepEqual(Array.from(into), Array.from(fresh.output.data));
  const before = Array.from(into);
  assert.throws(
    () => engine.compute(config, { outputOnly: true, outputInto: new Float32Array(29) }),
    /outputInto must be a Float32Array of T·dModel = 30 floats/,
  );
  assert.throws(() => engine.compute(config, { outputOnly: true, outputInto: new Array(30).fill(0) }), /outputInto must be a Float32Array/);
  assert.throws(() => engine.compute(config, { outputInto: into }), /outputInto works with outputOnly: true only/);
  assert.deepEqual(Array.from(into), before);
  assert.deepEqual(Array.from(engine.compute(config, { outputOnly: true }).output.data), Array.from(fresh.output.data));
});

test('onProgress reports increasing fractions', () => {
  const seen = [];
  engine.compute(
    { tokens: Array.from({ length: 40 }, (_, t) => `t${t}`), dModel: 8, heads: 2 },
    { outputOnly: true, onProgress: (f) => seen.push(f) },
  );
  assert.ok(seen.length >= 2);
  assert.deepEqual(
    seen,
    [...seen].sort((a, b) => a - b),
  );
  const full = [];
  engine.compute({ tokens: ['a', 'b'], dModel: 4, heads: 2 }, { onProgress: (f) => full.push(f) });
  assert.equal(full.length, 2);
});
