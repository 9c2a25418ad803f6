// The link's own lz-string reader and writer (web/src/state/lz-bounded.js): the same characters
// as lz-string both ways, and bounded: a value that expands past its limit is refused as soon as
// it does, a compression that cannot fit stops early, and no input makes either throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import LZString from 'lz-string';

import { compressBounded, compressSteps, decompressBounded, decompressSteps } from '../../web/src/state/lz-bounded.js';
import { compressionBomb, LZ_ALPHABET, rng } from './share-random.mjs';

// Texts like a link's values: matrices of typed and float32 numbers, bools, other scripts.
function randomText(r) {
  const alphabets = ['0123456789.,;-e', '01', '01.', '0', 'ab猫🙂\u0000\uffff;', 'abcdefghijklmnopqrstuvwxyz'];
  const alphabet = [...r.pick(alphabets)];
  let text = '';
  for (let n = Math.floor(r() ** 3 * 6000); n > 0; n -= 1) text += r.pick(alphabet);
  return text;
}

test('compressing writes what lz-string writes, and reading reads it back', () => {
  const r = rng(11);
  for (let k = 0; k < 1500; k += 1) {
    const text = randomText(r);
    const packed = LZString.compressToEncodedURIComponent(text);
    assert.equal(compressBounded(text), packed, JSON.stringify(text.slice(0, 60)));
    if (text.length > 0) assert.deepEqual(decompressBounded(packed, text.length), { ok: true, text });
    // A matrix's rows, never joined, compress as their joined text.
    const rows = text.split(';');
    assert.equal(compressBounded(rows, Infinity, ';'), packed);
  }
  // lz-string reads a space as '+' (a link's '+' arrives as a space once unescaped).
  let sample;
  do sample = randomText(r);
  while (sample.length === 0 || !LZString.compressToEncodedURIComponent(sample).includes('+'));
  const spaced = LZString.compressToEncodedURIComponent(sample).replace(/\+/g, ' ');
  assert.deepEqual(decompressBounded(spaced, sample.length), { ok: true, text: sample });
});

test('a value that expands past its limit is refused as soon as it does', () => {
  // 16 KB that expand to 33 million characters.
  const bomb = compressionBomb();
  assert.equal(bomb.length, 16383);
  assert.deepEqual(decompressBounded(bomb, 1_000_000), { ok: false, reason: 'tooLong' });
  assert.deepEqual(decompressBounded(compressionBomb(200), 100), { ok: false, reason: 'tooLong' });
  // The work is bounded by the limit, not by the expansion: steps stop with it.
  let steps = 0;
  const reading = decompressSteps(bomb, 1 << 20);
  for (let next = reading.next(); !next.done; next = reading.next()) steps += 1;
  assert.ok(steps <= 16, `${steps} steps for 1 M characters`);
  // Exactly at the limit is fine.
  const text = '0123456789'.repeat(1000);
  const packed = LZString.compressToEncodedURIComponent(text);
  assert.deepEqual(decompressBounded(packed, text.length), { ok: true, text });
  assert.deepEqual(decompressBounded(packed, text.length - 1), { ok: false, reason: 'tooLong' });
});

test('compressing stops once the output cannot fit', () => {
  const r = rng(12);
  const numbers = Array.from({ length: 200_000 }, () => (r() * 2 - 1).toFixed(4)).join(',');
  assert.equal(compressBounded(numbers, 16384), null);
  let steps = 0;
  const writing = compressSteps(numbers, 16384);
  for (let next = writing.next(); !next.done; next = writing.next()) steps += 1;
  assert.ok(steps <= 2, `${steps} steps`); // it gave up within the first 64 K characters
  // What fits is the same as lz-string's.
  const zeros = Array(1024).fill(Array(1024).fill('0').join(',')).join(';');
  assert.equal(compressBounded(zeros, 16384), LZString.compressToEncodedURIComponent(zeros));
});

test('any text at all is read without throwing: malformed, truncated, mutated', () => {
  const r = rng(13);
  const real = LZString.compressToEncodedURIComponent('0.43,0.15,0.89;0.55,0.87,0.66;'.repeat(40));
  const inputs = ['', 'A', '~', '%', '猫', 'Q', 'BA', '$$$$', real.slice(0, 10), `${real}A`, real.replace(/[A-F]/g, 'z')];
  for (let k = 0; k < 3000; k += 1) {
    const kind = r.int(0, 3);
    if (kind === 0) inputs.push(Array.from({ length: r.int(1, 400) }, () => r.pick([...LZ_ALPHABET])).join(''));
    else if (kind === 1) inputs.push(real.slice(0, r.int(1, real.length)));
    else if (kind === 2) {
      const at = r.int(0, real.length - 1);
      inputs.push(real.slice(0, at) + r.pick([...`${LZ_ALPHABET} !~猫`]) + real.slice(at + 1));
    } else inputs.push(compressionBomb(r.int(2, 3000), r.pick(['0', '1', ';', '猫'])));
  }
  for (const input of inputs) {
    const read = decompressBounded(input, 100_000);
    assert.ok(
      read.ok ? typeof read.text === 'string' && read.text.length <= 100_000 : ['tooLong', 'malformed'].includes(read.reason),
      input.slice(0, 60),
    );
    // When lz-string reads a text (and it is not too long), this reads the same.
    if (read.ok) assert.equal(read.text, LZString.decompressFromEncodedURIComponent(input));
  }
});
