// The trainer of a tiny decoder-only transformer (cpp/train/), as engine.createTrainer() returns
// it. This file checks types and shapes and copies ids and matrices through views of the core's
// storage; the model, its gradients, the tasks and every value check are the core's.
import { quoted } from './config.js';

const POSITIONS = ['none', 'sinusoidal', 'learned'];
const MAX_TOKEN_LENGTH = 16;   // characters of one vocabulary token: tokens are short and printable
const MAX_STEPS_PER_CALL = 100_000;
const MAX_EVALUATION = 100_000;

function fail(message) {
  throw new Error(message);
}

function wholeNumber(value, name, low, high) {
  if (!Number.isInteger(value) || value < low || value > high) fail(`${name} must be a whole number from ${low} to ${high} (got ${quoted(value)})`);
  return value;
}

// The config with the task's defaults filled in, each field of the right type; values are the core's.
function normaliseTrainerConfig(module, options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) fail('createTrainer() needs a config object');
  const task = options.task ?? 'induction';
  const defaults = typeof task === 'string' ? module.defaultTrainerConfig(task) : null;
  if (!defaults) fail(`unknown task ${quoted(task)}: use "previous", "induction", "reverse", "sort" or "text"`);
  for (const name of Object.keys(options)) {
    if (!Object.hasOwn(defaults, name)) fail(`unknown field ${quoted(name)}: use ${Object.keys(defaults).join(', ')}`);
  }
  const config = { ...defaults, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  const { vocab } = config;
  if (!Array.isArray(vocab)) fail('vocab must be an array of strings');
  wholeNumber(vocab.length, 'vocab.length', 2, module.maxTrainVocab);
  for (let i = 0; i < vocab.length; ++i) {
    if (typeof vocab[i] !== 'string' || vocab[i].length > MAX_TOKEN_LENGTH) fail(`vocab[${i}] must be a string of at most ${MAX_TOKEN_LENGTH} characters`);
  }
  for (const name of ['contextLength', 'dModel', 'heads', 'layers', 'batchSize']) wholeNumber(config[name], name, -(2 ** 31), 2 ** 31 - 1);
  wholeNumber(config.seed, 'seed', 0, 4294967295);
  for (const name of ['mlp', 'layerNorm']) if (typeof config[name] !== 'boolean') fail(`${name} must be true or false`);
  if (!POSITIONS.includes(config.positions)) fail(`unknown positions ${quoted(config.positions)}: use "none", "sinusoidal" or "learned"`);
  if (typeof config.learningRate !== 'number') fail(`learningRate must be a number (got ${quoted(config.learningRate)})`);
  const problem = module.validateTrainerConfig(config);
  if (problem) fail(problem);
  return config;
}

const deepFreeze = (value) => {
  if (value && typeof value === 'object') Object.values(Object.freeze(value)).forEach(deepFreeze);
  return value;
};

const matrixCopy = (rows, cols, view) => ({ rows, cols, data: view.slice() });

export class Trainer {
  #core;
  #names;
  #idOf;

  constructor(module, options = {}) {
    this.#core = new module.WasmTrainer(normaliseTrainerConfig(module, options));
    /** The full config with defaults filled in, vocab included. */
    this.config = deepFreeze(this.#core.config());
    this.#names = this.#core.tensorNames();
    this.#idOf = new Map(this.config.vocab.map((token, id) => [token, id]));
  }

  /** Optimizer steps taken since creation. */
  get steps() {
    return this.#live().steps();
  }

  /** n optimizer steps on fresh batches of the task → { step, loss } (step counts since creation). */
  step(n = 1) {
    wholeNumber(n, 'step count', 1, MAX_STEPS_PER_CALL);
    const loss = this.#live().step(n);
    return { step: this.#core.steps(), loss };
  }

  /** Loss and accuracy on `count` fresh sequences of the task (never trained on). */
  evaluate(count = 256) {
    wholeNumber(count, 'count', 1, MAX_EVALUATION);
    return this.#live().evaluate(count);
  }

  /**
   * The model on one sequence (ids or vocabulary strings) → { logits (T×V), predictions (ids),
   * targets (the task's right answers, −1 where it has none), layers: [{ heads: [{ attention }],
   * input }] } where `input` is the layer's h, what its attention sees.
   */
  run(tokens) {
    const ids = this.#ids(tokens, 'tokens');
    const core = this.#live();
    this.#throwIf(core.checkShape(1, ids.length));
    core.ids(ids.length).set(ids);
    this.#throwIf(core.run(ids.length));
    const T = ids.length;
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
    return Object.fromEntries(this.#names.map((name) => {
      const [rows, cols] = core.shape(name);
      return [name, matrixCopy(rows, cols, core.parameter(name))];
    }));
  }

  /** Sets any subset of the parameters; every shape and entry is checked before any is written. */
  setParameters(params) {
    const core = this.#live();
    if (!params || typeof params !== 'object') fail('setParameters() needs an object of matrices by name');
    const writes = Object.entries(params).map(([name, matrix]) => {
      if (!this.#names.includes(name)) fail(`unknown parameter ${quoted(name)}: use ${this.#names.join(', ')}`);
      const [rows, cols] = core.shape(name);
      const data = matrix && ArrayBuffer.isView(matrix.data) ? matrix.data : null;
      if (!data || matrix.rows !== rows || matrix.cols !== cols || data.length !== rows * cols) {
        fail(`${name} must be { rows: ${rows}, cols: ${cols}, data } (got ${quoted(matrix?.rows)}×${quoted(matrix?.cols)})`);
      }
      const bad = data.findIndex((v) => !Number.isFinite(v) || !Number.isFinite(Math.fround(v)));
      if (bad >= 0) fail(`${name}[${Math.floor(bad / cols)}][${bad % cols}] is not a finite float32 number`);
      return [name, data];
    });
    for (const [name, data] of writes) core.parameter(name).set(data);
  }

  /**
   * Loss and gradients of an explicit batch, without an update: inputs and targets are B rows of
   * T ids (target −1 = ignored) → { loss, gradients: { name: Matrix } }.
   */
  lossAndGradients({ inputs, targets } = {}) {
    const core = this.#live();
    const rows = (value, name) => {
      if (!Array.isArray(value) || value.length === 0 || !Array.isArray(value[0])) fail(`${name} must be an array of sequences of ids`);
      return value;
    };
    const B = rows(inputs, 'inputs').length, T = inputs[0].length;
    rows(targets, 'targets');
    this.#throwIf(core.checkShape(B, T));
    if (targets.length !== B) fail(`targets must have ${B} sequences, like inputs`);
    const ids = core.ids(B * T), wanted = core.targets(B * T);
    for (let b = 0; b < B; ++b) {
      for (const [value, name] of [[inputs[b], 'inputs'], [targets[b], 'targets']]) {
        if (!Array.isArray(value) || value.length !== T) fail(`${name}[${b}] must hold ${T} ids, like inputs[0]`);
      }
      for (let t = 0; t < T; ++t) {
        ids[b * T + t] = wholeNumber(inputs[b][t], `inputs[${b}][${t}]`, -(2 ** 31), 2 ** 31 - 1);
        wanted[b * T + t] = wholeNumber(targets[b][t], `targets[${b}][${t}]`, -(2 ** 31), 2 ** 31 - 1);
      }
    }
    this.#throwIf(core.lossAndGradients(B, T));
    return {
      loss: core.loss(),
      gradients: Object.fromEntries(this.#names.map((name) => {
        const [r, c] = core.shape(name);
        return [name, matrixCopy(r, c, core.gradient(name))];
      })),
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

  #throwIf(problem) {
    if (problem) fail(problem);
  }

  // Ids from ids or vocabulary strings.
  #ids(tokens, name) {
    if (!Array.isArray(tokens)) fail(`${name} must be an array of ids or vocabulary tokens`);
    const ids = new Array(tokens.length);
    for (let t = 0; t < tokens.length; ++t) {
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
