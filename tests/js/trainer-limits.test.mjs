// The trainer's budgets: a model or a batch that would not fit its memory is refused before anything
// is allocated (saying the sizes and the largest that fits), a call that would work for more than
// about 2 s is refused with its estimate, the FlashAttention trace counts its tiles, and every
// field of a config is checked in JavaScript (nulls, types, lone surrogates) before the core sees it.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createAttention } from '../../web/src/engine/attention.js';

let engine;
before(async () => {
  engine = await createAttention({ build: 'simd' });
  // (The matrix products' packing buffer is made once, at the first large product: not a leak.)
  const warm = engine.createTrainer({ task: 'previous', dModel: 128, heads: 4, batchSize: 8 });
  warm.step(1);
  warm.dispose();
});

function refused(run, message) {
  assert.throws(run, (error) => error instanceof Error && message.test(error.message), String(message));
}

// A refused call allocates nothing: no memory stays in use and none is reserved.
function refusedWithoutMemory(run, message) {
  const inUse = engine.memoryInUse(),
    reserved = engine.memoryBytes();
  const start = performance.now();
  refused(run, message);
  assert.ok(performance.now() - start < 1000, 'refused at once, not after the work');
  assert.equal(engine.memoryInUse(), inUse, 'memory in use');
  assert.equal(engine.memoryBytes(), reserved, 'memory reserved');
}

const BIG = { task: 'previous', contextLength: 128, dModel: 256, heads: 1, layers: 4, batchSize: 256, mlp: true, layerNorm: true };

test('a model whose batch does not fit the trainer’s memory is refused before anything is allocated', () => {
  refusedWithoutMemory(
    () => engine.createTrainer(BIG),
    /^batchSize: a batch of 256 sequences of 128 tokens needs about 2681 MiB \(parameters, gradients and AdamW's moments 49 MiB, activations 2633 MiB\), more than the trainer's limit of 512 MiB: at most 44 sequences of 128 tokens fit$/,
  );
  refusedWithoutMemory(
    () => engine.createTrainer({ ...BIG, heads: 256 }),
    /more than the trainer's limit of 512 MiB: at most 6 sequences of 128 tokens fit$/,
  );
  // What fits by memory is still refused when one step would take minutes.
  refusedWithoutMemory(
    () => engine.createTrainer({ ...BIG, batchSize: 44 }),
    /^one training step of this model would take about \d+ s, more than the 2 s one call may take: make batchSize, contextLength, dModel or layers smaller$/,
  );
  const fits = engine.createTrainer({ ...BIG, batchSize: 1, contextLength: 16 });
  fits.dispose();
});

test('a batch handed in is held to the same budget, whatever the trainer’s own batch size', () => {
  const idle = engine.memoryInUse();
  const trainer = engine.createTrainer({
    task: 'previous',
    contextLength: 128,
    dModel: 128,
    heads: 4,
    layers: 4,
    batchSize: 1,
    mlp: true,
    layerNorm: true,
  });
  const held = engine.memoryInUse();
  const batch = Array.from({ length: 256 }, () => Array(128).fill(1));
  refusedWithoutMemory(
    () => trainer.lossAndGradients({ inputs: batch, targets: batch }),
    /^a batch of 256 sequences of 128 tokens needs about \d+ MiB .* more than the trainer's limit of 512 MiB: at most \d+ sequences of 128 tokens fit$/,
  );
  const { loss } = trainer.lossAndGradients({ inputs: batch.slice(0, 2), targets: batch.slice(0, 2) });
  assert.ok(Number.isFinite(loss));
  assert.ok(engine.memoryInUse() > held);
  trainer.dispose();
  assert.equal(engine.memoryInUse(), idle, 'a disposed trainer leaves the memory it found');
});

test('calls that would work for more than about 2 s are refused with their estimate', () => {
  const trainer = engine.createTrainer({ task: 'text', layers: 4, heads: 8, dModel: 128, mlp: true, layerNorm: true });
  const { stepSeconds } = trainer;
  assert.ok(stepSeconds > 0.05 && stepSeconds < 2, `a step is estimated at ${stepSeconds} s`);
  assert.deepEqual(engine.trainingEstimate({ task: 'text', layers: 4, heads: 8, dModel: 128, mlp: true, layerNorm: true }).stepSeconds, stepSeconds);
  const most = Math.floor(2 / stepSeconds);
  refusedWithoutMemory(
    () => trainer.step(100000),
    new RegExp(
      `^step\\(100000\\) would take about \\d+(\\.\\d)? h .* more than the 2 s one call may take: at most ${most} steps per call; call it again for more$`,
    ),
  );
  refusedWithoutMemory(
    () => trainer.evaluate(100000),
    /^evaluate\(100000\) would take about \d+ (s|min) .*: at most \d+ sequences per call; call it again for more$/,
  );
  assert.equal(trainer.step(1).step, 1);
  trainer.dispose();
  refused(() => engine.trainingEstimate({ task: 'text', dModel: 7, heads: 2 }), /^heads \(2\) must divide dModel \(7\)$/);
});

test('the trace counts its tiles, in JavaScript too, and says what it needs', () => {
  const tokens = Array.from({ length: 64 }, (_, t) => `t${t}`);
  refusedWithoutMemory(
    () => engine.flashTrace({ tokens, dModel: 1024, heads: 1024 }, { blockRows: 1, blockKeys: 1 }),
    /^the trace would record 4194304 tiles \(1024 heads of 64 × 64\), more than the 65536 a trace may hold: choose larger tiles or fewer heads$/,
  );
  refused(() => engine.flashTrace({ tokens, dModel: 24, heads: 24 }, null), /^flashTrace\(\) needs the tile as \{ blockRows, blockKeys \}$/);
  const trace = engine.flashTrace({ tokens, dModel: 16, heads: 16 }, { blockRows: 1, blockKeys: 1 }); // 65 536 tiles: the most
  assert.equal(
    trace.perHead.reduce((n, head) => n + head.tiles.length, 0),
    65536,
  );
});

test('every field of a trainer config is checked in JavaScript, nulls and lone surrogates included', () => {
  const cases = [
    [{ task: null }, /^task must be a string \(got null\)$/],
    [{ task: 7 }, /^task must be a string \(got 7\)$/],
    [{ vocab: null }, /^vocab must be an array of strings \(got null\)$/],
    [{ vocab: ['a', null] }, /^vocab\[1\] must be a string of 1 to 16 characters \(got null\)$/],
    [{ vocab: ['a', 'b', '\ud800'] }, /^vocab\[2\] holds a lone surrogate/],
    [{ vocab: ['a', '\udc00b'] }, /^vocab\[1\] holds a lone surrogate/],
    [{ dModel: null }, /^dModel must be a whole number/],
    [{ dModel: '8' }, /^dModel must be a whole number/],
    [{ mlp: null }, /^mlp must be true or false \(got null\)$/],
    [{ positions: null }, /^positions must be a string \(got null\)$/],
    [{ positions: 'rope' }, /^unknown positions "rope"/],
    [{ learningRate: null }, /^learningRate must be a number \(got null\)$/],
    [{ seed: -1 }, /^seed must be a whole number from 0 to 4294967295/],
  ];
  for (const [config, message] of cases) refusedWithoutMemory(() => engine.createTrainer({ task: 'previous', ...config }), message);
  // A vocabulary of whole characters (a pair is one character) comes back as it was given.
  assert.deepEqual(engine.createTrainer({ task: 'previous', vocab: ['a', '😀', '猫'] }).config.vocab, ['a', '😀', '猫']);
});
