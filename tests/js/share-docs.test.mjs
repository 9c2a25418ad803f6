// The documentation of links and embeds (docs/link-schema.md, docs/embedding.md) cannot drift:
// every field is in the table, every example link opens without a complaint, and the messages
// quoted for broken links are the ones the page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { createTranslator } from '../../web/src/i18n/index.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { ALL_FIELDS, decodeHash, PAGE_PARTS } from '../../web/src/state/url.js';

const schema = readFileSync(new URL('../../docs/link-schema.md', import.meta.url), 'utf8');
const embedding = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
const section = (text, title) => text.split(`## ${title}`)[1].split('\n## ')[0];

test('the schema lists every field of the link table', () => {
  for (const field of ALL_FIELDS) assert.match(schema, new RegExp(`\`${field.param}\``), field.param);
  for (const part of PAGE_PARTS) assert.match(schema, new RegExp(`\`${part}_hide\``), part);
});

test('the example links open without a complaint', () => {
  const links = [...section(schema, 'Examples').matchAll(/`(#[^`]+)`/g)].map((m) => m[1]);
  links.push(...[...embedding.matchAll(/index\.html(#[^\s"]+)/g)].map((m) => m[1].replace(/&amp;/g, '&')));
  assert.ok(links.length >= 8);
  for (const link of links) assert.deepEqual(decodeHash(link).ignored, [], link);
});

test('the quoted messages for broken links are the page’s', () => {
  const t = createTranslator('en');
  const quoted = [...section(schema, 'Links that cannot be used as they are').matchAll(/- `(#[^`]+)` → "([^"]+)"/g)];
  assert.ok(quoted.length >= 4);
  for (const [, link, message] of quoted) {
    const shown = decodeHash(link).ignored.map((item) => t(item.key, item.params));
    assert.deepEqual(shown, [message.replace(/\s*\n\s*/g, ' ')], link);
  }
});

test('the presets named for the custom element exist', () => {
  const row = embedding.split('\n').find((line) => line.startsWith('| `preset` |'));
  for (const [, id] of row.matchAll(/`(\w+)`/g)) if (id !== 'preset') assert.ok(Object.hasOwn(PRESETS, id), id);
});
