// The page's runs in Node: a state through the page's plan (compute/plan.js) and runner
// (compute/runner.js), as the page's controller makes them, for tests that read results as the
// views do. The runner counts its engine calls.
import { planRuns } from '../../web/src/compute/plan.js';
import { createRunner } from '../../web/src/compute/runner.js';
import { companionsOf } from '../../web/src/lesson/companions.js';

const quiet = { show() {}, progress() {}, hide() {} };

/** A runner of `engine` (its counts() say how many engine calls it made). */
export const runnerOf = (engine) => createRunner({ engine: () => engine, progress: quiet, record() {} });

/** The results of `state` with `shown` panels (default: the lesson). */
export function resultsOf(runner, state, { shown = ['lesson'], exercise } = {}) {
  return runner.execute(planRuns(state, { shown: new Set(shown), exercise, limits: { maxTokensTrace: 64 } })).results;
}

/** The lesson's context of a state: its companions, the state and the translator. */
export function lessonContext(engine, state, t, runner = runnerOf(engine)) {
  return { ...companionsOf(resultsOf(runner, state)), state, t };
}
