// The extra results some views need, computed by the same engine with one option changed:
// - `dots`: the run with scaling off, whose scores are QKᵀ itself (the "QKᵀ" step and the
//   "0.955/√3" line of an explanation), or the result itself when scaling is already off;
// - `stable`: with naive softmax on, the stable run, shown next to the naive one;
// - `compare`: the same input with the other of "none" and "causal" (bidirectional vs causal);
//   not in cross-attention, whose mask the cross-attention controls set.
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

/** { result, dots, stable, compare } for a result computed from `config` with `state`. */
export function computeCompanions(engine, config, result, state) {
  const dots = config.scale === false ? result : tryCompute(engine, { ...config, scale: false });
  const stable = state.naive ? tryCompute(engine, { ...config, naiveSoftmax: false }) : null;
  const compare = state.compare && !result.source
    ? tryCompute(engine, { ...without(config, ['window', 'prefix', 'customMask']), mask: compareMaskOf(state.mask) })
    : null;
  return { result, dots, stable, compare };
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
  return { result, dots, stable, compare };
}
