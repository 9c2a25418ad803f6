// Exercises without a page: the link's text read and written, which entries a question hides
// (and that nothing of them is left in the redacted result), answers checked against the engine.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createAttention } from '../../web/src/engine/attention.js';
import { checkChoice, checkNumber, checkPattern, expectedNumber, expectedPattern } from '../../web/src/exercise/answers.js';
import { questionsInRange, readExercise, writeExercise } from '../../web/src/exercise/exercise-text.js';
import { EXERCISE_LIMITS } from '../../web/src/state/schema.js';
import { hiddenEntries, isHiddenEntry, redactResult } from '../../web/src/exercise/hidden-entries.js';
import { exerciseId, loadProgress, saveProgress, scoreOf } from '../../web/src/exercise/progress.js';
import { WORKED_EXAMPLE } from './worked-example.mjs';

const engine = await createAttention();
const worked = engine.compute(WORKED_EXAMPLE);
const dots = engine.compute({ ...WORKED_EXAMPLE, scale: false });

const EXERCISE = {
  title: { en: 'The worked example', 'zh-CN': '教程中的例子' },
  questions: [
    { kind: 'number', cell: 'scores.1.2.1', prompt: { en: 's₂₁?', 'zh-CN': 's₂₁ 是多少？' }, hint: 'q₂·k₁ / √3' },
    { kind: 'number', cell: 'weights.1.2.1', tolerance: 0.005 },
    { kind: 'pattern', row: 'weights.1.3', find: 'zeros', prompt: 'Which keys get weight 0?' },
    { kind: 'pattern', row: 'mask.2' },
    { kind: 'choice', prompt: 'Softmax runs over…', options: ['each row', 'each column'], answer: 0 },
  ],
};

test('an exercise round-trips through its link text', () => {
  const { exercise, problems } = readExercise(JSON.stringify(EXERCISE));
  assert.deepEqual(problems, []);
  assert.equal(exercise.questions.length, 5);
  assert.deepEqual(exercise.questions[0].cell, { name: 'scores', head: 0, row: 1, col: 0 });
  assert.equal(exercise.questions[1].tolerance, 0.005);
  assert.equal(exercise.questions[0].tolerance, 0.01, 'the default tolerance');
  const written = writeExercise(exercise);
  const again = readExercise(written);
  assert.deepEqual(again, { exercise, problems: [] });
  // A choice's right option travels as a check, not an index the link would show.
  const choice = JSON.parse(written).questions[4];
  assert.equal(choice.answer, undefined);
  assert.match(choice.check, /^[0-9a-f]{8}$/);
  const forged = JSON.parse(written);
  forged.questions[4].check = '00000000';
  assert.deepEqual(readExercise(JSON.stringify(forged)).problems, [{ key: 'exercise.problem.question', params: { n: 5 } }]);
});

test('a hostile exercise opens with its valid questions and a problem for each one left out', () => {
  const many = { questions: Array.from({ length: 500 }, () => ({ kind: 'choice', prompt: 'x', options: ['a', 'b'], answer: 1 })) };
  const read = readExercise(JSON.stringify(many));
  assert.equal(read.exercise.questions.length, EXERCISE_LIMITS.questions);
  assert.deepEqual(read.problems[0], { key: 'exercise.problem.tooMany', params: { n: 500, max: EXERCISE_LIMITS.questions } });
  const mixed = {
    questions: [
      { kind: 'number', cell: 'weights.1.2.1' },
      { kind: 'number', cell: '<img src=x onerror=alert(1)>' },
      { kind: 'choice', prompt: 'x', options: ['a'], answer: 0 },
      { kind: 'choice', prompt: 'x', options: ['a', 'b'], answer: 7 },
      { kind: 'number', cell: 'weights.1.2.1', tolerance: -1 },
      { kind: 'pattern', row: 'weights.1.2', find: 'everything' },
      { kind: 'number', cell: 'x.1.1', prompt: 'y'.repeat(EXERCISE_LIMITS.textChars + 1) },
      { kind: 'number', cell: 'x.1.1', prompt: { en: 3 } },
      { kind: 'eval', code: 'alert(1)' },
      null,
    ],
  };
  const { exercise, problems } = readExercise(JSON.stringify(mixed));
  assert.equal(exercise.questions.length, 1);
  assert.deepEqual(
    problems.map((p) => p.params.n),
    [2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  for (const text of ['', '{', '[]', '{"questions":3}', 'null']) {
    const r = readExercise(text);
    assert.equal(r.exercise, null, text);
  }
});

test('questions outside the result are left out, each with a problem', () => {
  const { exercise } = readExercise(
    JSON.stringify({
      questions: [
        { kind: 'number', cell: 'weights.2.1.1' },
        { kind: 'number', cell: 'weights.1.7.1' },
        { kind: 'number', cell: 'x.1.4' },
        { kind: 'pattern', row: 'mask.6' },
        { kind: 'number', cell: 'dots.1.6.6' },
      ],
    }),
  );
  const { kept, problems } = questionsInRange(exercise, worked);
  assert.deepEqual(
    kept.map((k) => k.index),
    [3, 4],
  );
  assert.deepEqual(
    problems.map((p) => p.params.n),
    [1, 2, 3],
  );
});

test('answers are checked against the engine’s numbers, within the tolerance', () => {
  const { exercise } = readExercise(JSON.stringify(EXERCISE));
  const [s21, a21, zeros, masked, choice] = exercise.questions;
  const s = expectedNumber(s21, worked, dots);
  assert.equal(s.toFixed(3), '0.551', 'the course’s s₂₁');
  assert.equal(expectedNumber(a21, worked, dots).toFixed(3), '0.423', 'the course’s a₂₁');
  assert.equal(checkNumber(s21, '0.55', s).correct, true);
  assert.equal(checkNumber(s21, '0,551', s).correct, true, 'a decimal comma');
  assert.equal(checkNumber(s21, '0.53', s).correct, false);
  assert.deepEqual(checkNumber(s21, 'abc', s), { ok: false, reason: 'notNumber' });
  assert.equal(checkNumber(a21, '0.417', 0.4229).correct, false, 'outside ±0.005');
  const dotsQ = readExercise(JSON.stringify({ questions: [{ kind: 'number', cell: 'dots.1.2.1' }] })).exercise.questions[0];
  assert.equal(expectedNumber(dotsQ, worked, dots).toFixed(3), '0.954', 'QKᵀ from the unscaled run (0.55·0.43 + 0.87·0.15 + 0.66·0.89)');
  const want = expectedPattern(zeros, worked);
  assert.deepEqual(want, [false, false, false, true, true, true]);
  assert.deepEqual(checkPattern(zeros, [false, false, false, true, true, true], want), {
    correct: true,
    cells: [true, true, true, true, true, true],
  });
  assert.deepEqual(checkPattern(zeros, [false, false, true, true, true, false], want).cells, [true, true, false, true, true, false]);
  assert.deepEqual(expectedPattern(masked, worked), [false, false, true, true, true, true]);
  const largest = readExercise(JSON.stringify({ questions: [{ kind: 'pattern', row: 'weights.1.2', find: 'largest' }] })).exercise.questions[0];
  const top = expectedPattern(largest, worked);
  assert.deepEqual(top, [false, true, false, false, false, false]);
  assert.equal(checkPattern(largest, [false, true, false, false, false, false], top).correct, true);
  assert.equal(checkPattern(largest, [true, true, false, false, false, false], top).correct, false, 'one key only');
  assert.equal(checkChoice(choice, 0).correct, true);
  assert.equal(checkChoice(choice, 1).correct, false);
});

const hiddenOf = (hidden, name, head = null) => hidden.grids.get(head === null ? name : `${name}/${head}`).flags;
const flagged = (flags) => [...flags.keys()].filter((i) => flags[i]);

test('a hidden a₂₁ hides its row of A and of e^(z − max), and o₂ down to the output, nothing upstream', () => {
  const hidden = hiddenEntries([{ name: 'weights', head: 0, row: 1, col: 0 }], worked);
  assert.deepEqual(flagged(hiddenOf(hidden, 'weights', 0)), [6, 7, 8, 9, 10, 11]);
  assert.deepEqual(flagged(hiddenOf(hidden, 'exps', 0)), [6, 7, 8, 9, 10, 11]);
  assert.deepEqual(flagged(hiddenOf(hidden, 'context', 0)), [3, 4, 5]);
  assert.deepEqual(flagged(hiddenOf(hidden, 'concat')), [3, 4, 5]);
  assert.deepEqual(flagged(hiddenOf(hidden, 'output')), [3, 4, 5]);
  for (const name of ['x', 'q', 'k', 'v', 'mask', 'wq', 'wo']) assert.deepEqual(flagged(hiddenOf(hidden, name)), [], name);
  for (const name of ['scores', 'masked', 'dots']) assert.deepEqual(flagged(hiddenOf(hidden, name, 0)), [], name);
  assert.deepEqual([...hidden.rows.get(0)], [0, 1, 0, 0, 0, 0]);
});

test('a hidden s₂₁ hides QKᵀ₂₁ too (one factor apart), and a key’s K row reaches every row after the softmax', () => {
  const s = hiddenEntries([{ name: 'scores', head: 0, row: 1, col: 0 }], worked);
  assert.deepEqual(flagged(hiddenOf(s, 'dots', 0)), [6]);
  assert.deepEqual(flagged(hiddenOf(s, 'masked', 0)), [6]);
  assert.deepEqual(flagged(hiddenOf(s, 'weights', 0)), [6, 7, 8, 9, 10, 11]);
  const k = hiddenEntries([{ name: 'k', head: null, row: 0, col: 0 }], worked);
  assert.deepEqual(flagged(hiddenOf(k, 'k', 0)), [0], 'the head’s K is the model’s columns');
  assert.equal(flagged(hiddenOf(k, 'weights', 0)).length, 36);
  assert.equal(flagged(hiddenOf(k, 'output')).length, 18);
  assert.deepEqual(flagged(hiddenOf(k, 'v')), []);
});

test('heads: a hidden entry of head 2 leaves head 1 alone; grouped K/V heads share their hidden rows', () => {
  const config = { tokens: ['a', 'b', 'c', 'd', 'e'], dModel: 6, heads: 3, kvHeads: 1, weights: 'random', seed: 3, mask: 'causal' };
  const result = engine.compute(config);
  const hidden = hiddenEntries([{ name: 'weights', head: 1, row: 2, col: 0 }], result);
  assert.deepEqual(flagged(hiddenOf(hidden, 'weights', 0)), []);
  assert.deepEqual(flagged(hiddenOf(hidden, 'concat')), [14, 15], 'row 3, head 2’s columns');
  assert.equal(flagged(hiddenOf(hidden, 'output')).length, 6);
  const v = hiddenEntries([{ name: 'v', head: 2, row: 1, col: 1 }], result);
  for (const h of [0, 1, 2]) assert.deepEqual(flagged(hiddenOf(v, 'v', h)), [3], `head ${h + 1} shares the one V`);
});

test('softmax over the queries: a hidden weight hides its column, not its row', () => {
  const result = engine.compute({ ...WORKED_EXAMPLE, softmaxOver: 'queries' });
  const hidden = hiddenEntries([{ name: 'weights', head: 0, row: 1, col: 0 }], result, { overQueries: true });
  assert.deepEqual(flagged(hiddenOf(hidden, 'weights', 0)), [0, 6, 12, 18, 24, 30]);
});

test('a redacted result holds no hidden value: NaN with the flags, per-row figures too', () => {
  const hidden = hiddenEntries([{ name: 'weights', head: 0, row: 1, col: 0 }], worked);
  const redacted = redactResult(worked, hidden);
  const a = redacted.perHead[0].weights;
  assert.ok(Number.isNaN(a.data[6]) && isHiddenEntry(a, 1, 0) && isHiddenEntry(a, 1, 5));
  assert.equal(isHiddenEntry(a, 0, 0), false);
  assert.equal(a.data[0], worked.perHead[0].weights.data[0]);
  assert.ok(Number.isNaN(redacted.perHead[0].rowSum[1]) && Number.isNaN(redacted.perHead[0].entropy[1]));
  assert.ok(!Number.isNaN(redacted.perHead[0].rowSum[2]));
  assert.ok(Number.isNaN(redacted.output.data[3]));
  assert.equal(worked.perHead[0].weights.data[6].toFixed(3), '0.423', 'the engine’s result is left as it was');
  // Every number in the redacted copy: none equals a hidden one unless it also appears visibly.
  const hiddenValues = new Set();
  const visible = new Set();
  const walk = (m, g) => m.data.forEach((v, i) => (g?.[i] ? hiddenValues : visible).add(v));
  for (const [name, m] of Object.entries({ weights: a, exps: redacted.perHead[0].exps, context: redacted.perHead[0].context })) {
    walk(m, m.hidden);
    assert.ok(m.hidden, name);
  }
  assert.deepEqual(
    [...hiddenValues].filter((v) => !Number.isNaN(v)),
    [],
  );
  assert.equal(redactResult(worked, hiddenEntries([], worked)), worked, 'nothing hidden: the result itself');
});

test('progress is kept per exercise, survives a reload, and a broken storage is no progress', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  const id = exerciseId(JSON.stringify(EXERCISE));
  assert.match(id, /^[0-9a-f]{8}$/);
  assert.notEqual(id, exerciseId(`${JSON.stringify(EXERCISE)} `));
  saveProgress(storage, id, {
    0: { tries: 1, correct: true, answer: '0.55' },
    1: { tries: 2, correct: false, answer: '0.5' },
    2: { tries: 1, correct: false },
  });
  const again = loadProgress(storage, id);
  assert.deepEqual(scoreOf(again, [0, 1, 2, 3, 4]), { answered: 2, correct: 1, total: 5 });
  store.set(`attention-playground:exercise:${id}`, '{"0":{"tries":"x"},"__proto__":{"tries":1,"correct":true}}');
  assert.deepEqual(loadProgress(storage, id), {});
  assert.deepEqual(
    loadProgress(
      {
        getItem: () => {
          throw new Error('denied');
        },
      },
      id,
    ),
    {},
  );
  saveProgress(
    {
      setItem: () => {
        throw new Error('full');
      },
    },
    id,
    {},
  );
});

test('the course’s exercises read whole, fit their states, and ask the course’s numbers', async () => {
  const { galleryItems } = await import('../../web/src/share/gallery.js');
  const { engineConfigOf } = await import('../../web/src/share/engine-config.js');
  const { decodeHash } = await import('../../web/src/state/url.js');
  const items = galleryItems().filter((item) => item.id.startsWith('exercise-'));
  assert.ok(items.length >= 6);
  const asked = {};
  for (const item of items) {
    const { state, ignored } = decodeHash(item.hash);
    assert.deepEqual(ignored, [], item.id);
    const { exercise, problems } = readExercise(state.exercise);
    assert.deepEqual(problems, [], item.id);
    for (const q of exercise.questions) {
      for (const text of [q.prompt, q.hint, ...(q.options ?? [])])
        if (Object.keys(text).length) assert.ok(text.en && text['zh-CN'], `${item.id}: both languages`);
    }
    const result = engine.compute(engineConfigOf(state));
    const unscaled = engine.compute({ ...engineConfigOf(state), scale: false });
    const inRange = questionsInRange(exercise, result);
    assert.deepEqual(inRange.problems, [], item.id);
    asked[item.id] = exercise.questions.filter((q) => q.kind === 'number').map((q) => expectedNumber(q, result, unscaled).toFixed(3));
  }
  assert.deepEqual(asked['exercise-worked'], ['0.551', '0.423', '0.499', '0.566', '0.757']);
  assert.deepEqual(asked['exercise-self-test'], ['0.248', '0.503']);
});

test('a question left out is named by its place in the link, not among the readable ones', () => {
  const { exercise, problems } = readExercise(
    JSON.stringify({
      questions: [
        { kind: 'number', cell: 'nonsense' },
        { kind: 'number', cell: 'weights.1.2.1' },
        { kind: 'number', cell: 'weights.1.9.1' },
      ],
    }),
  );
  assert.deepEqual(
    problems.map((p) => p.params.n),
    [1],
  );
  assert.deepEqual(
    questionsInRange(exercise, worked).problems.map((p) => p.params.n),
    [3],
  );
});

test('an exercise pins its state: read back from its text, and a state it cannot open is a problem', async () => {
  const { pinnedTextOf, readPinned, computedKey } = await import('../../web/src/exercise/pinned-state.js');
  const { presetState } = await import('../../web/src/state/url.js');
  const state = { ...presetState('journey'), step: 'mask', temperature: 2 };
  const text = pinnedTextOf('journey', state);
  assert.doesNotMatch(text, /step=/, 'where the reader looks is not pinned');
  const own = readPinned(text);
  assert.equal(own.ok, true);
  assert.equal(own.presetId, 'journey');
  assert.equal(computedKey(own.state), computedKey(state));
  assert.notEqual(computedKey(own.state), computedKey({ ...state, temperature: 1 }));
  assert.equal(readPinned('preset=nope').ok, false);
  assert.equal(readPinned('v=1&d=abc').ok, false);
  const { exercise } = readExercise(JSON.stringify({ state: text, questions: [{ kind: 'number', cell: 'weights.1.2.1' }] }));
  assert.equal(exercise.state, text);
  assert.equal(readExercise(writeExercise(exercise)).exercise.state, text);
});

test('an exercise link compressed with "~" opens as the plain one does', async () => {
  const { decodeHash, encodeHash, presetState } = await import('../../web/src/state/url.js');
  const text = writeExercise(readExercise(JSON.stringify(EXERCISE)).exercise);
  const hash = encodeHash({ presetId: 'journey', state: { ...presetState('journey'), exercise: text } });
  assert.match(hash, /ex=~/, 'written compressed (it is clearly shorter)');
  const { state, ignored } = decodeHash(hash);
  assert.deepEqual(ignored, []);
  assert.equal(state.exercise, text);
});

test('scoring: a choice ends on its first answer, "show" is answered and not right', async () => {
  const { closes, isDone } = await import('../../web/src/exercise/progress.js');
  const choice = { kind: 'choice' };
  const number = { kind: 'number' };
  assert.equal(closes(choice, { tries: 1, correct: false }), true);
  assert.equal(closes(number, { tries: 1, correct: false }), false);
  assert.equal(closes(number, { tries: 2, correct: false }), true);
  assert.equal(closes(number, { tries: 0, correct: false, shown: true }), true);
  const progress = {
    0: { tries: 1, correct: false, closed: true },
    1: { tries: 0, correct: false, shown: true, closed: true },
    2: { tries: 2, correct: true, closed: true },
    3: { tries: 1, correct: false, closed: false },
  };
  assert.equal(isDone(progress[3]), false);
  assert.deepEqual(scoreOf(progress, [0, 1, 2, 3]), { answered: 3, correct: 1, total: 4 });
});

test('choice options are shown shuffled, the same way on every reload, the first one not always first', async () => {
  const { optionOrder } = await import('../../web/src/exercise/option-order.js');
  assert.deepEqual(optionOrder('0a1b2c3d', 4, 3), optionOrder('0a1b2c3d', 4, 3));
  for (const n of [2, 3, 6]) assert.deepEqual([...optionOrder('0a1b2c3d', 1, n)].sort(), [...Array(n).keys()]);
  const firsts = new Set(Array.from({ length: 40 }, (_, k) => optionOrder(exerciseId(String(k)), k, 3)[0]));
  assert.deepEqual([...firsts].sort(), [0, 1, 2], 'each option leads somewhere');
});

test('an entry equal to an asked one is hidden with it: s₁₂ = s₂₁ when Q = K, X where Q = X', async () => {
  const { createPresenter } = await import('../../web/src/exercise/present.js');
  // The worked example: identity weights, so Q = K = V = X and S is symmetric.
  const s21 = createPresenter([{ name: 'scores', head: 0, row: 1, col: 0 }], worked).result(worked);
  assert.ok(isHiddenEntry(s21.perHead[0].scores, 0, 1), 's₁₂ goes with s₂₁');
  const q21 = createPresenter([{ name: 'q', head: null, row: 1, col: 0 }], worked).result(worked);
  assert.ok(isHiddenEntry(q21.x, 1, 0), 'x₂₁ goes with q₂₁');
  // 0 and 1 are constants: an asked weight of 1 (row 1 of a causal A) hides no other 1.
  const a11 = createPresenter([{ name: 'weights', head: 0, row: 0, col: 0 }], worked).result(worked);
  assert.ok(!isHiddenEntry(a11.weights.wq, 0, 0), 'the identity’s 1s stay');
});
