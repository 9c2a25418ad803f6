// The Train panel's model as one link field (`train`, state/schema.js): the task, the base (a fresh
// model from the seed, or the shipped checkpoint), the model's config and the steps trained past
// the base. Training is deterministic from the seed (integer-only initialisation, batches drawn
// from the seed), so a receiver who trains as many steps has the sender's model; every config
// field is written, so that a link never depends on a task's defaults staying what they are. No DOM.
//   text: items joined by '_': the task first, then 'ckpt' (the checkpoint as base) or the config
//         (L layers, H heads, C d_model, mlp0/1, ln0/1, pos<kind>, lr<rate>, seed<n>), then s<steps>
//   e.g. 'induction_L2_H2_C32_mlp0_ln0_poslearned_lr0.01_seed1_s1500', 'sort_ckpt_s0'

export const TASKS = Object.freeze(['previous', 'induction', 'reverse', 'sort', 'text']);
// The tasks with a shipped checkpoint (web/src/presets/checkpoints/, tools/train-checkpoints.mjs).
export const CHECKPOINT_TASKS = Object.freeze(['previous', 'induction', 'sort']);
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
// What the items after the task look like, for messages.
const CONFIG_FORM = 'L<layers>_H<heads>_C<d_model>_mlp<0|1>_ln<0|1>_pos<none|sinusoidal|learned>_lr<rate>_seed<n>';

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

/**
 * The inverse of formatTrainText: { ok: true, value } or { ok: false, problem: { key, params } },
 * the problem naming the item that is wrong and what was expected (keys 'share.ignored.train.*').
 */
export function readTrainText(text) {
  const problem = (kind, params) => ({ ok: false, problem: { key: `share.ignored.train.${kind}`, params } });
  const items = String(text ?? '').split('_');
  const task = items.shift();
  if (!TASKS.includes(task)) return problem('task', { value: task, tasks: TASKS.join(', ') });
  const stepsItem = items.pop() ?? '';
  const steps = /^s/.test(stepsItem) ? whole(stepsItem.slice(1), RANGES.steps) : null;
  if (steps === null) return problem('steps', { value: stepsItem, max: RANGES.steps[1] });
  if (items.length === 1 && items[0] === 'ckpt') {
    if (!CHECKPOINT_TASKS.includes(task)) return problem('checkpoint', { task, tasks: CHECKPOINT_TASKS.join(', ') });
    return { ok: true, value: { task, checkpoint: true, config: null, steps } };
  }
  const config = {};
  const flag = (v) => (v === '1' ? true : v === '0' ? false : null);
  const readers = [
    ['L', 'layers', (v) => whole(v, RANGES.layers), RANGES.layers],
    ['H', 'heads', (v) => whole(v, RANGES.heads), RANGES.heads],
    ['C', 'dModel', (v) => whole(v, RANGES.dModel), RANGES.dModel],
    ['mlp', 'mlp', flag, [0, 1]],
    ['ln', 'layerNorm', flag, [0, 1]],
    ['pos', 'positions', (v) => (POSITION_KINDS.includes(v) ? v : null), null],
    ['lr', 'learningRate', (v) => {
      const rate = /^\d*\.?\d+(e-?\d+)?$/.test(v) ? Number(v) : NaN;
      return rate >= LEARNING_RATE[0] && rate <= LEARNING_RATE[1] ? rate : null;
    }, LEARNING_RATE],
    ['seed', 'seed', (v) => whole(v, RANGES.seed), RANGES.seed],
  ];
  if (items.length !== readers.length || readers.some(([prefix], i) => !items[i].startsWith(prefix))) {
    return problem('form', { value: items.join('_'), form: CONFIG_FORM });
  }
  for (let i = 0; i < readers.length; i += 1) {
    const [prefix, key, read, range] = readers[i];
    const value = read(items[i].slice(prefix.length));
    if (value === null) {
      const expected = range ? `${range[0]} … ${range[1]}` : POSITION_KINDS.join(', ');
      return problem('item', { item: items[i], name: prefix, expected });
    }
    config[key] = value;
  }
  return { ok: true, value: { task, checkpoint: false, config, steps } };
}

/** The model of a train text, or null when it is not one ('' is no model: null too). */
export function parseTrainText(text) {
  const read = readTrainText(text);
  return read.ok ? read.value : null;
}
