// The one path from the page's state to its screen: after every change of the store, the plan of
// the runs the state needs (compute/plan.js), the runs made (compute/runner.js, on the page or in
// the worker), an open exercise's entries taken out of every result (exercise/present.js), and the
// views drawn from what is left: the lesson at once, the panels by the draw pass. whenDrawn()
// resolves once every view shows the current state.
import { planRuns, workKey } from '../compute/plan.js';
import { drawing } from '../render/scheduler.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { sentenceTokens } from '../state/schema.js';
import { toEngineConfig } from '../state/validate.js';

// At large sizes (T × d_model) the computation starts in a task of its own, after the one that
// took the key: a burst of keys then starts one computation, not one per key.
const updateKey = { pageUpdate: true };

/**
 * deps: { store, runner, drawPass, lesson, modern, exercise, train, share, messages, engine() (null while
 * it loads), t(), lang(), langChosen(), renderControls(draft) }
 */
export function createController(deps) {
  const { store, drawPass } = deps;
  const asked = new Set(); // work keys of heavy panels a reader asked for
  let shown = null; // { state, results, ctx } on screen
  let error = null; // { key, params, field } of the current problem (bad input, a refusal)
  let notice = null; // { key, params }: a one-off remark (a link opened in its preset, a cancel)

  function say() {
    deps.messages.render({ error, notice, kept: shown !== null });
  }

  // The store changed: the controls follow the draft at once; the runs and views follow a valid state.
  function changed({ problem, meta }) {
    deps.renderControls(store.draft);
    if (meta.from !== 'link') notice = null;
    if (!deps.engine() || meta.compute === false) return;
    if (problem) {
      error = problem;
      say();
      return;
    }
    const state = store.state;
    const large = sentenceTokens(state).length * state.dModel >= THRESHOLDS.keyTaskEntries;
    if (large && !meta.loaded) drawing.sliced(updateKey, () => void update(meta));
    else update(meta);
  }

  let planned = null; // the latest plan (the tests compare what was run with it)

  // → true when the state is on screen, 'pending' when the worker computes it, false on a refusal.
  function update(meta = {}) {
    const state = store.state;
    if (!state || !deps.engine()) return false;
    const exercise = deps.exercise.needs(state);
    let plan;
    let outcome;
    try {
      plan = planRuns(state, { shown: new Set([...drawPass.shown(), 'lesson']), asked, exercise, limits: deps.engine().info.limits });
      planned = plan;
      outcome = deps.runner.execute(plan);
    } catch (refused) {
      error = { key: 'error.engine', params: { message: refused.message }, field: null };
      say();
      meta.onFailure?.(refused.message);
      return false;
    }
    if (outcome.results) {
      show(state, outcome.results, meta);
      return true;
    }
    drawing.track(
      outcome.pending.then(
        (results) => store.state === state && show(state, results, meta),
        (failure) => {
          if (failure?.cancelled) {
            if (store.state !== state) return; // superseded: the newer computation reports itself
            notice = { key: shown ? 'progress.cancelled' : 'progress.cancelledNothing' };
          } else if (meta.onFailure) {
            meta.onFailure(failure.message);
            return;
          } else {
            error = { key: 'error.engine', params: { message: failure.message }, field: null };
          }
          say();
        },
      ),
    );
    return 'pending';
  }

  function show(state, raw, meta) {
    error = null;
    const presenter = deps.exercise.update(raw, state); // (an exercise's open questions: "?" on every view)
    const results = presenter.results(raw);
    const config = toEngineConfig(state);
    const ctx = {
      state,
      config,
      results,
      result: results.get('main'),
      t: deps.t(),
      limits: deps.engine().info.limits,
      redacted: presenter.key, // ('' when nothing is hidden)
      hidesMask: presenter.hidesMask, // (a question asks which keys the mask hides)
      loaded: Boolean(meta.loaded),
      fresh: Boolean(meta.loaded || meta.redraw), // (everything drawn again, not only what is looked at)
    };
    shown = { state, results, ctx };
    deps.lesson.render(ctx);
    deps.modern.present(ctx);
    drawPass.show(ctx, { now: meta.from });
    deps.train.render(ctx);
    say();
    deps.messages.renderState(state);
    writeLink();
  }

  function writeLink() {
    if (!shown) return;
    deps.share.stateChanged({
      presetId: store.presetId,
      state: shown.state,
      result: shown.results.get('main'), // (exports hold no answer: the redacted results)
      lang: deps.langChosen() ? deps.lang() : null,
      t: deps.t(),
    });
  }

  store.subscribe(changed);

  return {
    /** The store's state again, as after a change (a link computed once the engine has loaded). */
    settle: (meta = {}) => changed({ problem: store.problem, meta }),
    /** Draws the state on screen again (a new language, an answered question). */
    redraw() {
      if (!shown) return;
      for (const name of drawPass.shown()) drawPass.stale(name);
      update({ redraw: true });
    },
    /** A reader asked for a heavy panel: its runs are planned for these settings. */
    ask(panel) {
      if (!shown) return;
      asked.add(workKey(panel, shown.ctx.config, shown.state));
      update({ from: panel });
    },
    /** A remark to show until the next change (a link opened in its preset instead). */
    notice(next) {
      notice = next;
      say();
    },
    say,
    writeLink,
    /** The keys of the latest plan's runs. */
    plannedKeys: () => planned?.runs.map((run) => run.key) ?? [],
    /** What is on screen: { state, results, ctx } or null. */
    get shown() {
      return shown;
    },
    get error() {
      return error;
    },
    /** Resolves once every view shows the current state (page and worker work done). */
    whenDrawn: () => drawing.whenDrawn(),
  };
}
