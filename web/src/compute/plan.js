// What the page asks of the engine, as a pure function of its state and of which panels are shown:
// the main run and every other run a view needs (the lesson's companions, the shuffle, the
// FlashAttention trace, the decode, RoPE's shifted runs). Each run is named by what it is for and
// keyed by what it computes, so the runner (runner.js) computes a distinct run once and keeps it
// while a state still asks for it: a change of τ asks for the same unscaled run, a head switch for
// none at all. No DOM, no engine.
import { traceTiles, worthAWorker } from '../perf/work-estimate.js';
import { reorderConfig, shuffledOrder } from '../positions/shuffle.js';
import { THRESHOLDS } from '../render/thresholds.js';
import { toEngineConfig } from '../state/validate.js';
import { configKey } from '../views/config-key.js';

/** The mask kind the lesson's comparison shows next to `mask`. */
export const compareMaskOf = (mask) => (mask === 'none' ? 'causal' : 'none');

// Positions shift by this much in RoPE's demonstration: 0…T−1 become 1000…1000 + T − 1.
export const ROPE_SHIFT = 1000;

const without = (config, keys) => {
  const copy = { ...config };
  for (const key of keys) delete copy[key];
  return copy;
};

// What acts after QKᵀ: the core computes each head's scores before the mask, the temperature and
// the softmax, so the unscaled run does not depend on these fields (and is kept across them).
const AFTER_SCORES = [
  'mask',
  'window',
  'prefix',
  'customMask',
  'padding',
  'maskFill',
  'maskBeforeScale',
  'temperature',
  'naiveSoftmax',
  'softmaxOver',
  'scale',
];
const MASK_OPTIONS = ['window', 'prefix', 'customMask'];
const DECODE_DROPS = ['window', 'prefix', 'customMask', 'padding', 'maskFill', 'maskBeforeScale'];

// Engine runs each modern panel makes; past the page's worker threshold for that much work, the
// panel waits for a click (its `asked` entry) rather than running the engine on every change.
const MODERN_RUNS = { flash: 1, kv: 1, rope: 4 };

/**
 * The shuffle experiment's runs for `config` and `seed`: typed and shuffled order, without and
 * with positions (no mask: a causal mask is itself a statement about order). → [{ id, config }]
 */
export function shuffleRuns(config, seed) {
  const order = shuffledOrder(config.tokens.length, seed);
  return ['none', 'sinusoidal'].flatMap((positional) => [
    {
      id: `shuffle.${positional}.typed`,
      config: {
        ...reorderConfig(
          config,
          config.tokens.map((_, i) => i),
        ),
        positional,
      },
    },
    { id: `shuffle.${positional}.shuffled`, config: { ...reorderConfig(config, order), positional } },
  ]);
}

/** What a click on a waiting panel agrees to compute: the panel and its config (the trace: with its tile). */
export const workKey = (panel, config, state) => `${panel}|${configKey(config)}${panel === 'flash' ? `|${state.flashRows}|${state.flashKeys}` : ''}`;

function heavyPanel(panel, config, state) {
  const T = config.tokens.length;
  const Tk = config.source?.tokens.length ?? T;
  if (worthAWorker(T, Tk, config.dModel, config.heads, MODERN_RUNS[panel])) return true;
  return panel === 'flash' && traceTiles(T, Tk, config.heads, state.flashRows, state.flashKeys) > THRESHOLDS.traceTiles;
}

/**
 * The runs of `state` (a valid state). shown: the panels on the page (a Set of 'lesson',
 * 'positions', 'flash', 'kv', 'rope'; the others only read the main run); asked: the work keys
 * of heavy panels a reader asked for; exercise: { open, dots, own } — an exercise with open
 * questions keeps the panels that cannot hide its entries waiting, `dots` asks for the unscaled
 * run, and `own` is the state its questions are about (its runs: the main one's when unchanged).
 * → { config, runs: [{ id, kind: 'compute' | 'trace' | 'decode', config, options, key, lazy, same }],
 *     waiting: { panel: reason } } where reason is 'heavy' (a click computes it) or 'exercise'.
 */
export function planRuns(state, { shown = new Set(), asked = new Set(), exercise = { open: false, dots: false, own: null }, limits = {} } = {}) {
  const config = toEngineConfig(state);
  const runs = [];
  const waiting = {};
  // `same`: the key of another run of this plan that computes the same numbers (the unscaled run
  // of a config with scaling off is that config's run): taken from it, and kept under both keys.
  const add = (id, kind, runConfig, { options = null, lazy = false, same = null } = {}) => {
    const key = `${kind}|${configKey(runConfig)}|${options ? JSON.stringify(options) : ''}`;
    runs.push({ id, kind, config: runConfig, options, key, lazy, same });
    return same ?? key;
  };
  const main = add('main', 'compute', config);
  if (exercise.own) {
    const own = toEngineConfig(exercise.own);
    add('exercise', 'compute', own);
    add('exercise.dots', 'compute', { ...without(own, AFTER_SCORES), scale: false }, { lazy: !exercise.dots });
  }

  // The lesson's companions (lesson/companions.js reads them): the unscaled scores, the stable run
  // beside a naive softmax, the other of none and causal, and the run without the mask.
  if (shown.has('lesson') || exercise.dots) {
    add('dots', 'compute', { ...without(config, AFTER_SCORES), scale: false }, { lazy: !exercise.dots, same: config.scale === false ? main : null });
  }
  if (shown.has('lesson')) {
    if (state.naive) add('stable', 'compute', without(config, ['naiveSoftmax'])); // (the same key as the run before it was switched on)
    let compare = null;
    if (state.compare && !config.source) compare = add('compare', 'compute', { ...without(config, MASK_OPTIONS), mask: compareMaskOf(state.mask) });
    if (!config.source && (state.step === 'mask' || state.step === 'all')) {
      const same = state.mask === 'none' ? main : compare && compareMaskOf(state.mask) === 'none' ? compare : null;
      add('unmasked', 'compute', { ...without(config, MASK_OPTIONS), mask: 'none' }, { lazy: true, same });
    }
  }

  // The shuffle experiment (lazy: made when its panel is drawn).
  const T = config.tokens.length;
  if (shown.has('positions') && state.shuffle > 0 && T >= 2) {
    if (exercise.open) waiting.positions = 'exercise';
    else for (const run of shuffleRuns(config, state.shuffle)) add(run.id, 'compute', run.config, { lazy: true });
  }

  // Today's attention: the trace, the decode and RoPE's shifted runs. (Lazy, as the shuffle's: made
  // when their panel is drawn, which is after the frame near the window and in idle time else.)
  // The trace takes the source too in cross-attention: its keys are the source's tokens.
  const Tk = config.source?.tokens.length ?? T;
  const modern = {
    flash: () =>
      Math.max(T, Tk) <= (limits.maxTokensTrace ?? 64) &&
      add('flash', 'trace', config, { options: { blockRows: state.flashRows, blockKeys: state.flashKeys }, lazy: true }),
    kv: () => add('decode', 'decode', { ...without(config, DECODE_DROPS), mask: 'causal' }, { lazy: true }),
    rope: () => {
      if (T > THRESHOLDS.ropeShiftTokens) return;
      for (const positional of ['rope', 'sinusoidal']) {
        const shifted = { ...config, positional };
        add(`rope.${positional}`, 'compute', shifted, { lazy: true });
        add(`rope.${positional}.shifted`, 'compute', { ...shifted, positionOffset: ROPE_SHIFT }, { lazy: true });
      }
    },
  };
  for (const [panel, plan] of Object.entries(modern)) {
    if (!shown.has(panel)) continue;
    if (exercise.open) waiting[panel] = 'exercise';
    else if (heavyPanel(panel, config, state) && !asked.has(workKey(panel, config, state))) waiting[panel] = 'heavy';
    else plan();
  }
  return { config, runs, waiting };
}
