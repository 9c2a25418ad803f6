// The main thread's side of train-worker.js: a trainer that trains in a worker and reports what
// it did, so that the page stays responsive however long training runs.
export class WorkerTrainer {
  #worker;
  #nextId = 1;
  #lessons = new Map(); // id → { resolve, reject }

  /** onState(state), onOpened({ config, step }), onError(message): the worker's news. */
  constructor({ onState, onOpened, onError }) {
    this.#worker = new Worker(new URL('./train-worker.js', import.meta.url), { type: 'module' });
    this.#worker.addEventListener('message', ({ data }) => {
      if (data.type === 'state') onState(data);
      else if (data.type === 'opened') onOpened(data);
      else if (data.type === 'lesson') this.#settle(data.id, data, null);
      else if (data.type === 'error') {
        if (!this.#settle(data.id, null, new Error(data.message))) onError(data.message);
      }
    });
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      onError(`the training worker failed: ${event.message || 'unknown error'}`);
    });
  }

  /** A new model: { build, config } or { build, checkpoint }, trained at once `steps` steps. */
  open({ build, config = null, checkpoint = null, steps = 0, example = [] }) {
    this.#worker.postMessage({ type: 'open', build, config, checkpoint, steps, example });
  }

  /** Trains on, in slices: without end, or until step `to`. */
  train(to = null) {
    this.#worker.postMessage({ type: 'train', to });
  }

  pause() {
    this.#worker.postMessage({ type: 'pause' });
  }

  /** One step. */
  step() {
    this.#worker.postMessage({ type: 'step' });
  }

  /** The sequence whose predictions and maps are reported (ids or vocabulary tokens). */
  setExample(tokens) {
    this.#worker.postMessage({ type: 'example', tokens });
  }

  /** → Promise of { tokens, input, weights: { wq, wk, wv, wo }, maps } of `layer` on the example. */
  lesson(layer) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#lessons.set(id, { resolve, reject });
      this.#worker.postMessage({ type: 'lesson', id, layer });
    });
  }

  terminate() {
    this.#worker.terminate();
  }

  #settle(id, value, error) {
    const waiting = id !== undefined && this.#lessons.get(id);
    if (!waiting) return false;
    this.#lessons.delete(id);
    if (error) waiting.reject(error);
    else waiting.resolve(value);
    return true;
  }
}
