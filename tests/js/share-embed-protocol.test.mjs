// The postMessage protocol of embeds (web/src/embed/protocol.js, docs/embedding.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { decodeHash } from '../../web/src/state/url.js';
import { embedFragment, makeMessage, MESSAGE_TYPES, PROTOCOL, readMessage, safeLink } from '../../web/src/embed/protocol.js';

test('messages are tagged with the protocol and its version', () => {
  assert.deepEqual(makeMessage('resize', { height: 612.2 }), { protocol: PROTOCOL, version: 1, type: 'resize', height: 613 });
  assert.deepEqual(makeMessage('request-height'), { protocol: PROTOCOL, version: 1, type: 'request-height' });
  assert.deepEqual(MESSAGE_TYPES, ['ready', 'resize', 'state', 'request-height']);
  assert.throws(() => makeMessage('eval'), /unknown message type/);
});

test('what makeMessage writes, readMessage reads', () => {
  const link = 'https://example.org/playground/index.html#preset=journey';
  assert.deepEqual(readMessage(makeMessage('ready', { height: 300, link })), { type: 'ready', height: 300, link });
  assert.deepEqual(readMessage(makeMessage('state', { link })), { type: 'state', link });
  assert.deepEqual(readMessage(makeMessage('request-height')), { type: 'request-height' });
  // A later version may add fields: they are ignored.
  assert.deepEqual(readMessage({ ...makeMessage('resize', { height: 10 }), version: 2, extra: [1] }), { type: 'resize', height: 10 });
});

test('anything else is not a message of ours, and nothing throws', () => {
  const throwing = new Proxy({}, { get() { throw new Error('boom'); } });
  const bad = [
    undefined, null, 0, 'resize', [], {}, throwing,
    { protocol: 'other', version: 1, type: 'resize', height: 1 },
    { protocol: PROTOCOL, version: 0, type: 'resize', height: 1 },
    { protocol: PROTOCOL, version: '1', type: 'resize', height: 1 },
    { protocol: PROTOCOL, version: 1, type: 'eval', height: 1 },
    { protocol: PROTOCOL, version: 1, type: 'resize' },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: -1 },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: Infinity },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: 1e9 },
    { protocol: PROTOCOL, version: 1, type: 'resize', height: '100' },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 'javascript:alert(1)' },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 'data:text/html,<script>1</script>' },
    { protocol: PROTOCOL, version: 1, type: 'state', link: 42 },
    { protocol: PROTOCOL, version: 1, type: 'ready', height: 10, link: 'not a url' },
  ];
  bad.forEach((data, i) => assert.equal(readMessage(data), null, `case ${i}`));
  assert.equal(safeLink('file:///tmp/a.html#v=1'), 'file:///tmp/a.html#v=1');
  assert.equal(safeLink('JAVASCRIPT:alert(1)'), null);
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
