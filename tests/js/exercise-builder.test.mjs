// The exercise builder's parts that need no page: what a draft still lacks, why an ask button is
// unavailable, which step an embedded quiz opens on, the entries' names, and the snippet a course
// author pastes, its script run against messages from the right frame and from others.
import assert from 'node:assert/strict';
import test from 'node:test';
import { createAttention } from '../../web/src/engine/attention.js';
import { askBlocks, isComplete, missingParts, quizView, readTolerance } from '../../web/src/exercise/builder-drafts.js';
import { cellNames } from '../../web/src/exercise/cell-names.js';
import { exerciseSnippet, iframeSnippet } from '../../web/src/exercise/embed-snippet.js';
import { createTranslator } from '../../web/src/i18n/index.js';
import { parseCellRef } from '../../web/src/state/schema.js';
import { presetState } from '../../web/src/state/url.js';
import { toEngineConfig } from '../../web/src/state/validate.js';

const newChoice = () => ({ kind: 'choice', prompt: {}, hint: {}, options: [{}, {}], answer: 0 });

test('a new choice lacks its question and options, said as parts to write; filled in either language it is complete', () => {
  const q = newChoice();
  assert.deepEqual(missingParts(q), {
    texts: [
      { key: 'builder.part.prompt', params: {} },
      { key: 'builder.part.option', params: { n: 1 } },
      { key: 'builder.part.option', params: { n: 2 } },
    ],
    tolerance: false,
  });
  q.prompt.en = 'Softmax runs over…';
  q.options[0].en = 'each row';
  q.options[1]['zh-CN'] = '每一列';
  q.options.push({ en: '   ' }); // (spaces are not a text)
  assert.deepEqual(missingParts(q).texts, [{ key: 'builder.part.option', params: { n: 3 } }]);
  q.options.pop();
  assert.equal(isComplete(q), true);
});

test('a number question needs a tolerance the page takes; a decimal comma is read', () => {
  const q = { kind: 'number', cell: 'weights.1.2.1', tolerance: 0.01, prompt: {}, hint: {} };
  assert.equal(isComplete(q), true, 'no prompt needed: the page writes one');
  for (const typed of ['', 'abc', '-1', '101']) assert.equal(missingParts({ ...q, tolerance: readTolerance(typed) }).tolerance, true, typed);
  assert.equal(readTolerance('0,05'), 0.05);
  assert.equal(isComplete({ ...q, tolerance: readTolerance(' 0 ') }), true);
});

test('each ask button says why it is unavailable for the selected entry', () => {
  assert.deepEqual(askBlocks(null, 0), { entry: 'builder.why.noCell', zeros: 'builder.why.noCell', largest: 'builder.why.noCell', choice: null });
  assert.deepEqual(askBlocks(parseCellRef('weights.1.3.2'), 3), { entry: null, zeros: null, largest: null, choice: null });
  assert.deepEqual(askBlocks(parseCellRef('mask.2.1'), 0), { entry: null, zeros: null, largest: 'builder.why.largest', choice: null });
  assert.deepEqual(askBlocks(parseCellRef('x.2.1'), 0), { entry: null, zeros: 'builder.why.row', largest: 'builder.why.largest', choice: null });
  assert.equal(askBlocks(parseCellRef('cmp-weights.1.2.1'), 0).entry, 'builder.why.compare');
  assert.deepEqual(Object.values(askBlocks(parseCellRef('weights.1.3.2'), 20)), Array(4).fill('builder.why.full'));
});

test('an embedded quiz opens on the first step its questions ask about, not the whole lesson', () => {
  const choice = { ...newChoice(), prompt: { en: 'p' } };
  const number = (cell) => ({ kind: 'number', cell });
  assert.deepEqual(quizView([number('weights.1.2.1'), { kind: 'pattern', row: 'weights.1.3', find: 'zeros' }, choice], 'all'), {
    step: 'softmax',
    hidden: [],
  });
  assert.deepEqual(quizView([{ kind: 'pattern', row: 'mask.3' }, number('scores.1.2.1')], 'all').step, 'scale', 'the first in the lesson’s order');
  assert.equal(quizView([number('x.1.2'), number('output.2.1')], 'softmax').step, 'x');
  assert.equal(quizView([number('q.1.2.1')], 'all').step, 'dots', 'a head’s Q is drawn in the QKᵀ step');
  assert.deepEqual(quizView([choice], 'mask'), { step: 'mask', hidden: [] }, 'choices only: the teacher’s step');
  assert.deepEqual(quizView([choice], 'all'), { step: 'all', hidden: ['lesson'] }, 'choices only on all steps: the first screen');
});

test('entries and rows are named as the explanation names them, in both languages', async () => {
  const engine = await createAttention();
  const shownOf = (state) => ({ state, results: new Map([['main', engine.compute(toEngineConfig(state))]]) });
  const journey = shownOf(presetState('journey'));
  const en = cellNames(journey, createTranslator('en'));
  assert.equal(en.cell('weights.1.3.2'), 'a₃₂ of head 1');
  assert.equal(en.cell('scores.1.2.1'), 's₂₁ of head 1');
  assert.equal(en.cell('x.2.1'), 'x₂₁');
  assert.equal(en.row('weights.1.3'), 'row 3 (“starts”) of A, head 1');
  assert.equal(en.row('mask.2'), 'row 2 (“journey”) of M');
  const zh = cellNames(journey, createTranslator('zh-CN'));
  assert.equal(zh.cell('weights.1.3.2'), '第 1 个头的 a₃₂');
  assert.equal(zh.row('weights.1.3'), 'A（第 1 个头）的第 3 行（“starts”）');
  const twoHeads = cellNames(shownOf(presetState('default')), createTranslator('en'));
  assert.equal(twoHeads.cell('weights.2.3.2'), 'a₃₂⁽²⁾ of head 2');
  // Before the first result, or an entry the result does not have: the link's own name.
  assert.equal(cellNames(null, createTranslator('en')).cell('weights.1.3.2'), 'weights.1.3.2');
  assert.equal(en.cell('weights.3.1.1'), 'weights.3.1.1');
});

// The snippet's script run as a host page would run it, with the frame and the page stubbed.
function host(snippet) {
  const script = snippet.match(/<script>\n([\s\S]*)\n<\/script>$/)[1];
  const frameWindow = { posted: [], postMessage: (message, origin) => frameWindow.posted.push({ message, origin }) };
  const frame = { style: {}, contentWindow: frameWindow, events: {}, addEventListener: (type, f) => (frame.events[type] = f) };
  const out = { textContent: '' };
  const listeners = [];
  const document = { getElementById: (id) => (id.endsWith('-score') ? out : frame), querySelectorAll: () => [frame] };
  new Function('document', 'addEventListener', script)(document, (type, f) => type === 'message' && listeners.push(f));
  const send = (data, { origin = PLAYGROUND, source = frameWindow } = {}) => {
    for (const f of listeners) f({ data, origin, source });
  };
  return { frame, frameWindow, out, send };
}

const PLAYGROUND = 'https://example.org';
const SRC = `${PLAYGROUND}/playground/index.html#preset=journey&v=1&embed=1`;
const message = (type, fields) => ({ protocol: 'attention-playground', version: 3, type, ...fields });
const score = (fields) => message('attention-playground:exercise', { exercise: '1a2b3c4d', answered: 1, correct: 1, total: 3, ...fields });

test('the iframe snippet fits its frame only from the playground’s origin, between 80 and 20 000 px', () => {
  const snippet = iframeSnippet(SRC, 'Attention "playground" <b>');
  assert.match(
    snippet,
    /^<iframe src="https:\/\/example\.org\/playground\/index\.html#preset=journey&amp;v=1&amp;embed=1" title="Attention &quot;playground&quot; &lt;b>"/,
  );
  const { frame, send } = host(snippet);
  send(message('resize', { height: 512.2 }), { origin: 'https://evil.example' });
  assert.equal(frame.style.height, undefined);
  send(message('resize', { height: 512.2 }));
  assert.equal(frame.style.height, '513px');
  send(message('resize', { height: 1e9 }));
  assert.equal(frame.style.height, '20000px');
  send(message('resize', { height: 3 }));
  assert.equal(frame.style.height, '80px');
  send(message('resize', { height: Number.NaN }));
  assert.equal(frame.style.height, '80px');
  assert.equal(
    iframeSnippet('file:///tmp/index.html#embed=1', 't'),
    '<iframe src="file:///tmp/index.html#embed=1" title="t" style="width:100%;height:640px;border:0" loading="lazy"></iframe>',
  );
});

test('the exercise snippet asks for scores and shows the possible ones of its exercise from its frame, as text', () => {
  const snippet = exerciseSnippet({
    src: SRC,
    title: 'Quiz',
    exercise: '1a2b3c4d',
    waiting: 'Score: not answered yet',
    score: 'Score: {answered} of {total} done, {correct} right </script><script>alert(1)',
  });
  assert.match(snippet, /<iframe id="ap-exercise-1a2b3c4d" src="[^"]+"/);
  assert.match(snippet, /<p><output id="ap-exercise-1a2b3c4d-score">Score: not answered yet<\/output><\/p>/);
  assert.equal(snippet.match(/<\/script>/g).length, 1, 'no text closes the script');
  const { frame, frameWindow, out, send } = host(snippet);
  frame.events.load();
  send(message('ready', { height: 900 }));
  assert.deepEqual(frameWindow.posted, Array(2).fill({ message: message('request-exercise'), origin: PLAYGROUND }));
  assert.equal(frame.style.height, '900px');
  send(score(), { origin: 'https://evil.example' });
  send(score(), { source: {} }); // (another frame of the playground's origin)
  send(score({ exercise: 'ffffffff' }));
  send(score({ answered: 4 }));
  send(score({ correct: 2 }));
  send(score({ total: 21, answered: 1 }));
  send(score({ answered: 0.5 }));
  assert.equal(out.textContent, '');
  send(score({ answered: 2, correct: 1 }));
  assert.equal(out.textContent, 'Score: 2 of 3 done, 1 right </script><script>alert(1)');
  send(message('resize', { height: 1e9 }));
  assert.equal(frame.style.height, '20000px');
});
