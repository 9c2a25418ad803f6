// The engine's memory through the calls that used to break it (figures only): bytes reserved by
// the module (they never shrink) and bytes in use by its allocator, after each call.
//   node bench/engine-memory.mjs [simd|scalar]
import { createAttention } from '../web/src/engine/attention.js';

const engine = await createAttention({ build: process.argv[2] ?? 'simd' });
const tokens = (n) => Array.from({ length: n }, (_, i) => `t${i}`);
const hugeRows = (rows, cols) => new Array(rows).fill(new Array(cols).fill(0));
const MiB = (bytes) => (bytes / 2 ** 20).toFixed(2);
const rows = [];
const note = (call, outcome) =>
  rows.push({
    call,
    outcome,
    'reserved MiB': MiB(engine.memoryBytes()),
    'in use MiB': MiB(engine.memoryInUse()),
    'in use bytes': engine.memoryInUse(),
  });
const attempt = (call, run) => {
  try {
    run();
    note(call, 'computed');
  } catch (error) {
    note(call, `refused: ${error.message.slice(0, 70)}…`);
  }
};

note('(idle, just created)', '');
attempt('1 024 tokens, dModel 64, 64 heads', () => engine.compute({ tokens: tokens(1024), dModel: 64, heads: 64 }));
attempt('530 000 × 1 024 embeddings, 3 tokens', () => engine.compute({ tokens: tokens(3), dModel: 1024, embeddings: hugeRows(530_000, 1024) }));
attempt('100 000 × 1 024 embeddings, 3 tokens', () => engine.compute({ tokens: tokens(3), dModel: 1024, embeddings: hugeRows(100_000, 1024) }));
attempt('all 8 192 weight rows, 64 heads (forward-only)', () =>
  engine.compute({ tokens: tokens(8192), dModel: 1024, heads: 64 }, { outputOnly: true, weightRows: tokens(8192).map((_, i) => i) }),
);
attempt('sparse token list', () => engine.compute({ tokens: [, 'a'], dModel: 4 }));
let thrown = 0;
for (let n = 0; n < 100_000; ++n) {
  try {
    engine.compute(
      { tokens: ['a', 'b'], dModel: 4, heads: 2 },
      {
        onProgress: () => {
          throw new Error('boom');
        },
      },
    );
  } catch {
    thrown += 1;
  }
}
note(`100 000 calls whose onProgress throws`, `${thrown} ended with its error`);
attempt('compute() re-entered from onProgress', () =>
  engine.compute({ tokens: ['a', 'b'], dModel: 4 }, { onProgress: () => engine.compute({ tokens: ['a'], dModel: 4 }) }),
);
attempt('882 tokens, dModel 64, 64 heads (the largest that fits)', () => engine.compute({ tokens: tokens(882), dModel: 64, heads: 64 }));
attempt('then 1 024 tokens with 64 heads again', () => engine.compute({ tokens: tokens(1024), dModel: 64, heads: 64 }));
// The trainer's calls that used to abort the module or poison it.
const big = { task: 'previous', contextLength: 128, dModel: 256, heads: 1, layers: 4, batchSize: 256, mlp: true, layerNorm: true };
attempt('a trainer: d_model 256, 4 layers, batch 256 × 128', () => engine.createTrainer(big));
attempt('the same with 256 heads', () => engine.createTrainer({ ...big, heads: 256 }));
let nulls = 0;
for (let n = 0; n < 100_000; ++n) {
  try {
    engine.createTrainer({ task: null });
  } catch {
    nulls += 1;
  }
}
note('100 000 trainers of task null', `${nulls} refused`);
const small = engine.createTrainer({ task: 'previous', batchSize: 1 });
attempt('a batch of 256 × 12 handed to a trainer of batch 1', () =>
  small.lossAndGradients({ inputs: Array(256).fill(Array(12).fill(1)), targets: Array(256).fill(Array(12).fill(1)) }),
);
small.dispose();
const text = engine.createTrainer({ task: 'text', layers: 4, heads: 8, dModel: 128, mlp: true, layerNorm: true });
attempt('step(100000) of the text model, 4 layers, 8 heads, d_model 128', () => text.step(100000));
text.dispose();
note('(the trainer disposed)', '');
console.log(`engine memory, ${engine.info.build} build (budget ${MiB(engine.info.limits.memoryBudgetBytes)} MiB)`);
console.table(rows);
