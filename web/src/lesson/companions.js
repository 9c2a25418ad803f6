// The extra results some views need, computed by the same engine with one option changed:
// - `dots`: the run with scaling off, whose scores are QKᵀ itself (the "QKᵀ" step and the
//   "0.955/√3" line of an explanation), or the result itself when scaling is already off;
// - `stable`: with naive softmax on, the stable run, shown next to the naive one;
// - `compare`: the same input with the other of "none" and "causal" (bidirectional vs causal);
//   not in cross-attention, whose mask the cross-attention controls set;
// - `unmasked`: the same input with mask "none" (what a row would read from the future without
//   the causal mask: the mask step's note, self-test question 3); the compared run when that is
//   it, the result itself when the mask is already none.
// No DOM; every number still comes from the engine.

/** The mask kind a comparison shows next to `mask`. */
export const compareMaskOf = (mask) => (mask === 'none' ? 'causal' : 'none');

function without(config, keys) {
  const copy = { ...config };
  for (const key of keys) delete copy[key];
  return copy;
}

// A companion run may only fail for the reason the main one would; then it is left out.
function tryCompute(engine, config) {
  try {
    return engine.compute(config);
  } catch (error) {
    console.warn('companion run failed', error);
    return null;
  }
}

// What acts after QKᵀ: the core computes each head's scores, QK_hᵀ times the scale, before the
// mask, the temperature and the softmax (pass 3 of cpp/forward_reference.cpp and forward_simd.cpp),
// so the unscaled run's scores do not depend on these fields.
const AFTER_SCORES = ['mask', 'window', 'prefix', 'customMask', 'padding', 'maskFill', 'maskBeforeScale', 'temperature', 'naiveSoftmax', 'softmaxOver', 'scale'];

/** What the unscaled scores (`dots`) of a config depend on, as a string to compare. */
export const dotsKey = (config) => JSON.stringify(without(config, AFTER_SCORES));
// The same for the stable run (the config with naive softmax off).
const stableKey = (config) => JSON.stringify(without(config, ['naiveSoftmax']));

// A run made when first asked for, once (null if it failed).
function lazyRun(engine, config) {
  let done = false;
  let value = null;
  return () => {
    if (!done) {
      value = tryCompute(engine, config);
      done = true;
    }
    return value;
  };
}

/**
 * { result, dots, stable, compare } for a result computed from `config` with `state`.
 * previous: { key, dots or dotsRun, plain } of an earlier call (its dotsKey, dots or dotsRun, and
 * plain): its unscaled run is taken again when only fields after the scores changed (τ, naive
 * softmax, the mask, the scaling: with scaling off, the result is that run), and its run without
 * naive softmax serves as the stable run of the same config with naive softmax on. Either is what
 * the engine computed for the same inputs: the same numbers, one run less.
 * The unscaled run (`dots`, a getter) is made when first read: only the QKᵀ step, the explanation
 * of a score and what follows read it, and an edit of X or W on another step then costs one run
 * less (about 1 ms at T = 32) in the frame that shows it. `dotsRun` reads it, for the next call:
 * runs not yet made are handed on as they are, not chained.
 */
export function computeCompanions(engine, config, result, state, previous = null) {
  // With scaling off the result is the unscaled run itself: kept under the same key, it serves
  // the next call when scaling is switched back on (÷√d_k on: one run less in its frame).
  const key = dotsKey(config);
  let dotsRun;
  if (config.scale === false) dotsRun = () => result;
  else if (previous && previous.key === key && previous.dotsRun) dotsRun = previous.dotsRun;
  else if (previous && previous.key === key && previous.dots) dotsRun = () => previous.dots;
  else dotsRun = lazyRun(engine, { ...config, scale: false });
  const plainKey = stableKey(config);
  const stable = !state.naive ? null : previous?.plain?.key === plainKey ? previous.plain.result : tryCompute(engine, { ...config, naiveSoftmax: false });
  // The run without naive softmax of this config, for the next call.
  const plain = config.naiveSoftmax ? (stable ? { key: plainKey, result: stable } : null) : { key: plainKey, result };
  const compare = state.compare && !result.source
    ? tryCompute(engine, { ...without(config, ['window', 'prefix', 'customMask']), mask: compareMaskOf(state.mask) })
    : null;
  // Made when first read: only the mask step reads it.
  const unmaskedRun = result.source ? () => null
    : state.mask === 'none' ? () => result
    : compare && compareMaskOf(state.mask) === 'none' ? () => compare
    : lazyRun(engine, unmaskedConfig(config));
  return {
    result,
    get dots() {
      return dotsRun();
    },
    get unmasked() {
      return unmaskedRun();
    },
    dotsRun,
    stable,
    compare,
    dotsKey: key,
    plain,
  };
}

// The config without its mask (padding stays: it is not the causal mask one forgets).
const unmaskedConfig = (config) => ({ ...without(config, ['window', 'prefix', 'customMask']), mask: 'none' });

/** A copy of `ctx` with `fields` changed that keeps its getters (the lazy `dots`) unread. */
export function withFields(ctx, fields) {
  return Object.assign(Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)), fields);
}

/**
 * The same as computeCompanions with an asynchronous compute (the page's Web Worker, for large
 * inputs: a companion run costs as much as the main one and must not block the page). A
 * cancelled run (newer input) rejects; any other failure leaves that companion out.
 */
export async function computeCompanionsAsync(compute, config, result, state) {
  const attempt = async (companionConfig) => {
    try {
      return await compute(companionConfig);
    } catch (error) {
      if (error?.cancelled) throw error;
      console.warn('companion run failed', error);
      return null;
    }
  };
  const dots = config.scale === false ? result : await attempt({ ...config, scale: false });
  const stable = state.naive ? await attempt({ ...config, naiveSoftmax: false }) : null;
  const compare = state.compare && !result.source
    ? await attempt({ ...without(config, ['window', 'prefix', 'customMask']), mask: compareMaskOf(state.mask) })
    : null;
  // (an extra run in the worker is as long as the main one: made for the mask step only)
  const unmasked = result.source ? null
    : state.mask === 'none' ? result
    : compare && compareMaskOf(state.mask) === 'none' ? compare
    : state.step === 'mask' ? await attempt(unmaskedConfig(config))
    : null;
  return { result, dots, stable, compare, unmasked };
}
