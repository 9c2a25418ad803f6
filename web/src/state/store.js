// The page's one state. Every control dispatches a partial change of the draft (the controls'
// values as given: text as typed, typed values for the rest); the store checks the whole draft
// (validate.js, against the schema's one table) and keeps the last valid state and the current
// problem. What follows from the state — its tokens, the engine config, the runs — is computed
// from it where it is needed, never kept beside it. No DOM.
import { LIMITS, WEIGHT_KEYS } from './schema.js';
import { validateDraft } from './validate.js';

// Choosing the weights' kind, their seed or d_model drops weights edited in the lesson: they were
// edits of the matrices that choice replaces.
const DROPS_EDITED_WEIGHTS = ['weights', 'seed', 'dModel'];

/**
 * → { draft, state, problem, presetId, dispatch(partial, meta), load(draft, presetId, meta),
 *     subscribe(listener) }; listener({ state, problem, changed: [keys], meta }) after each change
 *     (meta: what the dispatcher said of it, e.g. { from: 'split' }).
 */
export function createStore({ limits = LIMITS } = {}) {
  let draft = {};
  let state = null;
  let problem = null;
  let presetId = 'default';
  const listeners = new Set();

  function settle(changed, meta) {
    const checked = validateDraft(draft, limits);
    if (checked.ok) {
      state = checked.state;
      problem = null;
    } else {
      problem = checked.error;
    }
    for (const listener of [...listeners]) listener({ state, problem, changed, meta });
  }

  return {
    get draft() {
      return draft;
    },
    /** The last valid state (null before the first). */
    get state() {
      return state;
    },
    /** { key, params, field } of the draft's first problem, or null. */
    get problem() {
      return problem;
    },
    get presetId() {
      return presetId;
    },
    /** A control changed: `partial` holds its fields' new values. */
    dispatch(partial, meta = {}) {
      const next = { ...draft, ...partial };
      if (DROPS_EDITED_WEIGHTS.some((key) => key in partial && partial[key] !== draft[key])) {
        for (const key of WEIGHT_KEYS) next[key] = null;
      }
      draft = next;
      settle(Object.keys(partial), meta);
    },
    /** A whole new draft: a preset or a link (state/draft.js makes one from a state). */
    load(next, nextPreset = 'default', meta = {}) {
      draft = { ...next };
      presetId = nextPreset;
      settle(null, { ...meta, loaded: true });
    },
    /** Calls listener after every change; → a function that stops it. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
