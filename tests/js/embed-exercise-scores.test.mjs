// Exercise scores between an embed and its course page (docs/exercises.md, "Scores in a course
// page"): the reader refuses every score the playground could not have posted, the embed posts
// only to the origin of a parent that asked, and the example course page embeds real gallery exercises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createScorePoster } from '../../web/src/embed/exercise-scores.js';
import { EXERCISE_SCORE, makeMessage, readMessage, readScore } from '../../web/src/embed/protocol.js';
import { exerciseId } from '../../web/src/exercise/progress.js';
import { galleryItems } from '../../web/src/share/gallery.js';
import { EXERCISE_LIMITS } from '../../web/src/state/schema.js';
import { decodeHash } from '../../web/src/state/url.js';

const VALID = { exercise: '926aa318', answered: 2, correct: 1, total: 5 };
const read = (fields) => readMessage({ ...makeMessage(EXERCISE_SCORE, VALID), ...fields });

test('the reader accepts every score the playground can post', () => {
  const max = EXERCISE_LIMITS.questions;
  for (const score of [
    VALID,
    { exercise: '00000000', answered: 0, correct: 0, total: 1 }, // one wrong try: not answered yet
    { exercise: 'ffffffff', answered: max, correct: max, total: max },
    { exercise: '0a1b2c3d', answered: 3, correct: 0, total: 3 },
  ]) {
    assert.deepEqual(readMessage(makeMessage(EXERCISE_SCORE, score)), { type: EXERCISE_SCORE, ...score }, JSON.stringify(score));
  }
  // Fields it does not know are left out; older versions still read.
  assert.deepEqual(read({ version: 2, html: '<img src=x>' }), { type: EXERCISE_SCORE, ...VALID });
});

test('the reader refuses every impossible score', () => {
  const notWhole = [1.5, '1', NaN, Infinity, -Infinity, null, undefined, true, [1], { valueOf: () => 1 }, 1n];
  const impossible = {
    'the example of the issue': { answered: 999, correct: 999, total: 3 },
    'more right than answered': { answered: 1, correct: 2, total: 5 },
    'more answered than asked': { answered: 6, correct: 1, total: 5 },
    'more questions than an exercise holds': { answered: 0, correct: 0, total: EXERCISE_LIMITS.questions + 1 },
    'no question at all': { answered: 0, correct: 0, total: 0 },
    'a negative count': { answered: -1, correct: -1, total: 5 },
    'a negative right count': { correct: -1 },
  };
  for (const field of ['answered', 'correct', 'total']) {
    for (const value of notWhole) impossible[`${field} = ${String(value)}`] = { [field]: value };
    impossible[`${field} = -1`] = { [field]: -1 };
  }
  for (const exercise of ['926AA318', '926aa31', '926aa3189', '926aa31g', ' 926aa318', '926aa318\n', '', '<img src=x>', 0x926aa318, null]) {
    impossible[`exercise ${JSON.stringify(exercise)}`] = { exercise };
  }
  for (const [name, fields] of Object.entries(impossible)) assert.equal(read(fields), null, name);
  assert.equal(read({ exercise: undefined }), null);
  for (const data of [null, undefined, 'score', 42]) assert.equal(readScore(data), null);
});

test('the reader reads each field once: a getter cannot pass the checks with one value and hand over another', () => {
  let reads = 0;
  const data = {
    ...makeMessage(EXERCISE_SCORE, VALID),
    get answered() {
      reads += 1;
      return reads === 1 ? 2 : 999;
    },
  };
  assert.deepEqual(readMessage(data), { type: EXERCISE_SCORE, ...VALID });
  const throwing = Object.defineProperty({ ...makeMessage(EXERCISE_SCORE, VALID) }, 'total', {
    get() {
      throw new Error('boom');
    },
  });
  assert.equal(readMessage(throwing), null);
});

// ---- the embed's side: createScorePoster with a pretend parent ---------------------------------

function posterWithParent({ refuse = () => false } = {}) {
  const posted = [];
  const parent = {
    postMessage(data, targetOrigin) {
      if (refuse(targetOrigin)) throw new SyntaxError(`invalid target origin ${targetOrigin}`);
      posted.push([structuredClone(data), targetOrigin]);
    },
  };
  return { poster: createScorePoster(parent), posted };
}
const message = (score) => makeMessage(EXERCISE_SCORE, score);

test('no score is posted before a host asks; then the latest goes at once to the origin that asked', () => {
  const { poster, posted } = posterWithParent();
  const first = { ...VALID, answered: 1, correct: 1 };
  poster.post(first);
  poster.post(VALID);
  assert.deepEqual(posted, []);
  poster.asked('https://course.example');
  assert.deepEqual(posted, [[message(VALID), 'https://course.example']], 'only the latest, not the score it replaced');
  const later = { ...VALID, answered: 3, correct: 2 };
  poster.post(later);
  assert.deepEqual(posted.at(-1), [message(later), 'https://course.example']);
  assert.ok(posted.every(([, target]) => target !== '*'));
});

test('a host that asks before any answer gets each score as it comes', () => {
  const { poster, posted } = posterWithParent();
  poster.asked('https://course.example');
  assert.deepEqual(posted, []);
  poster.post(VALID);
  assert.deepEqual(posted, [[message(VALID), 'https://course.example']]);
});

test('a new request moves the scores to its origin; an opaque origin cannot ask', () => {
  const { poster, posted } = posterWithParent();
  poster.post(VALID);
  poster.asked('null');
  poster.asked(undefined);
  assert.deepEqual(posted, []);
  poster.asked('https://course.example');
  poster.asked('https://lms.example:8443'); // the parent's document was replaced, and its page asked
  poster.post(VALID);
  assert.deepEqual(
    posted.map(([, target]) => target),
    ['https://course.example', 'https://lms.example:8443', 'https://lms.example:8443'],
  );
});

test('an origin postMessage cannot address is forgotten, and posting never throws', () => {
  const { poster, posted } = posterWithParent({ refuse: (target) => target === 'bad origin' });
  poster.post(VALID);
  assert.doesNotThrow(() => poster.asked('bad origin'));
  assert.doesNotThrow(() => poster.post(VALID));
  assert.deepEqual(posted, []);
});

// ---- the example course page ---------------------------------------------------------------------

const page = readFileSync(new URL('../../examples/course-page.html', import.meta.url), 'utf8');
const attribute = (tag, name) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1]?.replaceAll('&amp;', '&') ?? null;

test('the example course page embeds two gallery exercises, each named by its id, with a place for its score', () => {
  const frames = [...page.matchAll(/<iframe\b[^>]*>/g)].map(([tag]) => tag).filter((tag) => attribute(tag, 'data-exercise') !== null);
  assert.equal(frames.length, 2);
  const gallery = galleryItems();
  for (const tag of frames) {
    const id = attribute(tag, 'id');
    const item = gallery.find((entry) => entry.id === id);
    assert.ok(item?.state.exercise, `${id} is a gallery exercise`);
    const src = attribute(tag, 'src');
    assert.ok(src.startsWith('../dist/index.html#'), src);
    // The gallery's link itself, in embed mode, in Chinese, without the explanations.
    const opened = decodeHash(src.slice(src.indexOf('#')));
    assert.deepEqual(opened.ignored, [], id);
    assert.equal(opened.presetId, item.preset, id);
    assert.deepEqual(opened.state, item.state, `${id}: regenerate its link from galleryItems() (share/gallery.js)`);
    assert.deepEqual(opened.view, { embed: true, hidden: ['prose'] }, id);
    assert.equal(opened.lang, 'zh-CN', id);
    assert.equal(attribute(tag, 'data-exercise'), exerciseId(item.state.exercise), `${id}: the id its scores name`);
    assert.match(page, new RegExp(`<output id="${id}-score">`), id);
  }
});

test('the example course page asks for scores, checks them as the reader does, and writes them as text', () => {
  assert.match(page, /type: 'request-exercise'/);
  assert.match(page, /e\.origin !== PLAYGROUND_ORIGIN/);
  assert.match(page, /d\.exercise !== frame\.dataset\.exercise/);
  assert.equal(Number(page.match(/n <= (\d+);/)?.[1]), EXERCISE_LIMITS.questions, 'its most questions are the playground’s');
  assert.match(page, /Math\.min\(20000, Math\.max\(80, /, 'frames kept between 80 and 20 000 px');
  assert.doesNotMatch(page, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
});
