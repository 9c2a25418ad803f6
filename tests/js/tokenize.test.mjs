// tokenize(), exported with createAttention: whitespace, characters and Intl.Segmenter words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenize } from '../../web/src/engine/attention.js';

test('whitespace splits at runs of white space', () => {
  assert.deepEqual(tokenize('  Your journey\tstarts\n with  '), ['Your', 'journey', 'starts', 'with']);
  assert.deepEqual(tokenize('   '), []);
});

test('char keeps grapheme clusters whole and drops spaces', () => {
  assert.deepEqual(tokenize('猫 坐', 'char'), ['猫', '坐']);
  assert.deepEqual(tokenize('e\u0301t👍🏽', 'char'), ['e\u0301', 't', '👍🏽']);
});

test('word segments Chinese text without spaces into words', () => {
  const tokens = tokenize('我爱自然语言处理', 'word', 'zh-CN');
  assert.equal(tokens.join(''), '我爱自然语言处理');
  assert.ok(tokens.length >= 3 && tokens.length < 8, `got ${tokens.join(' | ')}`);
  assert.ok(tokens.includes('自然') || tokens.includes('自然语言'), `got ${tokens.join(' | ')}`);
  assert.deepEqual(tokenize('The cat sat.', 'word', 'en'), ['The', 'cat', 'sat', '.']);
});

test('an unknown mode is a named error', () => {
  assert.throws(() => tokenize('a b', 'bpe'), /unknown tokenize mode "bpe"/);
});
