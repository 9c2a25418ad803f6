// The boundary between JavaScript and the core: a refused call of any kind, repeated 100 000 times,
// leaves the module as it was (no stack or heap leaks, the same memory figure, the same numbers),
// and no caller code — a getter, a Proxy — runs while a view of wasm memory is open, so a growth of
// that memory in the middle of a call cannot make the core compute on lost inputs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';
import { WORKED_EXAMPLE } from './worked-example.mjs';

let engine, reference;
const FIXED = { ...WORKED_EXAMPLE, heads: 3, weights: 'random', seed: 7 };
before(async () => {
  engine = await createAttention({ build: 'simd' });
  reference = (await createAttention({ build: 'simd' })).compute(FIXED).output.data;
});

const tokens = (n) => Array.from({ length: n }, (_, i) => `t${i}`);

test('100 000 refused calls of every kind leave the module as it was', () => {
  const trainer = engine.createTrainer({ task: 'previous' });
  trainer.step(1);
  engine.compute(FIXED);
  const reserved = engine.memoryBytes();
  const long = tokens(1024),
    traced = tokens(64),
    decoded = tokens(300);
  const kinds = {
    'a null task': () => engine.createTrainer({ task: null }),
    'a vocabulary with a lone surrogate': () => engine.createTrainer({ task: 'previous', vocab: ['a', '\ud800'] }),
    'a config the core refuses': () => engine.createTrainer({ task: 'sort', heads: 5 }),
    'a trainer past its memory': () =>
      engine.createTrainer({ task: 'previous', contextLength: 128, dModel: 256, layers: 4, batchSize: 256, mlp: true }),
    'too many steps': () => trainer.step(10_000_000),
    'too long an evaluation': () => trainer.evaluate(100_000_000),
    'a token not in the vocabulary': () => trainer.run(['a', 'zz']),
    'an id the core refuses': () => trainer.lossAndGradients({ inputs: [[0, 1]], targets: [[0, 99]] }),
    'a compute() config of the wrong type': () => engine.compute({ tokens: ['a', null], dModel: 4 }),
    'heads that do not divide dModel': () => engine.compute({ tokens: ['a', 'b'], dModel: 5, heads: 2 }),
    'a compute() past the memory budget': () => engine.compute({ tokens: long, dModel: 64, heads: 64 }),
    'a non-finite entry': () => engine.compute({ tokens: ['a'], dModel: 2, embeddings: [[NaN, 0]] }),
    'token embeddings of non-strings': () => engine.tokenEmbeddings([1, 2], 4),
    'a trace without a tile': () => engine.flashTrace(FIXED, null),
    'a trace of too many tiles': () => engine.flashTrace({ tokens: traced, dModel: 1024, heads: 1024 }, { blockRows: 1, blockKeys: 1 }),
    'a decode past its tokens': () => engine.decode({ tokens: decoded, dModel: 4 }),
  };
  // (Errors without stack traces: capturing one is most of a refusal's cost, and none is read here.)
  const traces = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const [kind, call] of Object.entries(kinds)) {
      assert.throws(call, Error, kind); // (the first call may size a buffer the trainer keeps)
      const inUse = engine.memoryInUse();
      let refusals = 0;
      for (let n = 0; n < 100_000; ++n) {
        try {
          call();
        } catch (error) {
          if (error instanceof Error && !error.message.startsWith('the engine failed')) refusals += 1;
        }
      }
      assert.equal(refusals, 100_000, kind);
      assert.equal(engine.memoryInUse(), inUse, `memory in use after ${kind}`);
    }
  } finally {
    Error.stackTraceLimit = traces;
  }
  assert.equal(engine.memoryBytes(), reserved);
  assert.deepEqual(engine.compute(FIXED).output.data, reference);
  assert.equal(trainer.step(1).step, 2);
  trainer.dispose();
});

test('a module whose memory is full says so, and works again once memory is given back', async () => {
  const own = await createAttention({ build: 'simd' });
  const expected = own.compute(FIXED).output.data;
  const idle = own.memoryInUse();
  const trainers = [];
  let full = null;
  // 53 MB each (parameters, gradients and AdamW's moments): the module's 2 GB end before 50.
  while (!full && trainers.length < 50) {
    try {
      trainers.push(own.createTrainer({ task: 'previous', dModel: 256, layers: 4, mlp: true, layerNorm: true }));
    } catch (error) {
      full = error;
    }
  }
  assert.match(full?.message ?? 'none', /^out of memory: the WebAssembly module's memory is full \(dispose of trainers you no longer use\)$/);
  trainers.forEach((trainer) => trainer.dispose());
  assert.equal(own.memoryInUse(), idle);
  assert.deepEqual(own.compute(FIXED).output.data, expected);
  const again = own.createTrainer({ task: 'previous', dModel: 256, layers: 4, mlp: true, layerNorm: true });
  assert.equal(again.step(1).step, 1);
  again.dispose();
});

// A getter that, the first time it is read, makes a large trainer in the engine's module: wasm
// memory grows, and every view of it taken before is detached.
function growingOnFirstRead(value) {
  let grown = false;
  return () => {
    if (!grown) {
      grown = true;
      engine.createTrainer({ task: 'text', dModel: 256, heads: 4, layers: 4, mlp: true, batchSize: 1, contextLength: 8 });
    }
    return value;
  };
}
const rowsGrowingMemory = (rows) => {
  const grow = growingOnFirstRead(null);
  return rows.map((row, r) => (r === rows.length - 1 ? new Proxy(row, { get: (target, key) => (grow(), target[key]) }) : row));
};

test('memory that grows while a call reads its inputs changes none of its numbers', async () => {
  // The numbers each call must give, from an engine of its own; before each proxied call the
  // engine computes on other inputs of the same shape, so that an input lost to a detached view
  // would show as a wrong number rather than as the last call's right one.
  const fresh = await createAttention({ build: 'simd' });
  const X = [
    [0.43, 0.15, 0.89],
    [0.55, 0.87, 0.66],
    [0.57, 0.85, 0.64],
    [0.22, 0.58, 0.33],
    [0.77, 0.25, 0.1],
    [0.05, 0.8, 0.55],
  ];
  const other = X.map((row) => row.map((v) => 1 - v));
  const config = { ...FIXED, embeddings: X };
  const calls = {
    compute: (e, c) => e.compute(c).output.data,
    trace: (e, c) => e.flashTrace(c, { blockRows: 2, blockKeys: 2 }).output.data,
    decode: (e, c) => e.decode(c).output.data,
  };
  for (const [name, call] of Object.entries(calls)) {
    const expected = call(fresh, config);
    call(engine, { ...config, embeddings: other });
    const before = engine.memoryBytes();
    const got = call(engine, { ...config, embeddings: rowsGrowingMemory(X) });
    assert.ok(engine.memoryBytes() > before, `${name}: the memory grew during the call`);
    assert.deepEqual(got, expected, name);
  }

  // The trainer's explicit batch: ids and targets are both in place after the growth.
  const vocab = ['x', 'y', 'z'];
  const inputs = [
      [0, 1, 2],
      [2, 2, 1],
    ],
    targets = [
      [-1, 0, 1],
      [-1, 2, 2],
    ];
  const expected = fresh.createTrainer({ task: 'previous', vocab }).lossAndGradients({ inputs, targets }).loss;
  const trainer = engine.createTrainer({ task: 'previous', vocab });
  trainer.lossAndGradients({
    inputs: [
      [1, 0, 0],
      [1, 0, 2],
    ],
    targets: [
      [-1, 2, 2],
      [-1, 1, 0],
    ],
  });
  const before = engine.memoryBytes();
  const { loss } = trainer.lossAndGradients({ inputs: rowsGrowingMemory(inputs), targets: rowsGrowingMemory(targets) });
  assert.ok(engine.memoryBytes() > before, 'the memory grew during lossAndGradients');
  assert.equal(loss, expected);
  trainer.dispose();
});

test('a caller’s array is read once: what the core computes on is what was checked', () => {
  // Strings when checked, numbers after: the core must never see the second answer.
  const shifty = (list) => {
    const reads = new Map();
    return new Proxy(list, {
      get(target, key) {
        if (typeof key !== 'string' || !/^\d+$/.test(key)) return target[key];
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return reads.get(key) === 1 ? target[key] : 42;
      },
    });
  };
  const plain = engine.tokenEmbeddings(['a', 'b', 'c'], 4).data;
  assert.deepEqual(engine.tokenEmbeddings(shifty(['a', 'b', 'c']), 4).data, plain);
  assert.deepEqual(
    engine.compute({ tokens: shifty(['a', 'b', 'c']), dModel: 4 }).x.data,
    engine.compute({ tokens: ['a', 'b', 'c'], dModel: 4 }).x.data,
  );
  const trainer = engine.createTrainer({ task: 'previous', vocab: shifty(['x', 'y', 'z']) });
  assert.deepEqual(trainer.config.vocab, ['x', 'y', 'z']);
  assert.deepEqual(trainer.run(shifty(['x', 'y'])).predictions.length, 2);
  trainer.dispose();
});
