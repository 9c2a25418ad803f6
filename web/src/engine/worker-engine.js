// The main thread's side of compute-worker.js: the same compute() as the engine, but
// asynchronous, with progress and cancellation, so that a large computation never blocks the
// page. Cancelling terminates the worker (a busy worker cannot read messages) and starts a new one.
export class WorkerEngine {
  #worker = null;
  #pending = null; // { id, resolve, reject, onProgress }
  #nextId = 1;
  #ready = null;

  constructor() {
    this.#start();
  }

  /** Resolves to the engine's info once the worker's engine has loaded. */
  get ready() {
    return this.#ready;
  }

  get busy() {
    return this.#pending !== null;
  }

  /**
   * Computes in the worker. Resolves to the result, or rejects with the engine's Error, or with
   * an Error whose `cancelled` is true after cancel(). One computation at a time: a new call
   * cancels the one still running.
   */
  compute(config, options = {}, { onProgress = () => {} } = {}, kind = 'compute') {
    if (this.#pending) this.cancel();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending = { id, resolve, reject, onProgress };
      this.#worker.postMessage({ id, kind, config, options });
    });
  }

  /** Stops the running computation, if any. */
  cancel() {
    if (!this.#pending) return;
    const { reject } = this.#pending;
    this.#pending = null;
    this.#worker.terminate();
    this.#start();
    reject(Object.assign(new Error('cancelled'), { cancelled: true }));
  }

  terminate() {
    this.cancel();
    this.#worker.terminate();
  }

  #start() {
    this.#worker = new Worker(new URL('./compute-worker.js', import.meta.url), { type: 'module' });
    this.#ready = new Promise((resolve) => {
      this.#worker.addEventListener('message', ({ data }) => data.info && resolve(data.info));
    });
    this.#worker.addEventListener('message', ({ data }) => this.#receive(data));
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.#fail(new Error(`the compute worker failed: ${event.message || 'unknown error'}`));
    });
  }

  /** Bytes of WebAssembly memory the worker's engine held after its last computation. */
  memoryBytes = 0;

  /** Milliseconds the last computation took in the worker's engine (without the messages). */
  lastMs = 0;

  #receive({ id, progress, result, error, memoryBytes, ms }) {
    if (!this.#pending || id !== this.#pending.id) return; // a cancelled computation's news
    if (progress !== undefined) {
      this.#pending.onProgress(progress);
      return;
    }
    const { resolve, reject } = this.#pending;
    this.#pending = null;
    if (error !== undefined) {
      reject(new Error(error));
    } else {
      this.memoryBytes = memoryBytes;
      this.lastMs = ms;
      resolve(result);
    }
  }

  #fail(error) {
    if (!this.#pending) return;
    const { reject } = this.#pending;
    this.#pending = null;
    reject(error);
  }
}
