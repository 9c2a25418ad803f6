// The trainer of a tiny decoder-only transformer (cpp/train/), as engine.createTrainer() returns
// it. This file checks the type of every field and copies the caller's values before any call into
// the core (a getter or a Proxy is read once, before the core is asked anything); the model, its
// gradients, the tasks, every value check and the memory and time budgets are the core's.
import { callCore, quoted, wellFormed } from './config.js';

const POSITIONS = ['none', 'sinusoidal', 'learned'];
const MAX_TOKEN_LENGTH = 16; // characters of one vocabulary token: tokens are short and printable
const INT_RANGE = [-(2 ** 31), 2 ** 31 - 1];
const FIELDS = Object.freeze({
  task: 'string',
  vocab: 'vocab',
  contextLength: 'int',
  dModel: 'int',
  heads: 'int',
  layers: 'int',
  mlp: 'boolean',
  layerNorm: 'boolean',
  positions: 'string',
  learningRate: 'number',
  batchSize: 'int',
  seed: 'seed',
});

function fail(message) {
  throw new Error(message);
}

const deepFreeze = (value) => {
  if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
  return value;
};

function wholeNumber(value, name, low, high) {
  if (!Number.isInteger(value) || value < low || value > high) fail(`${name} must be a whole number from ${low} to ${high} (got ${quoted(value)})`);
  return value;
}

// One field of the caller's config, read once, checked for its type and copied.
function fieldValue(name, value) {
  switch (FIELDS[name]) {
    case 'string':
      if (typeof value !== 'string') fail(`${name} must be a string (got ${quoted(value)})`);
      return value;
    case 'int':
      return wholeNumber(value, name, ...INT_RANGE);
    case 'seed':
      return wholeNumber(value, name, 0, 4294967295);
    case 'boolean':
      if (typeof value !== 'boolean') fail(`${name} must be true or false (got ${quoted(value)})`);
      return value;
    case 'number':
      if (typeof value !== 'number') fail(`${name} must be a number (got ${quoted(value)})`);
      return value;
    default: {
      if (!Array.isArray(value)) fail(`vocab must be an array of strings (got ${quoted(value)})`);
      const vocab = Array.from({ length: value.length }, (_, i) => value[i]);
      for (let i = 0; i < vocab.length; ++i) {
        const token = vocab[i];
        if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH)
          fail(`vocab[${i}] must be a string of 1 to ${MAX_TOKEN_LENGTH} characters (got ${quoted(token)})`);
        if (!wellFormed(token)) fail(`vocab[${i}] holds a lone surrogate (half of a UTF-16 pair), which is no character`);
      }
      return vocab;
    }
  }
}

// A task's defaults (the core's), asked once per module and task.
const DEFAULTS = new WeakMap(); // module → Map(task → config or null)
function taskDefaults(module, task) {
  if (!DEFAULTS.has(module)) DEFAULTS.set(module, new Map());
  const known = DEFAULTS.get(module);
  if (!known.has(task)) known.set(task, deepFreeze(module.defaultTrainerConfig(task)));
  return known.get(task);
}

// The config with the task's defaults filled in: a plain object of copied values, each of its type.
// Values (ranges, heads dividing dModel, memory, the time of a step) are the core's to check.
function normaliseTrainerConfig(module, options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) fail('createTrainer() needs a config object');
  const given = {};
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(FIELDS, name)) fail(`unknown field ${quoted(name)}: use ${Object.keys(FIELDS).join(', ')}`);
    const value = options[name];
    if (value !== undefined) given[name] = fieldValue(name, value);
  }
  const task = given.task ?? 'induction';
  const defaults = taskDefaults(module, task);
  if (!defaults) fail(`unknown task ${quoted(task)}: use "previous", "induction", "reverse", "sort" or "text"`);
  const config = { ...defaults, ...given };
  wholeNumber(config.vocab.length, 'vocab.length', 2, module.maxTrainVocab);
  if (!POSITIONS.includes(config.positions)) fail(`unknown positions ${quoted(config.positions)}: use "none", "sinusoidal" or "learned"`);
  return config;
}

/** { bytes, stepSeconds } of a trainer of `options`, without making one (the same checks as createTrainer). */
export function trainingEstimate(module, options) {
  const config = normaliseTrainerConfig(module, options);
  const estimator = new module.TrainerEstimate();
  try {
    const problem = callCore(() => estimator.check(config));
    if (problem) fail(problem);
    return callCore(() => estimator.estimate());
  } finally {
    estimator.delete();
  }
}

const matrixCopy = (rows, cols, view) => ({ rows, cols, data: view.slice() });

// Ids of B sequences of T (one read of each row and entry of the caller's arrays) into an Int32Array.
function idsOf(sequences, name, B, T, low) {
  const out = new Int32Array(B * T);
  for (let b = 0; b < B; ++b) {
    const row = sequences[b];
    if (!Array.isArray(row) || row.length !== T) fail(`${name}[${b}] must hold ${T} ids, like inputs[0]`);
    for (let t = 0; t < T; ++t) out[b * T + t] = wholeNumber(row[t], `${name}[${b}][${t}]`, low, INT_RANGE[1]);
  }
  return out;
}

export class Trainer {
  #core;
  #names;
  #idOf;

  constructor(module, options = {}) {
    const config = normaliseTrainerConfig(module, options);
    const core = new module.WasmTrainer();
    const problem = callCore(() => core.open(config));
    if (problem) {
      core.delete();
      fail(problem);
    }
    this.#core = core;
    /** The full config with defaults filled in, vocab included. */
    this.config = deepFreeze(core.config());
    /** Estimated seconds of one step on this build (the core's figure, from the model's FLOPs). */
    this.stepSeconds = core.stepSeconds();
    this.#names = core.tensorNames();
    this.#idOf = new Map(this.config.vocab.map((token, id) => [token, id]));
  }

  /** Optimizer steps taken since creation. */
  get steps() {
    return this.#live().steps();
  }

  /**
   * n optimizer steps on fresh batches of the task → { step, loss } (step counts since creation).
   * Refused when they would take more than about 2 s (the message gives the estimate).
   */
  step(n = 1) {
    wholeNumber(n, 'step count', 1, INT_RANGE[1]);
    const core = this.#live();
    this.#call(() => core.step(n));
    return { step: core.steps(), loss: core.loss() };
  }

  /** Loss and accuracy on `count` fresh sequences of the task (never trained on); at most about 2 s of work. */
  evaluate(count = 256) {
    wholeNumber(count, 'count', 1, INT_RANGE[1]);
    const core = this.#live();
    this.#call(() => core.evaluate(count));
    return core.evaluation();
  }

  /**
   * The model on one sequence (ids or vocabulary strings) → { logits (T×V), predictions (ids),
   * targets (the task's right answers, −1 where it has none), layers: [{ heads: [{ attention }],
   * input }] } where `input` is the layer's h, what its attention sees.
   */
  run(tokens) {
    const ids = this.#ids(tokens, 'tokens');
    const core = this.#live();
    const T = ids.length;
    this.#call(() => core.checkShape(1, T));
    this.#call(() => core.reserve(T, false));
    core.ids().set(ids); // (the view is taken after the last allocation)
    this.#call(() => core.run(T));
    const { vocab, layers, heads, dModel } = this.config;
    const logits = matrixCopy(T, vocab.length, core.logits());
    const predictions = Array.from({ length: T }, (_, t) => {
      const row = logits.data.subarray(t * vocab.length, (t + 1) * vocab.length);
      return row.indexOf(Math.max(...row));
    });
    return {
      logits,
      predictions,
      targets: Array.from(core.taskTargets()),
      layers: Array.from({ length: layers }, (_, l) => ({
        input: matrixCopy(T, dModel, core.layerInput(l)),
        heads: Array.from({ length: heads }, (_, h) => ({ attention: matrixCopy(T, T, core.attention(l, h)) })),
      })),
    };
  }

  /** Every parameter by name ("wte", "layers.0.wq", …) as { rows, cols, data } copies. */
  parameters() {
    const core = this.#live();
    return Object.fromEntries(
      this.#names.map((name, i) => {
        const [rows, cols] = core.shape(i);
        return [name, matrixCopy(rows, cols, core.parameter(i))];
      }),
    );
  }

  /** Sets any subset of the parameters; every shape and entry is checked before any is written. */
  setParameters(params) {
    const core = this.#live();
    if (!params || typeof params !== 'object') fail('setParameters() needs an object of matrices by name');
    const writes = Object.keys(params).map((name) => {
      const index = this.#names.indexOf(name);
      if (index < 0) fail(`unknown parameter ${quoted(name)}: use ${this.#names.join(', ')}`);
      const [rows, cols] = core.shape(index);
      const matrix = params[name];
      const given = matrix && typeof matrix === 'object' ? { rows: matrix.rows, cols: matrix.cols, data: matrix.data } : {};
      if (!ArrayBuffer.isView(given.data) || given.rows !== rows || given.cols !== cols || given.data.length !== rows * cols) {
        fail(`${name} must be { rows: ${rows}, cols: ${cols}, data } (got ${quoted(given.rows)}×${quoted(given.cols)})`);
      }
      const data = Float32Array.from(given.data);
      const bad = data.findIndex((v, i) => !Number.isFinite(v) || !Number.isFinite(Number(given.data[i])));
      if (bad >= 0) fail(`${name}[${Math.floor(bad / cols)}][${bad % cols}] is not a finite float32 number`);
      return [index, data];
    });
    for (const [index, data] of writes) core.parameter(index).set(data);
  }

  /**
   * Loss and gradients of an explicit batch, without an update: inputs and targets are B rows of
   * T ids (target −1 = ignored) → { loss, gradients: { name: Matrix } }. The batch must fit the
   * trainer's memory budget (the message names the largest that does).
   */
  lossAndGradients({ inputs, targets } = {}) {
    const core = this.#live();
    const sequences = (value, name) => {
      if (!Array.isArray(value) || value.length === 0) fail(`${name} must be an array of sequences of ids`);
      return value;
    };
    const B = sequences(inputs, 'inputs').length;
    const first = inputs[0];
    if (!Array.isArray(first)) fail('inputs must be an array of sequences of ids');
    const T = first.length;
    sequences(targets, 'targets');
    this.#call(() => core.checkShape(B, T));
    if (targets.length !== B) fail(`targets must have ${B} sequences, like inputs`);
    const ids = idsOf(inputs, 'inputs', B, T, INT_RANGE[0]);
    const wanted = idsOf(targets, 'targets', B, T, INT_RANGE[0]);
    this.#call(() => core.reserve(B * T, true));
    // Both views after the last allocation of the call: a growth of wasm memory cannot detach them.
    const idsView = core.ids(),
      targetsView = core.targets();
    idsView.set(ids);
    targetsView.set(wanted);
    this.#call(() => core.lossAndGradients(B, T));
    return {
      loss: core.loss(),
      gradients: Object.fromEntries(
        this.#names.map((name, i) => {
          const [r, c] = core.shape(i);
          return [name, matrixCopy(r, c, core.gradient(i))];
        }),
      ),
    };
  }

  /** Frees the trainer's memory; later calls throw. */
  dispose() {
    this.#core?.delete();
    this.#core = null;
  }

  #live() {
    if (!this.#core) fail('this trainer was disposed');
    return this.#core;
  }

  // A call into the core that returns "" or a problem.
  #call(work) {
    const problem = callCore(work);
    if (problem) fail(problem);
  }

  // Ids from ids or vocabulary strings, each entry of the caller's array read once.
  #ids(tokens, name) {
    if (!Array.isArray(tokens)) fail(`${name} must be an array of ids or vocabulary tokens`);
    const ids = new Int32Array(tokens.length);
    for (let t = 0; t < ids.length; ++t) {
      const token = tokens[t];
      if (typeof token === 'string') {
        if (!this.#idOf.has(token)) fail(`${name}[${t}] = ${quoted(token)} is not in the vocabulary`);
        ids[t] = this.#idOf.get(token);
      } else {
        ids[t] = wholeNumber(token, `${name}[${t}]`, 0, this.config.vocab.length - 1);
      }
    }
    return ids;
  }
}
