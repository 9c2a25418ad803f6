// The lesson's DOM-free parts against the real engine: explanations print the engine's numbers
// (the worked example's s₂₁, a₂₁, o₂), the lesson's fields are checked and fitted, every formula
// typesets, and every text the lesson looks up by a computed key exists in both languages.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import katex from 'katex';

import { createAttention } from '../../web/src/engine/attention.js';
import { createTranslator, DICTIONARIES, subscript, superscript } from '../../web/src/i18n/index.js';
import { cellLook, writeLook } from '../../web/src/render/cell-look.js';
import { barShare, writePlainLook } from '../../web/src/render/plain-look.js';
import { companionsOf } from '../../web/src/lesson/companions.js';
import { lessonContext, resultsOf, runnerOf } from './page-runs.mjs';
import { explainCell } from '../../web/src/lesson/explain.js';
import { formulaVariants, stepFormulas } from '../../web/src/lesson/formulas.js';
import {
  formatValue as encodeLessonValue,
  formatCellRef,
  LESSON_DEFAULTS,
  LESSON_FIELDS,
  MASK_KINDS,
  parseCellRef,
  valueOfText as decodeLessonValue,
} from '../../web/src/state/schema.js';
import { fmt, indices, sum, vector } from '../../web/src/render/numbers.js';
import { drawOptions, figureSpec, marksFor, matrixOf, shownHeads, stepCells, stepPlan } from '../../web/src/lesson/step-plan.js';
import { neighbourStep, STEPS, STEP_IDS } from '../../web/src/lesson/steps.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { stateToDraft } from '../../web/src/state/draft.js';
import { lessonEngineConfig, toEngineConfig, validateDraft, validateLesson } from '../../web/src/state/validate.js';
import { colorScale } from '../../web/src/render/colors.js';

const limits = { maxTokens: 1024, maxDModel: 1024 };
const html = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
const t = createTranslator('en');
let engine;
before(async () => {
  engine = await createAttention();
});

// The explanation context of a preset (with changes to its state).
function contextOf(presetId, changes = {}) {
  const checked = validateDraft({ ...stateToDraft(PRESETS[presetId].state), ...changes }, limits);
  assert.equal(checked.ok, true, JSON.stringify(checked.error));
  return lessonContext(engine, checked.state, t);
}

const explain = (ctx, text) => explainCell(parseCellRef(text), ctx);

test('the worked example: s₂₁, a₂₁ and o₂ with their terms', () => {
  const ctx = contextOf('journey');
  const s = explain(ctx, 'scores.1.2.1');
  assert.equal(s.symbol, 's₂₁');
  assert.equal(s.lines[0], 's₂₁ = (0.55·0.43 + 0.87·0.15 + 0.66·0.89)/√3 ≈ 0.551');
  assert.match(s.lines[1], /^s₂₁ = q₂·k₁\/√3 = 0\.95\d\/√3 ≈ 0\.551$/);
  assert.deepEqual(
    s.deps.map((d) => d.name),
    ['q', 'k', 'dots'],
  );

  const a = explain(ctx, 'weights.1.2.1');
  assert.equal(a.lines[0], 'a₂₁ = e^(0.551 − 0.863) / (e^(0.551 − 0.863) + e^0) ≈ 0.423');
  assert.equal(a.lines[1], 'a₂₁ = 0.732 / 1.732 ≈ 0.423');
  assert.ok(a.notes.some((n) => /4 masked key/.test(n)));

  const o = explain(ctx, 'context.1.2.1');
  assert.equal(o.lines[0], 'o₂₁ = 0.423·0.43 + 0.577·0.55 ≈ 0.499');
  assert.equal(o.lines[1], 'o₂ = 0.423·v₁ + 0.577·v₂ ≈ (0.499, 0.566, 0.757)');
});

test('every cell of every matrix has an explanation naming real numbers', () => {
  for (const presetId of ['journey', 'default', 'padding']) {
    const ctx = contextOf(presetId, { compare: true });
    const { result } = ctx;
    const refs = [];
    for (const name of ['x', 'wq', 'wk', 'wv', 'wo', 'q', 'k', 'v', 'mask', 'concat', 'output']) refs.push({ name, head: null, row: 0, col: 0 });
    for (let h = 0; h < result.heads; h += 1) {
      for (const name of ['q', 'k', 'v', 'dots', 'scores', 'masked', 'exps', 'weights', 'context', 'cmp-weights', 'cmp-context']) {
        refs.push({ name, head: h, row: result.T - 1, col: 0 });
      }
    }
    for (const ref of refs) {
      const explained = explainCell(ref, ctx);
      assert.ok(explained, `${presetId} ${formatCellRef(ref)}`);
      assert.ok(explained.lines.length > 0 && explained.lines.every((l) => !/undefined|\{\w+\}/.test(l)), formatCellRef(ref));
      assert.ok(
        explained.notes.every((n) => typeof n === 'string' && !/\{\w+\}/.test(n)),
        formatCellRef(ref),
      );
      assert.doesNotThrow(() => katex.renderToString(explained.tex, { throwOnError: true }), explained.tex);
    }
  }
});

test('cross-attention: keys are the source’s tokens in every explanation', () => {
  const ctx = contextOf('journey', { cross: true, source: 'I love tea .', compare: true });
  assert.equal(ctx.result.Tk, 4);
  assert.equal(ctx.compare, null); // the comparison rests: the cross-attention controls set the mask
  const s = explain(ctx, 'scores.1.2.4');
  assert.match(s.heading, /“journey” for “\.”/);
  const k = explain(ctx, 'k.1.3.1');
  assert.match(k.heading, /“tea”/);
  assert.match(explain(ctx, 'k.3.1').lines[0], /^k₃₁ = x₃·W_K\[:, 1\] = /);
  for (const name of ['dots', 'scores', 'masked', 'exps', 'weights']) {
    const explained = explain(ctx, `${name}.1.6.4`);
    assert.ok(explained.lines.every((l) => !/undefined/.test(l)) && !/undefined/.test(explained.heading), name);
  }
});

test('a padding row sees no key: its weights are 0 by definition, and the page says so', () => {
  const ctx = contextOf('padding');
  const a = explain(ctx, 'weights.1.1.1');
  assert.equal(a.lines[0], 'a₁₁ = 0');
  assert.ok(a.notes.some((n) => /0\/0 = NaN/.test(n)));
  const m = explain(ctx, 'mask.3.1');
  assert.match(m.notes[0], /“\[PAD\]” is padding/);
  // A finite fill gives no such row: its weight is spread over the masked keys.
  const finite = contextOf('padding', { maskFill: '-1e9' });
  assert.ok(finite.result.perHead[0].weights.data[0] > 0.19);
});

test('long sums are shortened, the total stays the engine’s', () => {
  const terms = Array.from({ length: 9 }, (_, k) => `t${k + 1}`);
  assert.equal(sum(terms), 't1 + t2 + t3 + … + t9');
  assert.equal(sum(terms.slice(0, 6)), 't1 + t2 + t3 + t4 + t5 + t6');
  const ctx = contextOf('default', { dModel: '16', heads: '1' });
  const q = explain(ctx, 'q.2.3');
  assert.match(q.lines[0], / \+ … \+ .* ≈ −?\d\.\d{3} \(16 terms\)$/);
  assert.ok(q.lines[0].includes(fmt(ctx.result.q.data[1 * 16 + 2])));
});

test('naive softmax overflows where e^z passes float32, the stable one does not', () => {
  const journey = PRESETS.journey.state;
  const x10 = journey.embeddings.map((row) => row.map((v) => v * 10));
  const ctx = contextOf('journey', { embeddingsText: x10.map((r) => r.join(' ')).join('\n'), scale: false, naive: true });
  const head = ctx.result.perHead[0];
  assert.equal(head.exps.data[6], Infinity); // e^95.4: row 2, key 1
  assert.ok(Number.isNaN(head.weights.data[6]));
  assert.ok(ctx.stable.perHead[0].weights.data.every(Number.isFinite));
  const a = explain(ctx, 'weights.1.2.1');
  assert.match(a.lines[1], /= ∞ \/ ∞ = NaN$/);
  // With the scaling on, the largest score is 86.3 < 88.72: no overflow yet.
  const scaled = contextOf('journey', { embeddingsText: x10.map((r) => r.join(' ')).join('\n'), naive: true });
  assert.ok(scaled.result.perHead[0].exps.data.every(Number.isFinite));
});

test('fill 0 leaves the future visible; the order of mask and scaling shows with −1e9', () => {
  const zero = contextOf('journey', { maskFill: '0' });
  assert.ok(zero.result.perHead[0].weights.data[1] > 0.1);
  assert.ok(explain(zero, 'mask.1.2').notes.some((n) => /fill value is 0/.test(n)));
  const after = contextOf('journey', { maskFill: '-1e9' });
  const before = contextOf('journey', { maskFill: '-1e9', maskBeforeScale: true });
  assert.equal(fmt(after.result.perHead[0].masked.data[1]), '−1.00e9');
  assert.equal(fmt(before.result.perHead[0].masked.data[1]), '−5.77e8');
  assert.match(explain(before, 'masked.1.1.2').lines[0], /^\(q₁·k₂ \+ m₁₂\)\/√3 = \(0\.\d+ \+ \(−1e9\)\)\/√3 ≈ −5\.77e8$/);
});

test('companion runs are taken again only where the engine would compute the same numbers', () => {
  const runner = runnerOf(engine);
  const state = validateDraft(stateToDraft(PRESETS.journey.state), limits).state;
  const base = toEngineConfig(state);
  // The companion runs a state costs beyond its main run: its results' unscaled run, read as the
  // QKᵀ step reads it.
  let mains = 0;
  const companionRuns = () => runner.counts().compute - mains;
  const call = (changes) => {
    const results = resultsOf(runner, { ...state, ...changes });
    mains = runner.counts().compute;
    return companionsOf(results);
  };
  const scaled = call({});
  const unscaledScores = [...scaled.dots.perHead[0].scores.data];
  assert.equal(companionRuns(), 1, 'the unscaled run, made when read');
  // ÷√d_k off: the result is the unscaled run; ÷√d_k on again: it serves as dots, no run.
  const off = call({ scale: false });
  assert.deepEqual([...off.dots.perHead[0].scores.data], unscaledScores);
  const on = call({ scale: true });
  assert.deepEqual([...on.dots.perHead[0].scores.data], unscaledScores);
  assert.equal(runner.counts().compute, mains, 'no run for dots after scaling is switched back on');
  // τ changes nothing before the scores; an edit of X does, and the unscaled run is made again.
  call({ temperature: 2 }).dots;
  assert.equal(runner.counts().compute, mains);
  const x = base.embeddings.map((row) => row.map((v) => v + 0.5));
  const edited = call({ embeddings: x });
  const before = runner.counts().compute;
  assert.notDeepEqual([...edited.dots.perHead[0].scores.data], unscaledScores);
  assert.equal(runner.counts().compute, before + 1);
  assert.deepEqual([...edited.dots.perHead[0].scores.data], [...engine.compute({ ...base, embeddings: x, scale: false }).perHead[0].scores.data]);
});

test('the run without the mask (the mask step’s future) is made when read, and reuses what already holds it', () => {
  const runner = runnerOf(engine);
  const state = validateDraft(stateToDraft(PRESETS.journey.state), limits).state;
  const base = toEngineConfig(state);
  const made = companionsOf(resultsOf(runner, state));
  const main = runner.counts().compute;
  assert.equal(main, 1, 'nothing until the mask step reads it');
  const unmasked = made.unmasked;
  assert.equal(runner.counts().compute, 2);
  assert.deepEqual([...unmasked.perHead[0].laterWeight], [...engine.compute({ ...base, mask: 'none' }).perHead[0].laterWeight]);
  made.unmasked;
  assert.equal(runner.counts().compute, 2, 'made once');
  // The comparison with mask none is that run; with mask none already, the result itself.
  const compared = companionsOf(resultsOf(runner, { ...state, compare: true }));
  assert.equal(compared.unmasked, compared.compare);
  const none = companionsOf(resultsOf(runner, { ...state, mask: 'none' }));
  assert.equal(none.unmasked, none.result);
  // The axis of the softmax acts after the scores: the unscaled run is taken again.
  companionsOf(resultsOf(runner, state)).dots;
  const before = runner.counts().compute;
  companionsOf(resultsOf(runner, { ...state, softmaxOver: 'queries' })).dots;
  assert.equal(runner.counts().compute, before + 1, 'the main run only');
});

test('the lesson’s fields: defaults, fitting, errors, and text from the address', () => {
  const ctx = { T: 3, dModel: 4, heads: 2 };
  const plain = validateLesson({}, ctx);
  assert.equal(plain.ok, true);
  assert.deepEqual(plain.lesson, { ...LESSON_DEFAULTS });
  const fitted = validateLesson({ head: 5, row: 9, cell: 'scores.3.1.1', padding: [true], customMask: [[true]], mask: 'custom' }, ctx).lesson;
  assert.equal(fitted.head, 2);
  assert.equal(fitted.row, 3);
  assert.equal(fitted.cell, ''); // head 3 does not exist
  assert.deepEqual(fitted.padding, [true, false, false]);
  assert.deepEqual(fitted.customMask, [
    [true, false, false],
    [false, false, false],
    [false, false, false],
  ]);
  assert.equal(validateLesson({ padding: [false, false] }, ctx).lesson.padding, null);
  assert.equal(validateLesson({ temperature: 0 }, ctx).error.key, 'lesson.error.temperature');
  assert.equal(validateLesson({ window: 0 }, ctx).error.key, 'lesson.error.window');
  assert.equal(validateLesson({ wq: [[1]] }, ctx).error.key, 'lesson.error.weights');
  assert.equal(validateLesson({ mask: 'sideways' }, ctx).error.key, 'lesson.error.value');
  // Edited weights of another d_model are dropped, not refused.
  const w = [[1]];
  assert.equal(validateLesson({ wq: w, wk: w, wv: w, wo: w }, ctx).lesson.wq, null);
  // Text, as the address holds it.
  const fromText = validateLesson({ step: 'mask', temperature: '0.5', naive: '1', padding: '010', customMask: '011.001.000', head: '2' }, ctx).lesson;
  assert.equal(fromText.temperature, 0.5);
  assert.equal(fromText.naive, true);
  assert.deepEqual(fromText.padding, [false, true, false]);
  assert.equal(fromText.head, 2);
  assert.equal(validateLesson({ temperature: 'abc' }, ctx).error.key, 'lesson.error.value');
});

test('the lesson’s fields round-trip through their text form', () => {
  const values = {
    step: 'softmax',
    head: 2,
    row: 3,
    cell: 'weights.1.2.1',
    mask: 'window',
    window: 2,
    prefix: 1,
    padding: [false, true],
    customMask: [
      [false, true],
      [true, false],
    ],
    maskFill: '-1e9',
    maskBeforeScale: true,
    temperature: 0.25,
    naive: true,
    compare: true,
    wq: [
      [1, -0.5],
      [0, 2],
    ],
    wk: null,
    wv: null,
    wo: null,
    softmaxOver: 'queries',
    exercise: '{"questions":[{"kind":"number","cell":"weights.1.2.1"}]}',
  };
  for (const field of LESSON_FIELDS) {
    const text = encodeLessonValue(field, values[field.key]);
    assert.deepEqual(decodeLessonValue(field, text), values[field.key], field.key);
  }
  assert.deepEqual(MASK_KINDS, ['causal', 'none', 'window', 'prefix', 'custom']);
});

test('engine options only for what differs, so a plain state keeps its old config', () => {
  assert.deepEqual(lessonEngineConfig(LESSON_DEFAULTS), { mask: 'causal' });
  assert.deepEqual(
    lessonEngineConfig({
      ...LESSON_DEFAULTS,
      mask: 'window',
      window: 2,
      padding: [true, false],
      maskFill: '0',
      maskBeforeScale: true,
      temperature: 2,
      naive: true,
    }),
    { mask: 'window', window: 2, padding: [true, false], maskFill: 0, maskBeforeScale: true, temperature: 2, naiveSoftmax: true },
  );
});

test('cell references are 1-based text and back', () => {
  assert.equal(formatCellRef({ name: 'scores', head: 0, row: 1, col: 0 }), 'scores.1.2.1');
  assert.deepEqual(parseCellRef('x.2.1'), { name: 'x', head: null, row: 1, col: 0 });
  assert.equal(parseCellRef('nope.1.1'), null);
  assert.equal(parseCellRef('scores.0.1.1'), null);
  assert.equal(indices(1, 0), '₂₁');
  assert.equal(indices(11, 2), '₁₂,₃');
  assert.equal(vector([0.4991, 0.5659, 0.7571]), '(0.499, 0.566, 0.757)');
});

test('the steps follow the course’s pipeline and every formula typesets', () => {
  assert.deepEqual(STEP_IDS, ['all', 'x', 'qkv', 'dots', 'scale', 'mask', 'softmax', 'context', 'concat', 'output']);
  assert.equal(neighbourStep('all', 1), 'x');
  assert.equal(neighbourStep('output', 1), 'output');
  assert.equal(neighbourStep('mask', -1), 'scale');
  for (const lang of ['en', 'zh-CN']) {
    const tr = createTranslator(lang);
    for (const changes of [{}, { scale: false }, { maskBeforeScale: true, maskFill: '-1e9' }, { temperature: 0.5, naive: true }]) {
      const ctx = contextOf('default', changes);
      for (const step of STEPS) {
        for (const tex of stepFormulas(step.id, ctx.state, ctx.result, tr)) {
          assert.doesNotThrow(() => katex.renderToString(tex, { throwOnError: true, strict: 'ignore' }), tex);
        }
      }
    }
  }
});

// A line a control switches is typeset once in all its forms (a stack): the division on or off,
// the mask before or after it, as the fill and τ's rules.
test('the lines the switches change have every form among their variants', () => {
  const tr = createTranslator('en');
  for (const [id, a, b] of [
    ['scale', { scale: true }, { scale: false }],
    ['mask', { maskBeforeScale: false }, { maskBeforeScale: true }],
  ]) {
    const [texA, texB] = [a, b].map((changes) => {
      const ctx = contextOf('default', changes);
      return stepFormulas(id, ctx.state, ctx.result, tr)[0];
    });
    assert.notEqual(texA, texB);
    const { result } = contextOf('default', {});
    for (const tex of [texA, texB]) assert.deepEqual(new Set(formulaVariants(id, tex, tr, result.dK)), new Set([texA, texB]), `${id}: ${tex}`);
  }
});

// The canvases keep one look object per entry and rewrite it on every change (writeLook).
test('a look written into a kept object is the look made anew, whatever the object held', () => {
  const signed = colorScale('signed', Float32Array.from([-2, 1]));
  const weights = colorScale('weights', Float32Array.from([0.2]));
  const cases = [
    ['signed', -1.5, false, signed],
    ['signed', 0.25, true, signed],
    ['weights', 0, true, weights],
    ['weights', 0.7, false, weights],
    ['weights', 0.7, true, weights],
    ['signed', NaN, false, signed],
    ['signed', Infinity, false, signed],
    ['signed', -Infinity, true, signed],
    ['mask', 1, true, null],
    ['mask', 0, false, null],
  ];
  const kept = { text: 'x', cls: 'y', level: 7, hid: true };
  for (const fill of ['−∞', '−1.00e9', '0']) {
    for (const [kind, value, masked, scale] of [...cases, ...cases.slice().reverse()]) {
      assert.equal(writeLook(kept, kind, value, masked, scale, fill), kept);
      assert.deepEqual({ ...kept }, cellLook(kind, value, masked, scale, fill), `${kind} ${value} ${masked} ${fill}`);
    }
  }
  const level = signed.levelOf(0.25);
  assert.deepEqual(cellLook('signed', 0.25, true, signed, '−∞'), { text: '0.250', cls: `cs-${level} hid`, level, hid: true });
  assert.deepEqual(cellLook('weights', 0, true, weights, '−∞'), { text: '0', cls: 'masked-zero', level: -1, hid: false });
  assert.deepEqual(cellLook('mask', 1, true, null, '0'), { text: '0', cls: 'mask-zero', level: -1, hid: false });
});

// The softmax lab's rows (kind 'plain'): numbers as printed everywhere, overflow marked, masked
// keys faint, a weight's bar within its cell.
test('a plain entry prints its number, marks ∞ and NaN, greys a masked key; its bar stays within 0…1', () => {
  const look = (value, masked = false) => ({ ...writePlainLook({ text: 'x', cls: 'y', level: 3, hid: true }, value, masked) });
  assert.deepEqual(look(0.4231), { text: '0.423', cls: 'plain', level: -1, hid: false });
  assert.deepEqual(look(3.06e37), { text: '3.06e37', cls: 'plain', level: -1, hid: false });
  assert.deepEqual(look(-Infinity, true), { text: '−∞', cls: 'faint', level: -1, hid: false });
  assert.deepEqual(look(Infinity), { text: '∞', cls: 'inf', level: -1, hid: false });
  assert.deepEqual(look(NaN, true), { text: 'NaN', cls: 'nan', level: -1, hid: false });
  assert.deepEqual([0.577, 1.5, -0.1, NaN, Infinity].map(barShare), [0.577, 1, 0, 0, 0]);
});

test('every text looked up by a computed key exists in both languages', () => {
  const keys = [];
  for (const step of STEPS) keys.push(`step.${step.id}.title`, `step.${step.id}.caption`, `step.${step.id}.short`);
  for (const kind of MASK_KINDS) keys.push(`mask.kind.${kind}`, `mask.desc.${kind}`);
  for (const fill of ['-inf', '-1e9', '0']) keys.push(`mask.fill.${fill}`);
  keys.push('mask.order.after', 'mask.order.before');
  for (const name of ['q', 'k', 'v']) keys.push(`explain.${name}.heading`);
  for (const name of [
    'x',
    'wq',
    'wk',
    'wv',
    'wo',
    'q',
    'k',
    'v',
    'dots',
    'scores',
    'mask',
    'masked',
    'exps',
    'weights',
    'context',
    'concat',
    'output',
  ]) {
    keys.push(`name.${name}`);
  }
  for (const name of ['x', 'q', 'k', 'v', 'dots', 'scores', 'mask', 'masked', 'maskedBefore', 'exps', 'weights', 'context', 'concat', 'output']) {
    keys.push(`sym.${name}`);
  }
  for (const [id, preset] of Object.entries(PRESETS)) {
    keys.push(preset.labelKey);
    if (preset.noteKey) keys.push(preset.noteKey);
    assert.ok(html.includes(`data-preset="${id}"`), `index.html has no link to preset ${id}`);
  }
  for (const lang of ['en', 'zh-CN']) for (const key of keys) assert.ok(Object.hasOwn(DICTIONARIES[lang], key), `${lang}: ${key}`);
});

// ---- what each step shows (step-plan.js), without the DOM -----------------------------------------

const planNames = (plan) =>
  plan.groups.map((g) => `${g.head ?? 'model'}: ${g.figures.map(([name, , role]) => (role === 'input' ? `(${name})` : name)).join(' ')}`);

test('a step shows its inputs first when alone, and only what it makes among all steps', () => {
  const ctx = contextOf('journey');
  const step = (id) => STEPS.find((s) => s.id === id);
  assert.deepEqual(planNames(stepPlan(step('softmax'), true, ctx)), ['0: (masked) exps weights']);
  assert.deepEqual(planNames(stepPlan(step('softmax'), false, ctx)), ['0: exps weights']);
  assert.deepEqual(planNames(stepPlan(step('qkv'), true, ctx)), ['model: (x)', 'model: wq wk wv', 'model: q k v']);
  assert.deepEqual(planNames(stepPlan(step('output'), false, ctx)), ['model: wo output']);
  // Compared with another mask, the step's result and the compared one come first, side by side.
  const compared = contextOf('journey', { compare: true });
  assert.deepEqual(planNames(stepPlan(step('softmax'), false, compared)), ['0: weights cmp-weights exps']);
  // Its cells are its figures' entries: T = 6, d_model = 3, one head.
  assert.equal(stepCells(step('softmax'), false, ctx), 2 * 6 * 6);
  assert.equal(stepCells(step('qkv'), true, ctx, true), 4 * 6 * 3); // (without the W matrices)
});

test('with few heads every head is shown, with many one at a time behind tabs', () => {
  const few = contextOf('journey', { dModel: '6', heads: '3', embeddingsMode: 'token' });
  const plan = stepPlan(
    STEPS.find((s) => s.id === 'scale'),
    false,
    few,
  );
  assert.deepEqual(planNames(plan), ['0: scores', '1: scores', '2: scores']);
  assert.equal(plan.tabs, false);
  assert.equal(shownHeads(few).all, true);
});

test('a figure’s spec: symbol, labels, tools and its key', () => {
  const ctx = contextOf('journey');
  const spec = (name, head, role) => figureSpec(name, head, role, ctx, { tokensKey: 'k', tokensOnCanvas: false });
  const weights = spec('weights', 0, 'output');
  assert.equal(weights.spec.symbol, t('sym.weights', { h: superscript(1), hs: subscript(1) }));
  assert.equal(weights.spec.kind, 'weights');
  assert.equal(weights.spec.sumColumn, true);
  assert.deepEqual(weights.spec.rowLabels, ctx.result.tokens);
  assert.equal(weights.spec.surface, 'table');
  const x = spec('x', null, 'output');
  assert.deepEqual(
    x.spec.tools.map((tool) => tool.id),
    ['random', 'identity', 'x10', 'reset'],
  );
  const wq = spec('wq', null, 'input');
  assert.deepEqual(wq.spec.rowLabels, ['1', '2', '3']);
  assert.equal(wq.spec.editable, false);
  // An input names the step that made it.
  assert.equal(spec('masked', 0, 'input').spec.tag, t('lesson.fromStep', { n: 5 }));
  // Another role is another figure (another key); the same one is the same.
  assert.notEqual(spec('x', null, 'input').spec.key, x.spec.key);
  assert.equal(spec('x', null, 'output').spec.key, x.spec.key);
  assert.equal(matrixOf('weights', 0, ctx), ctx.result.perHead[0].weights);
});

test('what a figure draws besides its numbers: the mask it greys, M’s fill, the Σ column', () => {
  const ctx = contextOf('journey', { mask: 'causal', maskFill: '0' });
  const spec = (name, head) => figureSpec(name, head, 'output', ctx, { tokensKey: 'k', tokensOnCanvas: false }).spec;
  const weights = drawOptions(spec('weights', 0), 6, ctx);
  assert.equal(weights.mask, ctx.result.mask);
  assert.deepEqual(weights.rowSums, ['1', '1', '1', '1', '1', '1']);
  assert.deepEqual(drawOptions(spec('mask', null), 6, ctx), { fillText: '0' });
  assert.deepEqual(drawOptions(spec('q', null), 6, ctx), {});
});

test('the explained entry and what it depends on are marked in each figure that shows them', () => {
  const ref = { name: 'weights', head: 0, row: 1, col: 0 };
  const deps = [
    { name: 'masked', head: 0, row: 1 },
    { name: 'weights', head: 0, row: 1, col: 1 },
    { name: 'v', head: null, col: 2 },
  ];
  assert.deepEqual(marksFor({ name: 'weights', head: 0 }, ref, deps), { self: [1, 0], cells: [[1, 1]], rows: [], cols: [] });
  assert.deepEqual(marksFor({ name: 'masked', head: 0 }, ref, deps), { self: null, cells: [], rows: [1], cols: [] });
  assert.deepEqual(marksFor({ name: 'v', head: null }, ref, deps), { self: null, cells: [], rows: [], cols: [2] });
  assert.equal(marksFor({ name: 'weights', head: 1 }, ref, deps), null); // another head's figure
});

// The page reuses engine runs between changes (compute/runner.js): the unscaled run when only τ,
// naive softmax or the mask changed, and the previous run without naive softmax as the stable run.
// What it reuses must be what a fresh run computes, bit for bit.
test('reused runs hold the numbers a fresh run computes', () => {
  const runner = runnerOf(engine);
  const words = Array.from({ length: 20 }, (_, i) => `t${i + 1}`);
  const checked = validateDraft(
    { ...stateToDraft(PRESETS.default.state), sentence: words.join(' '), dModel: '8', heads: '2', weights: 'random', seed: '7' },
    limits,
  );
  assert.equal(checked.ok, true);
  const base = checked.state;
  const same = (a, b) => assert.deepEqual(new Uint32Array(a.buffer, a.byteOffset, a.length), new Uint32Array(b.buffer, b.byteOffset, b.length));
  const off = companionsOf(resultsOf(runner, base));
  let previous = off;
  const changes = [
    { naive: true },
    { temperature: 0.25 },
    { mask: 'window', window: 3 },
    { maskFill: '-1e9', maskBeforeScale: true },
    { padding: words.map((_, j) => j > 16) },
    { mask: 'custom', customMask: words.map((_, i) => words.map((_, j) => (i + 2 * j) % 5 === 0)) },
  ];
  for (const change of changes) {
    const state = { ...base, ...change };
    const next = companionsOf(resultsOf(runner, state));
    assert.equal(next.dots, previous.dots, `the unscaled run is reused after ${JSON.stringify(change).slice(0, 40)}`);
    const fresh = engine.compute({ ...toEngineConfig(state), scale: false });
    for (let h = 0; h < 2; h += 1) same(next.dots.perHead[h].scores.data, fresh.perHead[h].scores.data);
    if (state.naive) {
      assert.equal(next.stable, off.result, 'the run before naive softmax was switched on is its stable run');
      const stable = engine.compute(toEngineConfig(base));
      for (let h = 0; h < 2; h += 1) same(next.stable.perHead[h].weights.data, stable.perHead[h].weights.data);
    }
    previous = next;
  }
  // A change before the scores (the weights' seed) runs the engine again.
  const seeded = { ...base, seed: 8 };
  const next = companionsOf(resultsOf(runner, seeded));
  assert.notEqual(next.dots, previous.dots);

  // The unscaled run is made when first read, once; a later change after the scores hands it on.
  const counting = runnerOf(engine);
  const lazy = companionsOf(resultsOf(counting, seeded));
  const later = companionsOf(resultsOf(counting, { ...seeded, temperature: 2 }));
  const mains = counting.counts().compute;
  assert.equal(mains, 2, 'the two main runs only');
  same(later.dots.perHead[1].scores.data, next.dots.perHead[1].scores.data);
  assert.equal(lazy.dots, later.dots);
  assert.equal(counting.counts().compute, mains + 1);
});
