// Training benchmark (figures only): optimizer steps per second of our trainer (wasm SIMD) against
// the same model, initial weights and batch size trained with TensorFlow.js in the same process,
// interleaved round by round, one thread each. Also prints both loss curves, which should agree in
// shape (the batches differ: ours come from the core's task generator, TensorFlow.js's from the
// same rule written here in JavaScript).
//   node bench/train-compare.mjs [--scale 0.2]
//
// The TensorFlow.js model: embeddings as a one-hot matMul (the wasm backend has no
// UnsortedSegmentSum, the gradient of gather), batched matMuls per head, a −1e9 causal mask,
// gelu in its tanh form, tf.train.adam with our β₁, β₂ and ε (ours is AdamW with weight decay
// 0.01 on the product matrices: a small difference in the curves, none in the cost).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
// @tensorflow/tfjs, not tfjs-core alone: it registers the gradients that training needs.
import * as tf from '@tensorflow/tfjs';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createAttention } from '../web/src/engine/attention.js';
import { seededRandom } from '../web/src/state/random.js';

const argument = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const scale = argument('--scale', 1); // fewer rounds for a quick look: --scale 0.2

// Rounds × steps per round: the induction default long enough for its loss to fall (about step
// 500), the larger model for a stable median.
const MODELS = [
  { label: 'induction default', config: { task: 'induction' }, rounds: 12, steps: 80 },
  {
    label: 'C = 64, 4 heads, 2 layers, MLP, T = 64, batch 32',
    config: { task: 'induction', dModel: 64, heads: 4, layers: 2, mlp: true, layerNorm: true, contextLength: 64, batchSize: 32 },
    rounds: 8,
    steps: 10,
  },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The induction task's batches, by the rule of cpp/train/tasks.cpp, from a seeded generator.
function inductionBatches(V, T, B, seed) {
  const random = seededRandom(seed);
  const below = (n) => Math.floor(random() * n);
  return () => {
    const inputs = new Int32Array(B * T),
      targets = new Int32Array(B * T).fill(-1);
    for (let b = 0; b < B; ++b) {
      const n = 3 + below(T / 2 - 2),
        filler = T - 2 * n,
        row = b * T;
      for (let t = 0; t < filler; ++t) inputs[row + t] = below(V);
      const segment = [];
      while (segment.length < n) {
        const token = below(V);
        if (n > V || !segment.includes(token)) segment.push(token);
      }
      segment.forEach((token, k) => {
        inputs[row + filler + k] = token;
        inputs[row + filler + n + k] = token;
      });
      for (let t = filler + n; t + 1 < T; ++t) targets[row + t] = inputs[row + t + 1];
    }
    return { inputs, targets };
  };
}

async function useBackend(name) {
  if (name === 'wasm') {
    const require = createRequire(import.meta.url);
    setWasmPaths(`${dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    setThreadsCount(1);
  }
  await tf.setBackend(name);
  await tf.ready();
}

// The same model in TensorFlow.js, from our initial parameters.
function tfjsTrainer(config, parameters) {
  const { vocab, contextLength: T, dModel: C, heads: NH, layers: L, mlp, layerNorm, learningRate, batchSize: B } = config;
  const V = vocab.length,
    HS = C / NH;
  const vars = Object.fromEntries(
    Object.entries(parameters).map(([name, m]) => [name, tf.variable(tf.tensor2d(m.data, [m.rows, m.cols]), true, name)]),
  );
  const mask = tf.tensor2d(
    Array.from({ length: T * T }, (_, n) => (n % T > Math.floor(n / T) ? -1e9 : 0)),
    [T, T],
  );
  const norm = (x, g, b) => {
    const { mean, variance } = tf.moments(x, 1, true);
    return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, 1e-5))), vars[g]), vars[b]);
  };
  const gelu = (x) => tf.mul(tf.mul(0.5, x), tf.add(1, tf.tanh(tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.pow(x, 3)))))));
  const heads = (x) => tf.transpose(tf.reshape(x, [B, T, NH, HS]), [0, 2, 1, 3]);
  const optimizer = tf.train.adam(learningRate, 0.9, 0.99, 1e-8);
  const lossOf = (inputs, targets) => () => {
    let x = tf.add(tf.matMul(tf.cast(tf.oneHot(tf.tensor1d(inputs, 'int32'), V), 'float32'), vars.wte), tf.tile(vars.wpe, [B, 1]));
    for (let l = 0; l < L; ++l) {
      const p = (name) => vars[`layers.${l}.${name}`];
      const h = layerNorm ? norm(x, `layers.${l}.ln1.g`, `layers.${l}.ln1.b`) : x;
      const [q, k, v] = ['wq', 'wk', 'wv'].map((w) => heads(tf.matMul(h, p(w))));
      const weights = tf.softmax(tf.add(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(HS)), mask));
      const context = tf.reshape(tf.transpose(tf.matMul(weights, v), [0, 2, 1, 3]), [B * T, C]);
      x = tf.add(x, tf.matMul(context, p('wo')));
      if (mlp) {
        const h2 = layerNorm ? norm(x, `layers.${l}.ln2.g`, `layers.${l}.ln2.b`) : x;
        const hidden = gelu(tf.add(tf.matMul(h2, p('fc1.w')), p('fc1.b')));
        x = tf.add(x, tf.add(tf.matMul(hidden, p('fc2.w')), p('fc2.b')));
      }
    }
    const logits = tf.matMul(layerNorm ? norm(x, 'lnf.g', 'lnf.b') : x, vars.unembed);
    const scored = tf.tensor1d(
      Array.from(targets, (t) => (t >= 0 ? 1 : 0)),
      'float32',
    );
    const picked = tf.sum(
      tf.mul(
        tf.logSoftmax(logits),
        tf.cast(
          tf.oneHot(
            tf.tensor1d(
              Array.from(targets, (t) => Math.max(t, 0)),
              'int32',
            ),
            V,
          ),
          'float32',
        ),
      ),
      1,
    );
    return tf.div(tf.neg(tf.sum(tf.mul(picked, scored))), tf.sum(scored));
  };
  return {
    step(batch) {
      const loss = optimizer.minimize(lossOf(batch.inputs, batch.targets), true, Object.values(vars));
      const value = loss.dataSync()[0];
      loss.dispose();
      return value;
    },
    dispose() {
      Object.values(vars).forEach((v) => v.dispose());
      mask.dispose();
      optimizer.dispose();
    },
  };
}

const engine = await createAttention({ build: 'simd' });
console.log(`training steps per second, wasm SIMD (ours) against TensorFlow.js ${tf.version_core}, interleaved rounds, medians per round`);
const rows = [];
for (const { label, config, rounds, steps } of MODELS) {
  const ROUNDS = Math.max(2, Math.round(rounds * scale)),
    STEPS_PER_ROUND = steps;
  for (const backend of ['wasm', 'cpu']) {
    await useBackend(backend);
    const ours = engine.createTrainer(config);
    const theirs = tfjsTrainer(ours.config, ours.parameters());
    const next = inductionBatches(ours.config.vocab.length, ours.config.contextLength, ours.config.batchSize, 7);
    let ok = true;
    try {
      theirs.step(next()); // warm-up (and the check that the backend has every kernel)
    } catch (error) {
      console.log(`${label}: TensorFlow.js ${backend} backend cannot train it (${error.message.split('\n')[0]})`);
      ok = false;
    }
    if (ok) {
      ours.step(1);
      const oursMs = [],
        theirsMs = [],
        curve = [];
      for (let round = 0; round < ROUNDS; ++round) {
        let start = performance.now();
        const { loss: oursLoss } = ours.step(STEPS_PER_ROUND);
        oursMs.push((performance.now() - start) / STEPS_PER_ROUND);
        start = performance.now();
        let theirsLoss = 0;
        for (let s = 0; s < STEPS_PER_ROUND; ++s) theirsLoss = theirs.step(next());
        theirsMs.push((performance.now() - start) / STEPS_PER_ROUND);
        curve.push({ step: (round + 1) * STEPS_PER_ROUND, 'ours loss': oursLoss.toFixed(3), [`tfjs ${backend} loss`]: theirsLoss.toFixed(3) });
      }
      console.log(`\n${label}, TensorFlow.js ${backend} backend: loss curves`);
      console.table(curve);
      const ourMedian = median(oursMs),
        theirMedian = median(theirsMs);
      rows.push({
        model: label,
        'tfjs backend': backend,
        'ours steps/s': (1000 / ourMedian).toFixed(1),
        'tfjs steps/s': (1000 / theirMedian).toFixed(1),
        'ours ÷ tfjs': (theirMedian / ourMedian).toFixed(2),
      });
    }
    theirs.dispose();
    ours.dispose();
    if (ok && backend === 'wasm') break; // the cpu backend only where wasm cannot train the model
  }
}
console.log();
console.table(rows);
