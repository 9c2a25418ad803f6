// The trainer in a Web Worker (the Train panel's): it trains in chunks of about CHUNK_MS, so that
// a new message (pause, a typed sequence) is read between two chunks, and after each chunk posts
// what the panel draws. Messages:
//   in:  { type: 'open', build, config, checkpoint, steps, example }
//            a new trainer ('simd' | 'scalar' build; the config, or a checkpoint's object), trained
//            at once to `steps` more steps (a link's model); `example`: the tokens the maps show
//        { type: 'train' } | { type: 'pause' } | { type: 'step', n } | { type: 'example', tokens }
//        { type: 'lesson', id, layer }   a layer's input and trained W_Q, W_K, W_V, W_O
//   out: { type: 'opened', config, step, stepSeconds }   the trainer is ready (or { type: 'error', message })
//        { type: 'state', step, target, loss, accuracy, running, run }   after each chunk: loss and accuracy
//            on fresh sequences of the task (the trainer's evaluate); run: the model
//            on the example ({ predictions, targets, maps: [layer][head] Float32Array T × T })
//        { type: 'lesson', id, tokens, input, weights, maps }   the example the layer saw
import { createAttention } from './attention.js';
import { openCheckpoint } from './checkpoint.js';

const CHUNK_MS = 150; // a chunk of steps: the panel is drawn about 6 times a second
const EVALUATION_SEQUENCES = 64; // fresh sequences behind each accuracy point of the curve (at most)
const EVALUATION_SECONDS = 0.25; // … and no more than this much work for it

let engine = null;
let engineBuild = null;
let trainer = null;
let example = [];
let running = false;
let target = null; // the step a link asked for: training stops there
let msPerStep = 5; // measured, to size the next chunk
let scheduled = false;

async function engineOf(build) {
  if (!engine || engineBuild !== build) {
    engine = await createAttention({ build });
    engineBuild = build;
  }
  return engine;
}

// The model on the example: predictions, the task's targets and every head's map.
function runExample() {
  if (example.length === 0) return null;
  const result = trainer.run(example);
  return {
    tokens: example,
    predictions: result.predictions,
    targets: result.targets,
    maps: result.layers.map((layer) => layer.heads.map((head) => head.attention.data)),
  };
}

// Sequences for one point of the curve: an evaluation costs about a third of a step per sequence
// of the batch (the forward pass alone), so a large model is evaluated on fewer.
function evaluationSize() {
  const perSequence = trainer.stepSeconds / (3 * trainer.config.batchSize);
  return Math.max(1, Math.min(EVALUATION_SEQUENCES, Math.floor(EVALUATION_SECONDS / perSequence)));
}

function post(running) {
  const { loss, accuracy } = trainer.evaluate(evaluationSize());
  let run = null;
  let runError = null;
  try {
    run = runExample();
  } catch (error) {
    runError = error.message;
  }
  const transfer = run ? run.maps.flat().map((data) => data.buffer) : [];
  self.postMessage({ type: 'state', step: trainer.steps, target, loss, accuracy, running, run, runError }, transfer);
}

// Steps in slices of about CHUNK_MS (never more than one call of the core may do), so that a
// pause or a new sequence is read between two slices however long the training is.
function chunk() {
  scheduled = false;
  if (!running || !trainer) return;
  let n = Math.max(1, Math.min(Math.floor(CHUNK_MS / msPerStep), Math.floor(1 / trainer.stepSeconds)));
  if (target !== null) n = Math.min(n, target - trainer.steps);
  if (n > 0) {
    const start = performance.now();
    trainer.step(n);
    msPerStep = Math.max(0.05, (performance.now() - start) / n);
  }
  if (target !== null && trainer.steps >= target) {
    running = false;
    target = null;
  }
  post(running);
  schedule();
}

function schedule() {
  if (running && !scheduled) {
    scheduled = true;
    setTimeout(chunk, 0); // (a message waiting is read first)
  }
}

async function open({ build, config, checkpoint, steps = 0, example: tokens = [] }) {
  const chosen = await engineOf(build);
  // A config the core refuses throws here, and the model trained so far stays as it was.
  const next = checkpoint ? openCheckpoint(chosen, checkpoint) : chosen.createTrainer(config);
  trainer?.dispose();
  trainer = next;
  running = false;
  target = null;
  msPerStep = 1000 * trainer.stepSeconds; // the core's estimate, until the first slice is measured
  example = tokens;
  self.postMessage({ type: 'opened', config: trainer.config, step: trainer.steps, stepSeconds: trainer.stepSeconds });
  if (steps > 0) {
    target = steps;
    running = true;
    schedule();
  } else {
    post(false);
  }
}

const handlers = {
  open,
  // Train on: without end, or (a link's model) until step `to`.
  train({ to = null }) {
    target = to;
    running = true;
    schedule();
  },
  pause() {
    running = false;
    target = null;
    post(false);
  },
  step() {
    running = false;
    target = null;
    trainer.step(1);
    post(false);
  },
  example({ tokens }) {
    example = tokens;
    if (!running) post(false); // (while training, the next chunk shows it)
  },
  lesson({ id, layer }) {
    const run = trainer.run(example);
    const params = trainer.parameters();
    const weights = Object.fromEntries(['wq', 'wk', 'wv', 'wo'].map((key) => [key, params[`layers.${layer}.${key}`]]));
    self.postMessage({
      type: 'lesson',
      id,
      tokens: example,
      input: run.layers[layer].input,
      weights,
      maps: run.layers[layer].heads.map((head) => head.attention),
    });
  },
};

// One message at a time, in order: a 'train' posted while 'open' loads the engine waits for it.
let queue = Promise.resolve();
self.onmessage = ({ data }) => {
  queue = queue.then(async () => {
    try {
      if (data.type !== 'open' && !trainer) return;
      await handlers[data.type](data);
    } catch (error) {
      if (data.type !== 'open') running = false;
      self.postMessage({ type: 'error', message: error.message, id: data.id });
    }
  });
};
