// The two dictionaries are complete and consistent, and every key the page uses exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { DICTIONARIES, LANGUAGES, createTranslator, fill, pickLanguage, placeholders, subscript, superscript } from '../../web/src/i18n/index.js';
import { PAGE_PARTS } from '../../web/src/state/schema.js';

const root = new URL('../../', import.meta.url).pathname;

test('the languages are English and Simplified Chinese', () => {
  assert.deepEqual([...LANGUAGES].sort(), ['en', 'zh-CN']);
});

test('both dictionaries have the same keys', () => {
  const en = Object.keys(DICTIONARIES.en).sort();
  const zh = Object.keys(DICTIONARIES['zh-CN']).sort();
  assert.deepEqual(
    zh.filter((k) => !en.includes(k)),
    [],
    'keys only in zh-CN',
  );
  assert.deepEqual(
    en.filter((k) => !zh.includes(k)),
    [],
    'keys only in en',
  );
});

test('no text is empty', () => {
  for (const lang of LANGUAGES) {
    for (const [key, value] of Object.entries(DICTIONARIES[lang])) {
      assert.equal(typeof value, 'string', `${lang} ${key}`);
      assert.ok(value.trim().length > 0, `${lang} ${key} is empty`);
    }
  }
});

test('both translations of a text take the same {placeholders}', () => {
  for (const key of Object.keys(DICTIONARIES.en)) {
    assert.deepEqual(placeholders(DICTIONARIES['zh-CN'][key]), placeholders(DICTIONARIES.en[key]), key);
  }
});

test('the Chinese dictionary is written in Chinese', () => {
  // Symbols and language names may coincide; sentences must not be left in English.
  const zh = DICTIONARIES['zh-CN'];
  for (const key of ['app.title', 'app.subtitle', 'error.noTokens', 'error.headsDivide', 'step.weights']) {
    assert.match(zh[key], /[\u4e00-\u9fff]/, key);
  }
});

// The course writes "token" in its Chinese text: one word for it throughout, as the lesson does.
test('the Chinese dictionary says "token" as the course does, never 词元', () => {
  const found = Object.entries(DICTIONARIES['zh-CN']).filter(([, text]) => text.includes('词元'));
  assert.deepEqual(
    found.map(([key]) => key),
    [],
  );
});

// Every key written in the page (data-i18n…) or in the source (t('…'), *Key: '…') exists.
function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'engine' ? [] : sourceFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

test('every key used by the page and the code is in the dictionaries', () => {
  const used = new Set();
  const html = readFileSync(join(root, 'web/index.html'), 'utf8');
  for (const m of html.matchAll(/data-i18n(?:-title|-aria)?="([^"]+)"/g)) used.add(m[1]);
  for (const file of sourceFiles(join(root, 'web/src'))) {
    if (file.includes('/i18n/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\(\s*'([\w.-]+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/\b(?:key|labelKey|noteKey):\s*'([\w-]+\.[\w.-]+)'/g)) used.add(m[1]);
  }
  assert.ok(used.size > 30, `found only ${used.size} keys; the scan is broken`);
  for (const key of used) assert.ok(Object.hasOwn(DICTIONARIES.en, key), `missing key ${key}`);
});

test('the translator fills placeholders and falls back to English, then to the key', () => {
  const t = createTranslator('zh-CN');
  assert.equal(t('controls.tokens', { T: 6 }), 'token（按空格切分）：T = 6');
  assert.equal(createTranslator('en')('error.tooManyTokens', { T: 2000, max: 1024 }), 'Too many tokens: 2000. The engine takes at most 1024.');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(createTranslator('fr')('app.title'), DICTIONARIES.en['app.title']);
  assert.equal(fill('{a} and {b}', { a: 1 }), '1 and {b}');
});

test('the language is picked from the browser preferences', () => {
  assert.equal(pickLanguage(['zh-TW', 'en']), 'zh-CN');
  assert.equal(pickLanguage(['zh-Hans-CN']), 'zh-CN');
  assert.equal(pickLanguage(['de-DE', 'en-GB']), 'en');
  assert.equal(pickLanguage(['fr']), 'en');
  assert.equal(pickLanguage([]), 'en');
});

test('head numbers become superscripts and subscripts', () => {
  assert.equal(superscript(12), '⁽¹²⁾');
  assert.equal(subscript(3), '₃');
});

// Feature texts live in their own files (web/src/i18n/<feature>-<lang>.js), merged by index.js:
// each pair is complete in both languages, merged, and replaces nothing of the base dictionary.
const FEATURE_DICTIONARIES = [
  ['lesson', ['step.softmax.caption', 'mask.note.fillZero', 'lab.note.overflow', 'explain.row.allMasked', 'remark.cat', 'preset.padding.note']],
  ['heads', ['heads.split.title', 'heads.cross.caption', 'heads.shuffle.noneSame', 'heads.tok.word']],
  ['perf', ['perf.heading', 'perf.sweepDone', 'progress.computing', 'progress.cancelled']],
];
for (const [feature, sampleKeys] of FEATURE_DICTIONARIES) {
  test(`the ${feature} dictionaries are complete in both languages and override nothing`, async () => {
    const { default: featureEn } = await import(`../../web/src/i18n/${feature}-en.js`);
    const { default: featureZh } = await import(`../../web/src/i18n/${feature}-zh-CN.js`);
    const { default: baseEn } = await import('../../web/src/i18n/en.js');
    assert.deepEqual(Object.keys(featureZh).sort(), Object.keys(featureEn).sort());
    for (const key of Object.keys(featureEn)) {
      assert.deepEqual(placeholders(featureZh[key]), placeholders(featureEn[key]), key);
      assert.equal(DICTIONARIES.en[key], featureEn[key], `${key} is merged`);
      assert.equal(DICTIONARIES['zh-CN'][key], featureZh[key], `${key} is merged`);
      assert.ok(!Object.hasOwn(baseEn, key), `${key} would replace a text of en.js`);
    }
    for (const key of sampleKeys) assert.match(featureZh[key], /[\u4e00-\u9fff]/, key);
  });
}

// The embed panel offers to hide every control the page marks (data-field) and every part of the
// page: each is offered by its name in both languages, never by its key.
test('every part the embed panel can hide has a name in both languages', () => {
  const marked = new Set(['sentence', 'tokenization', 'dModel', 'heads', 'mask', 'scale', 'weights', 'seed', 'embeddings']); // share/hide.js CONTROLS
  const html = readFileSync(join(root, 'web/index.html'), 'utf8');
  for (const m of html.matchAll(/data-field="([^"]+)"/g)) marked.add(m[1]);
  for (const file of sourceFiles(join(root, 'web/src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/dataset: \{ field: '(\w+)' \}/g)) marked.add(m[1]);
  }
  assert.ok(marked.has('split') && marked.has('perf'), 'the scan of data-field is broken');
  const keys = [
    ...[...marked].filter((name) => !PAGE_PARTS.includes(name)).map((name) => `embed.field.${name}`),
    ...PAGE_PARTS.map((part) => `embed.part.${part}`),
  ];
  for (const lang of LANGUAGES) for (const key of keys) assert.ok(Object.hasOwn(DICTIONARIES[lang], key), `${lang}: no name for ${key}`);
});

// A count that can be 1 is not followed by a plural noun ("1 heads", "1 matrices"): those texts
// name the count as the lesson does (h = 1).
test('no count reads "1 heads", "1 tokens", "1 columns" or the like, and a count of 6 is plural', () => {
  // Counts of at least 2, or past a limit (a table cut, a large input).
  const neverOne = new Set([
    'error.headsDivide',
    'share.ignored.heads',
    'heads.split.moreHeads',
    'heads.kv.gqa',
    'heads.kv.mqa',
    'embeddings.window',
    'legend.truncated',
    'heads.cut',
    'share.ignored.tokens',
    'heads.tokens.cut',
    'progress.computing',
    'heads.shuffle.noneChanged',
    'heads.shuffle.sinChanged',
    'modern.kv.context',
    'modern.kv.contextWindow',
  ]);
  for (const [key, text] of Object.entries(DICTIONARIES.en)) {
    if (neverOne.has(key)) continue;
    const params = Object.fromEntries(placeholders(text).map((name) => [name, 1]));
    assert.doesNotMatch(fill(text, params), /\b1 (?:[\w/-]+ )?(?:heads|matrices|tokens|rows|columns|numbers|terms|positions|head\(s\))\b/, key);
  }
  assert.equal(fill('T = {T} {T|token|tokens}', { T: 6 }), 'T = 6 tokens');
  assert.equal(fill('T = {T} {T|token|tokens}', { T: 1 }), 'T = 1 token');
});
