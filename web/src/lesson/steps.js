// The pipeline as steps, in the course's order:
//   X → Q, K, V → QKᵀ → ÷√d_k → + M → softmax → · V → concat → · W_O
// Each step lists the matrices it produces — `model` ones (no head) and `head` ones (one per
// head, drawn with data-head) — and, for the one-step view, the matrices it reads (`inputs`,
// `headInputs`). The matrix names are the data-matrix values of the printed cells; per-head
// Q⁽ʰ⁾, K⁽ʰ⁾, V⁽ʰ⁾ are 'q', 'k', 'v' with a head, as on the first version of the page. No DOM.

export const STEPS = Object.freeze(
  [
    { id: 'x', model: ['x'] },
    { id: 'qkv', model: ['wq', 'wk', 'wv', 'q', 'k', 'v'], inputs: ['x'] },
    { id: 'dots', head: ['q', 'k', 'dots'] },
    { id: 'scale', head: ['scores'], headInputs: ['dots'] },
    { id: 'mask', model: ['mask'], head: ['bias', 'masked'], headInputs: ['scores'] }, // (bias: ALiBi's, when on)
    { id: 'softmax', head: ['exps', 'weights'], headInputs: ['masked'], compare: ['cmp-weights'] },
    { id: 'context', head: ['v', 'context'], headInputs: ['weights'], compare: ['cmp-context'] },
    { id: 'concat', model: ['concat'], headInputs: ['context'] },
    { id: 'output', model: ['wo', 'output'], inputs: ['concat'] },
  ].map((step) => Object.freeze({ model: [], head: [], inputs: [], headInputs: [], compare: [], ...step })),
);

/** 'all' shows every step; the others one step each. */
export const STEP_IDS = Object.freeze(['all', ...STEPS.map((s) => s.id)]);

export const stepIndex = (id) => STEPS.findIndex((s) => s.id === id);

/** The step after (delta = 1) or before (delta = −1) `id`; from 'all', the first or last step. */
export function neighbourStep(id, delta) {
  const i = stepIndex(id);
  if (i < 0) return delta > 0 ? STEPS[0].id : STEPS[STEPS.length - 1].id;
  return STEPS[Math.min(STEPS.length - 1, Math.max(0, i + delta))].id;
}

// The step that produces a matrix: key `${name}` for model matrices, `${name}/h` per head.
const PRODUCER = new Map();
for (const step of STEPS) {
  for (const name of step.model) PRODUCER.set(name, step.id);
  for (const name of [...step.head, ...step.compare]) PRODUCER.set(`${name}/h`, step.id);
}

/** The id of the step whose result `name` is (`perHead`: the per-head matrix of that name). */
export const producerOf = (name, perHead) => PRODUCER.get(perHead ? `${name}/h` : name);

/** Matrices the reader may edit in place. */
export const EDITABLE = Object.freeze(new Set(['x', 'wq', 'wk', 'wv', 'wo']));
