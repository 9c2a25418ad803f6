// The one place the page runs the engine: it executes a plan (plan.js), each distinct run once,
// on the page or in the worker by the one rule (perf/work-estimate.js), and keeps every result by
// its key while the latest or the previous plan asks for it. Views read the results it hands out
// (results.get(id)); they never call the engine.
import { WorkerEngine } from '../engine/worker-engine.js';
import { worthAWorker } from '../perf/work-estimate.js';
import { packedForWorker } from './worker-pack.js';

const CALLS = {
  compute: (engine, config) => engine.compute(config),
  trace: (engine, config, options) => engine.flashTrace(config, options),
  decode: (engine, config) => engine.decode(config),
};

const shapeOf = (config) => {
  const T = config.tokens?.length ?? config.embeddings?.rows ?? 0;
  return { T, Tk: config.source?.tokens.length ?? T, dModel: config.dModel, heads: config.heads ?? 1 };
};

/**
 * deps: { engine() (the page's engine, or null while it loads), progress: { show(T), progress(f),
 * hide() } (the bar shown while the worker computes, with its Cancel), record({ ms, where, T, Tk,
 * dModel, memoryBytes }) (the perf panel's figures of each main run) }.
 */
export function createRunner(deps) {
  let kept = new Map(); // key → { value } or { error }: the latest plan's runs…
  let previous = new Map(); // …and the previous plan's, taken over when asked again
  let generation = 0;
  let handedOut = null; // { keys, results } of the last plan: the same runs give the same results object
  let worker = null; // started on first use: most pages never need it
  const counts = { compute: 0, trace: 0, decode: 0, tokenEmbeddings: 0 };
  const made = []; // the key of every run made, in order (the tests count them per change)
  const note = (kind, key) => {
    counts[kind] += 1;
    made.push(key);
  };

  // Runs one run on the page; its error is kept as its outcome (a view says it), not thrown.
  function runHere(run) {
    note(run.kind, run.key);
    const start = performance.now();
    try {
      return { value: CALLS[run.kind](deps.engine(), run.config, run.options), ms: performance.now() - start };
    } catch (error) {
      return { error };
    }
  }

  // In the worker, with the progress bar; rejects with `cancelled` when a newer run replaced it.
  async function runInWorker(run, T) {
    worker ??= new WorkerEngine();
    note(run.kind, run.key);
    deps.progress.show(T);
    try {
      const value = await worker.compute(packedForWorker(run.config), run.options ?? {}, { onProgress: (f) => deps.progress.progress(f) }, run.kind);
      return { value, ms: worker.lastMs, memoryBytes: worker.memoryBytes };
    } finally {
      if (!worker.busy) deps.progress.hide(); // (a newer computation shows its own bar)
    }
  }

  function held(key) {
    if (!kept.has(key) && previous.has(key)) kept.set(key, previous.get(key));
    return kept.get(key) ?? null;
  }
  // A run's outcome if held: under its own key, or under the key of the run it is the same as.
  function known(run) {
    const own = held(run.key);
    if (own || !run.same) return own;
    const same = held(run.same);
    if (same) kept.set(run.key, same);
    return same;
  }

  // The results of one plan: get(id) → the run's value, or null when it failed (error(id) says
  // why); a lazy run is made when first read.
  function resultsOf(plan) {
    const byId = new Map(plan.runs.map((run) => [run.id, run]));
    const outcome = (id) => {
      const run = byId.get(id);
      if (!run) return null;
      let got = known(run);
      if (!got) {
        got = runHere(run);
        kept.set(run.key, got);
      }
      return got;
    };
    return { has: (id) => byId.has(id), get: (id) => outcome(id)?.value ?? null, error: (id) => outcome(id)?.error ?? null, waiting: plan.waiting };
  }

  return {
    /**
     * Computes what `plan` needs and does not hold yet. → { results } when every run was made on
     * the page, or { pending: Promise of results } when the main run (and with it the others)
     * goes to the worker: a newer execute() cancels it (the promise rejects with `cancelled`). A
     * main run the engine refuses throws (pending: rejects) its Error.
     */
    execute(plan) {
      generation += 1;
      const mine = generation;
      previous = kept;
      kept = new Map();
      const [main] = plan.runs;
      const shape = shapeOf(main.config);
      // (any run of that size, a lazy one too: read by a view, it would block the page as long)
      const heavy = (run) => {
        const { T, Tk, dModel, heads } = shapeOf(run.config);
        return !known(run) && worthAWorker(T, Tk, dModel, heads);
      };
      if (plan.runs.some(heavy)) {
        // One after the other in the worker, the lazy runs too: on the page they would block it as
        // long as the main one.
        const pending = (async () => {
          for (const run of plan.runs) {
            if (known(run)) continue;
            let got;
            try {
              got = await runInWorker(run, shape.T);
            } catch (error) {
              if (error?.cancelled || run === main) throw error;
              got = { error };
            }
            if (run === main) deps.record({ ms: got.ms, where: 'worker', ...shape, memoryBytes: got.memoryBytes });
            if (mine === generation) kept.set(run.key, got);
          }
          return resultsOf(plan);
        })();
        return { pending };
      }
      worker?.cancel(); // a smaller input supersedes a large one still computing
      for (const run of plan.runs) {
        if (run.lazy || known(run)) continue;
        const got = runHere(run);
        if (run === main && got.error) throw got.error;
        kept.set(run.key, got);
        if (run === main) deps.record({ ms: got.ms, where: 'main', ...shape, memoryBytes: deps.engine().memoryBytes() });
      }
      // The same runs as last time (a step, a head, a cell looked at): the same results object,
      // which tells the views that no number changed.
      const keys = plan.runs.map((run) => `${run.id}=${run.key}`).join('\n') + JSON.stringify(plan.waiting);
      if (handedOut?.keys !== keys) handedOut = { keys, results: resultsOf(plan) };
      return { results: handedOut.results };
    },
    /** The generator's weights for a tool (one run for an action, on the page, not kept). */
    once(config) {
      note('compute', 'once');
      return deps.engine().compute(config);
    },
    /** The vectors "one vector per token" gives (the X editor's rows), or null. */
    tokenEmbeddings(tokens, dModel) {
      note('tokenEmbeddings', 'tokenEmbeddings');
      try {
        return deps.engine().tokenEmbeddings(tokens, dModel);
      } catch {
        return null;
      }
    },
    /** { bytes, stepSeconds } of a trainer of `config` (the Train panel's estimate of a link's training). */
    trainingEstimate(config) {
      return deps.engine().trainingEstimate(config);
    },
    /** The forward-only path's time in the worker (the perf panel's T-versus-time plot). → ms */
    async measure(config) {
      worker ??= new WorkerEngine();
      await worker.compute(config, { outputOnly: true });
      return worker.lastMs;
    },
    cancel: () => worker?.cancel(),
    /** Engine calls made so far, by kind, and the key of each run (the tests count them per interaction). */
    counts: () => ({ ...counts }),
    made: () => [...made],
  };
}
