// The Train panel's model as one link field (`train`, state/schema.js): the task, the base (a fresh
// model from the seed, or the shipped checkpoint), the model's config and the steps trained past
// the base. Training is deterministic from the seed (integer-only initialisation, batches drawn
// from the seed), so a receiver who trains as many steps has the sender's model; every config
// field is written, so that a link never depends on a task's defaults staying what they are. No DOM.
//   text: items joined by '_': the task first, then 'ckpt' (the checkpoint as base) or the config
//         (L layers, H heads, C d_model, mlp0/1, ln0/1, pos<kind>, lr<rate>, seed<n>), then s<steps>
//   e.g. 'induction_L2_H2_C32_mlp0_ln0_poslearned_lr0.01_seed1_s1500', 'sort_ckpt_s0'

export const TASKS = Object.freeze(['previous', 'induction', 'reverse', 'sort', 'text']);
export const POSITION_KINDS = Object.freeze(['none', 'sinusoidal', 'learned']);
// The panel's ranges (the core checks again: heads must divide d_model, …).
export const RANGES = Object.freeze({
  layers: [1, 4],
  heads: [1, 8],
  dModel: [4, 128],
  seed: [0, 4294967295],
  steps: [0, 100000],
});
export const LEARNING_RATE = Object.freeze([1e-5, 1]);

const whole = (text, [low, high]) => (/^\d{1,10}$/.test(text) && Number(text) >= low && Number(text) <= high ? Number(text) : null);

/** { task, checkpoint, config: { layers, heads, dModel, mlp, layerNorm, positions, learningRate, seed } | null, steps } → text */
export function formatTrainText({ task, checkpoint = false, config = null, steps = 0 }) {
  const items = [task];
  if (checkpoint) items.push('ckpt');
  else {
    const c = config;
    items.push(`L${c.layers}`, `H${c.heads}`, `C${c.dModel}`, `mlp${c.mlp ? 1 : 0}`, `ln${c.layerNorm ? 1 : 0}`, `pos${c.positions}`, `lr${c.learningRate}`, `seed${c.seed}`);
  }
  items.push(`s${steps}`);
  return items.join('_');
}

/** The inverse of formatTrainText, or null when the text is not one ('' is no model: null too). */
export function parseTrainText(text) {
  const items = String(text ?? '').split('_');
  const task = items.shift();
  if (!TASKS.includes(task)) return null;
  const stepsItem = items.pop();
  const steps = /^s/.test(stepsItem ?? '') ? whole(stepsItem.slice(1), RANGES.steps) : null;
  if (steps === null) return null;
  if (items.length === 1 && items[0] === 'ckpt') return { task, checkpoint: true, config: null, steps };
  const config = {};
  const readers = [
    ['L', (v) => (config.layers = whole(v, RANGES.layers))],
    ['H', (v) => (config.heads = whole(v, RANGES.heads))],
    ['C', (v) => (config.dModel = whole(v, RANGES.dModel))],
    ['mlp', (v) => (config.mlp = v === '1' ? true : v === '0' ? false : null)],
    ['ln', (v) => (config.layerNorm = v === '1' ? true : v === '0' ? false : null)],
    ['pos', (v) => (config.positions = POSITION_KINDS.includes(v) ? v : null)],
    ['lr', (v) => {
      const rate = /^\d*\.?\d+(e-?\d+)?$/.test(v) ? Number(v) : NaN;
      config.learningRate = rate >= LEARNING_RATE[0] && rate <= LEARNING_RATE[1] ? rate : null;
    }],
    ['seed', (v) => (config.seed = whole(v, RANGES.seed))],
  ];
  if (items.length !== readers.length) return null;
  for (let i = 0; i < readers.length; i += 1) {
    const [prefix, read] = readers[i];
    if (!items[i].startsWith(prefix)) return null;
    read(items[i].slice(prefix.length));
  }
  if (Object.values(config).some((value) => value === null)) return null;
  return { task, checkpoint: false, config, steps };
}
