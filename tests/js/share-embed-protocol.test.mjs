// The postMessage protocol of embeds (web/src/embed/protocol.js, embed-mode.js, docs/embedding.md):
// what a host may believe of a message, which pages an element may show, and that the reader's
// state and exercise scores leave the embed only when its parent asks, for the origin that asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { enterEmbedMode } from '../../web/src/embed/embed-mode.js';
import {
  embedFragment,
  fitHeight,
  linkToPage,
  makeMessage,
  MAX_HEIGHT,
  MESSAGE_TYPES,
  MIN_HEIGHT,
  playgroundPage,
  PROTOCOL,
  readMessage,
  safeLink,
} from '../../web/src/embed/protocol.js';
import { decodeHash } from '../../web/src/state/url.js';

test('messages are tagged with the protocol and its version', () => {
  assert.deepEqual(makeMessage('resize', { height: 612.2 }), { protocol: PROTOCOL, version: 3, type: 'resize', height: 613 });
  assert.deepEqual(makeMessage('request-height'), { protocol: PROTOCOL, version: 3, type: 'request-height' });
  assert.deepEqual(makeMessage('request-state', { watch: true }), { protocol: PROTOCOL, version: 3, type: 'request-state', watch: true });
  assert.deepEqual(makeMessage('request-exercise'), { protocol: PROTOCOL, version: 3, type: 'request-exercise' });
  assert.deepEqual(MESSAGE_TYPES, [
    'ready',
    'resize',
    'state',
    'drawn',
    'attention-playground:exercise',
    'request-height',
    'request-state',
    'request-drawn',
    'request-exercise',
  ]);
  // 'drawn' answers 'request-drawn' with its id, a whole number; anything else is not a message.
  assert.deepEqual(readMessage(makeMessage('request-drawn', { id: 7 })), { type: 'request-drawn', id: 7 });
  assert.deepEqual(readMessage(makeMessage('drawn', { id: 7 })), { type: 'drawn', id: 7 });
  for (const id of [undefined, -1, 1.5, '7', 2 ** 60]) assert.equal(readMessage({ ...makeMessage('drawn'), id }), null, String(id));
  const score = { exercise: '0a1b2c3d', answered: 2, correct: 1, total: 5 };
  assert.deepEqual(makeMessage('attention-playground:exercise', score), {
    protocol: PROTOCOL,
    version: 3,
    type: 'attention-playground:exercise',
    ...score,
  });
  assert.deepEqual(readMessage(makeMessage('attention-playground:exercise', score)), { type: 'attention-playground:exercise', ...score });
  // (every impossible score: embed-exercise-scores.test.mjs)
  assert.throws(() => makeMessage('eval'), /unknown message type/);
});

test('what makeMessage writes, readMessage reads', () => {
  const link = 'https://example.org/playground/index.html#preset=journey';
  assert.deepEqual(readMessage(makeMessage('ready', { height: 300 })), { type: 'ready', height: 300 });
  assert.deepEqual(readMessage(makeMessage('state', { link })), { type: 'state', link });
  assert.deepEqual(readMessage(makeMessage('request-height')), { type: 'request-height' });
  assert.deepEqual(readMessage(makeMessage('request-state', { watch: true })), { type: 'request-state', watch: true });
  assert.deepEqual(readMessage(makeMessage('request-state')), { type: 'request-state', watch: false });
  assert.deepEqual(readMessage(makeMessage('request-exercise')), { type: 'request-exercise' });
  // A later version may add fields: they are ignored. Version 1 messages still read.
  assert.deepEqual(readMessage({ ...makeMessage('resize', { height: 100 }), version: 3, extra: [1] }), { type: 'resize', height: 100 });
  assert.deepEqual(readMessage({ protocol: PROTOCOL, version: 1, type: 'resize', height: 100 }), { type: 'resize', height: 100 });
});

test('anything else is not a message of ours, and nothing throws', () => {
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error('boom');
      },
    },
  );
  const bad = [
    undefined,
    null,
    0,
    'resize',
    [],
    {},
    throwing,
    { protocol: 'other', version: 1, type: 'resize', height: 1 },
    { protocol: PROTOCOL, version: 0, type: 'resize', height: 1 },
    { protocol: PROTOCOL, version: '1', type: 'resize', height: 1 },
    { protocol: PROTOCOL, version: 1, type: 'eval', height: 1 },
    { protocol: PROTOCOL, version: 1, type: 'resize' },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: Infinity },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: -Infinity },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: NaN },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: '100' },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 'javascript:alert(1)' },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 'data:text/html,<script>1</script>' },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 42 },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 'not a url' },
  ];
  bad.forEach((data, i) => assert.equal(readMessage(data), null, `case ${i}`));
  assert.equal(safeLink('file:///tmp/a.html#v=1'), 'file:///tmp/a.html#v=1');
  assert.equal(safeLink('JAVASCRIPT:alert(1)'), null);
});

test('a height is kept between 80 and 20 000 px; one that is not a finite number is ignored', () => {
  assert.equal(MIN_HEIGHT, 80);
  assert.equal(MAX_HEIGHT, 20000);
  const height = (h) => readMessage({ protocol: PROTOCOL, version: 3, type: 'resize', height: h })?.height ?? null;
  assert.equal(height(100000), 20000);
  assert.equal(height(1e300), 20000);
  assert.equal(height(Number.MAX_VALUE), 20000);
  assert.equal(height(612.2), 613);
  assert.equal(height(5), 80);
  assert.equal(height(-1e9), 80);
  assert.equal(height(NaN), null);
  assert.equal(height(Infinity), null);
  assert.equal(fitHeight(undefined), null);
});

test('an element shows only an http(s) page: relative addresses resolve against the host page', () => {
  const host = 'https://course.example/lectures/3.html';
  const page = (src, base = host) => playgroundPage(src, base)?.href ?? null;
  assert.equal(page('playground/index.html#x'), 'https://course.example/lectures/playground/index.html');
  assert.equal(page('/p/index.html'), 'https://course.example/p/index.html');
  assert.equal(page('//cdn.example/p/'), 'https://cdn.example/p/');
  assert.equal(page('http://other.example/p/index.html'), 'http://other.example/p/index.html');
  const refused = [
    'javascript:alert(document.domain)',
    ' JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'data:text/html,<script>parent.alert(1)</script>',
    'blob:https://course.example/0b5c2c39-1c1b-4a9e-9e6a-2f6b1b0c9d11',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'about:blank',
    'ftp://course.example/p/',
    'http://[::1',
  ];
  for (const src of refused) assert.equal(page(src), null, src);
  // On a page opened from disk a relative address is a file: address: refused too.
  assert.equal(page('index.html', 'file:///home/teacher/course.html'), null);
});

test('a link counts as the playground’s only when it is a link to the same page', () => {
  const page = playgroundPage('https://example.org/playground/index.html#preset=cat');
  assert.equal(linkToPage('https://example.org/playground/index.html#v=1&s=a+b', page), 'https://example.org/playground/index.html#v=1&s=a+b');
  assert.equal(linkToPage('https://example.org/playground/index.html', page), 'https://example.org/playground/index.html');
  for (const link of [
    'https://evil.example/playground/index.html#v=1',
    'http://example.org/playground/index.html#v=1',
    'https://example.org:8443/playground/index.html#v=1',
    'https://example.org/other.html#v=1',
    'https://example.org/playground/index.html?x=1#v=1',
    'javascript:alert(1)//https://example.org/playground/index.html',
    'file:///playground/index.html',
  ]) {
    assert.equal(linkToPage(link, page), null, link);
  }
});

test('a custom element’s attributes become an embed link the playground reads', () => {
  const fragment = embedFragment({ preset: 'journey', lang: 'zh-CN', hide: ['heads', 'mask', 'bad name!'], hideProse: true });
  assert.equal(fragment, 'preset=journey&v=1&lang=zh-CN&embed=1&heads_hide=1&mask_hide=1&prose_hide=1');
  const decoded = decodeHash(`#${fragment}`);
  assert.deepEqual(decoded.ignored, []);
  assert.equal(decoded.presetId, 'journey');
  assert.equal(decoded.lang, 'zh-CN');
  assert.deepEqual(decoded.view, { embed: true, hidden: ['heads', 'mask', 'prose'] });
});

test('a copied link goes into the element as it is, and attributes override it', () => {
  const link = 'https://example.org/index.html#preset=journey&v=1&mask=none&lang=en';
  const fragment = embedFragment({ link, lang: 'zh-CN' });
  const decoded = decodeHash(`#${fragment}`);
  assert.deepEqual(decoded.ignored, []);
  assert.equal(decoded.state.mask, 'none');
  assert.equal(decoded.lang, 'zh-CN');
  assert.equal(decoded.view.embed, true);
  // A bare fragment works too.
  assert.equal(decodeHash(`#${embedFragment({ link: 'd=4&h=2' })}`).state.dModel, 4);
});

// ---- the embed's side, in a pretend window inside a parent --------------------------------------

// Just enough of a document and a window for embed-mode.js; `posted` is what reached the parent.
function embedInFrame() {
  const posted = [];
  const listeners = [];
  const byId = new Map();
  const element = () => {
    const node = { id: '', className: '', dataset: {}, children: [], href: '', append: (...kids) => node.children.push(...kids) };
    return node;
  };
  const register = (node) => {
    if (node.id) byId.set(node.id, node);
    node.children.forEach(register);
  };
  const parent = { postMessage: (data, targetOrigin) => posted.push({ data: structuredClone(data), targetOrigin }) };
  const doc = {
    documentElement: { classList: { add() {} }, getBoundingClientRect: () => ({ height: 1234.5 }) },
    body: { prepend: register },
    getElementById: (id) => byId.get(id) ?? null,
    createElement: element,
  };
  const win = {
    parent,
    ResizeObserver: class {
      observe() {}
    },
    addEventListener: (type, fn) => type === 'message' && listeners.push(fn),
  };
  const embed = enterEmbedMode(doc, win);
  const receive = (data, { origin = 'https://course.example', source = parent } = {}) => listeners.forEach((fn) => fn({ data, origin, source }));
  const states = () => posted.filter((p) => p.data.type === 'state');
  return { embed, receive, posted, states };
}

const LINK_A = 'https://example.org/playground/index.html#v=1&s=my+secret+answer';
const LINK_B = 'https://example.org/playground/index.html#v=1&s=my+second+answer';

test('the embed posts heights to any origin, and never the reader’s state unasked', async () => {
  const { embed, receive, posted, states } = embedInFrame();
  embed.setLink(LINK_A);
  embed.setLink(LINK_B);
  receive(makeMessage('request-height'));
  await new Promise((resolve) => setTimeout(resolve, 5)); // (a height is measured just after the frame)
  assert.deepEqual(states(), []);
  assert.deepEqual(
    posted.map((p) => [p.data.type, p.targetOrigin]),
    [
      ['ready', '*'],
      ['resize', '*'],
    ],
  );
  for (const { data } of posted) {
    assert.deepEqual(Object.keys(data).sort(), ['height', 'protocol', 'type', 'version']);
    assert.equal(data.height, 1235);
  }
  assert.ok(!JSON.stringify(posted).includes('secret'));
});

test('the state goes to the parent that asked, for the origin that asked, once or while watched', () => {
  const { embed, receive, states } = embedInFrame();
  embed.setLink(LINK_A);
  // Asked once: one answer, to the asker's origin; later changes are not sent.
  receive(makeMessage('request-state'), { origin: 'https://course.example' });
  assert.deepEqual(
    states().map((p) => [p.data.link, p.targetOrigin]),
    [[LINK_A, 'https://course.example']],
  );
  embed.setLink(LINK_B);
  assert.equal(states().length, 1);
  // Watched: now and after each change (not for the same link again).
  receive(makeMessage('request-state', { watch: true }), { origin: 'https://lms.example:8443' });
  embed.setLink(LINK_B);
  embed.setLink(LINK_A);
  assert.deepEqual(
    states()
      .slice(1)
      .map((p) => [p.data.link, p.targetOrigin]),
    [
      [LINK_B, 'https://lms.example:8443'],
      [LINK_A, 'https://lms.example:8443'],
    ],
  );
  // Asking once again ends the watch.
  receive(makeMessage('request-state', { watch: false }), { origin: 'https://lms.example:8443' });
  embed.setLink(LINK_B);
  assert.equal(states().length, 4);
  assert.ok(states().every((p) => p.targetOrigin !== '*'));
});

test('nobody but the parent can ask for the state, and an opaque origin cannot be answered', () => {
  const { embed, receive, states } = embedInFrame();
  embed.setLink(LINK_A);
  receive(makeMessage('request-state', { watch: true }), { source: { postMessage() {} }, origin: 'https://evil.example' });
  receive(makeMessage('request-state', { watch: true }), { source: null, origin: 'https://evil.example' });
  receive(makeMessage('request-state', { watch: true }), { origin: 'null' });
  receive({ type: 'request-state' }, { origin: 'https://course.example' }); // not the protocol
  embed.setLink(LINK_B);
  assert.deepEqual(states(), []);
});

test('a request that comes before the first result is answered when the state exists', () => {
  const { embed, receive, states } = embedInFrame();
  receive(makeMessage('request-state'), { origin: 'https://course.example' });
  assert.deepEqual(states(), []);
  embed.setLink(LINK_A);
  assert.deepEqual(
    states().map((p) => [p.data.link, p.targetOrigin]),
    [[LINK_A, 'https://course.example']],
  );
});

// ---- exercise scores: the same rule as the state (createScorePoster: embed-exercise-scores.test.mjs) ----

const SCORE = { exercise: '926aa318', answered: 1, correct: 1, total: 5 };
const scoresOf = (posted) => posted.filter((p) => p.data.type === 'attention-playground:exercise').map((p) => [p.data, p.targetOrigin]);

test('the embed posts no score before its parent asks, then the latest at once and later ones, to that origin', () => {
  const { embed, receive, posted } = embedInFrame();
  embed.postExercise({ ...SCORE, answered: 0, correct: 0 });
  embed.postExercise(SCORE);
  receive(makeMessage('request-state', { watch: true })); // the state's request is not the scores'
  receive(makeMessage('request-height'));
  assert.deepEqual(scoresOf(posted), []);
  receive(makeMessage('request-exercise'), { origin: 'https://course.example' });
  const later = { ...SCORE, answered: 2 };
  embed.postExercise(later);
  assert.deepEqual(scoresOf(posted), [
    [makeMessage('attention-playground:exercise', SCORE), 'https://course.example'],
    [makeMessage('attention-playground:exercise', later), 'https://course.example'],
  ]);
});

test('nobody but the parent can ask for the scores, and an opaque origin cannot be answered', () => {
  const { embed, receive, posted } = embedInFrame();
  embed.postExercise(SCORE);
  receive(makeMessage('request-exercise'), { source: { postMessage() {} }, origin: 'https://evil.example' });
  receive(makeMessage('request-exercise'), { source: null, origin: 'https://evil.example' });
  receive(makeMessage('request-exercise'), { origin: 'null' });
  receive({ type: 'request-exercise' }, { origin: 'https://course.example' }); // not the protocol
  embed.postExercise(SCORE);
  assert.deepEqual(scoresOf(posted), []);
});
