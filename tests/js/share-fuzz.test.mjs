// Hostile links are harmless: thousands of random and mutated links go through the decoder. It
// never throws, and what it opens is always a state the page accepts and the engine computes.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';

import { createAttention } from '../../web/src/engine/attention.js';
import { validateLesson } from '../../web/src/state/validate.js';
import { tokenize } from '../../web/src/state/parse.js';
import { ALL_FIELDS, decodeHash, encodeHash, LIMITS } from '../../web/src/state/url.js';
import { validateDraft } from '../../web/src/state/validate.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { FROZEN_LINKS } from './share-frozen-links.mjs';
import LZString from 'lz-string';

import { asFloat32, compressionBomb, LZ_ALPHABET, randomPage, rng } from './share-random.mjs';

let engine;
before(async () => {
  engine = await createAttention();
});

const PARAMS = ['v', 'preset', 'lang', 'embed', ...ALL_FIELDS.map((f) => f.param), 'heads_hide', 'prose_hide', 'x_hide'];
const JUNK = [
  '',
  '0',
  '-1',
  '1e999',
  '-0',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '~',
  '~~',
  '~N4Ig',
  '%',
  '%zz',
  '%00',
  '%E2%82',
  '<script>alert(1)</script>',
  'javascript:alert(1)',
  '__proto__',
  'constructor',
  ';;;',
  ',,,',
  '1,2;3',
  '0.0.0',
  '...',
  '1'.repeat(300),
  '\u0000',
  '😀',
  '猫',
  '0x10',
  ' 1 ',
  '+1',
  '1.5',
  '2e3',
  'token',
  'none',
  'custom',
  'window',
  '-inf',
  '-1e9',
];
const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789=&#%~;,.+-_ ~$!*()\'"<>猫🙂\u0000\t\n';

function randomLink(r) {
  const parts = [];
  const n = r.int(0, 12);
  for (let i = 0; i < n; i += 1) {
    const name = r.chance(0.8) ? r.pick(PARAMS) : randomText(r, r.int(0, 8));
    const value = r.chance(0.5) ? r.pick(JUNK) : randomText(r, r.int(0, 24));
    parts.push(r.chance(0.1) ? name : `${name}=${r.chance(0.5) ? encodeURIComponent(value) : value}`);
  }
  return `#${parts.join('&')}`;
}

function randomText(r, length) {
  let text = '';
  for (let i = 0; i < length; i += 1) text += r.pick([...CHARS]);
  return text;
}

// One edit of a real link: characters dropped, inserted or replaced; a value swapped for junk;
// a pair repeated or moved; the link cut short.
function mutate(r, link) {
  const pairs = link.replace(/^#/, '').split('&').filter(Boolean);
  switch (r.int(0, 7)) {
    case 0: {
      const at = r.int(0, link.length);
      return link.slice(0, at) + link.slice(at + r.int(1, 8));
    }
    case 1: {
      const at = r.int(0, link.length);
      return link.slice(0, at) + randomText(r, r.int(1, 6)) + link.slice(at);
    }
    case 2: {
      const at = r.int(1, Math.max(1, link.length - 1));
      return link.slice(0, at) + r.pick([...CHARS]) + link.slice(at + 1);
    }
    case 3: {
      if (!pairs.length) return link;
      const i = r.int(0, pairs.length - 1);
      pairs[i] = `${pairs[i].split('=')[0]}=${r.pick(JUNK)}`;
      return `#${pairs.join('&')}`;
    }
    case 4: {
      if (!pairs.length) return link;
      pairs.push(r.pick(pairs));
      return `#${pairs.join('&')}`;
    }
    case 5: {
      if (pairs.length < 2) return link;
      const [a, b] = [r.int(0, pairs.length - 1), r.int(0, pairs.length - 1)];
      const [na, va] = pairs[a].split(/=(.*)/s);
      const [nb, vb] = pairs[b].split(/=(.*)/s);
      pairs[a] = `${na}=${vb ?? ''}`;
      pairs[b] = `${nb}=${va ?? ''}`;
      return `#${pairs.join('&')}`;
    }
    case 6:
      return link.slice(0, r.int(0, link.length));
    default:
      return `${link}&${r.pick(PARAMS)}=${r.pick(JUNK)}`;
  }
}

// The page's checks and the engine's, on a decoded state.
function assertUsable(decoded, link) {
  const { state } = decoded;
  const where = `link ${JSON.stringify(link).slice(0, 300)}`;
  const checked = validateDraft(decoded.draft, LIMITS);
  assert.equal(checked.ok, true, `${where}: ${JSON.stringify(checked.error)}`);
  const T = tokenize(state.sentence).length;
  const lesson = validateLesson(state, { T, dModel: state.dModel, heads: state.heads });
  assert.equal(lesson.ok, true, `${where}: ${JSON.stringify(lesson.error)}`);
  assert.doesNotThrow(() => engine.compute(engineConfigOf(state)), where);
  // What the page writes back opens the same, with nothing to complain about.
  const again = decodeHash(encodeHash({ presetId: decoded.presetId, state, lang: decoded.lang, view: decoded.view }));
  assert.deepEqual(again.ignored, [], where);
  assert.deepEqual(asFloat32(again.state), asFloat32(state), where);
}

test('random links never throw and always open a usable state', () => {
  const r = rng(1);
  for (let i = 0; i < 2500; i += 1) {
    const link = randomLink(r);
    let decoded;
    assert.doesNotThrow(() => {
      decoded = decodeHash(link);
    }, link);
    assertUsable(decoded, link);
  }
});

test('mutated real links never throw and always open a usable state', () => {
  const r = rng(2);
  const seeds = [...FROZEN_LINKS.map((item) => item.link)];
  for (let i = 0; i < 40; i += 1) seeds.push(encodeHash(randomPage(r)));
  for (let i = 0; i < 2500; i += 1) {
    let link = r.pick(seeds);
    for (let k = r.int(1, 4); k > 0; k -= 1) link = mutate(r, link);
    let decoded;
    assert.doesNotThrow(() => {
      decoded = decodeHash(link);
    }, link);
    assertUsable(decoded, link);
  }
});

test('values at and past every limit are clamped or refused, never passed on', () => {
  const links = [
    `#d=${LIMITS.maxDModel}`,
    `#d=${LIMITS.maxDModel + 1}&h=${LIMITS.maxDModel}`,
    `#seed=${2 ** 32}`,
    `#seed=-5`,
    `#tau=1e-9&win=1e12&pre=1e3&head=0&row=0`,
    `#s=${Array.from({ length: LIMITS.maxTokens }, (_, i) => `w${i}`).join('+')}&d=2&h=2`,
    `#x=${Array.from({ length: 6 }, () => Array(6).fill('3.4e38').join(',')).join(';')}`,
    `#x=${Array.from({ length: 6 }, () => Array(6).fill('3.5e38').join(',')).join(';')}`,
    `#x=${Array.from({ length: 6 }, () => Array(6).fill('-1000001').join(',')).join(';')}`,
    `#preset=journey&s=a+b&d=2&x=1,0;0,1&wq=1e7,2;3,4&wk=0.5,0;0,0.5&wv=1,0;0,1&wo=0,1;1,0`,
    `#mask=custom&cm=1.1`,
    `#mask=custom&cm=111111.111111.111111.111111.111111.111111`,
    `#pad=111111&fill=0`,
    `#naive=1&x=${Array.from({ length: 6 }, () => Array(6).fill('100').join(',')).join(';')}`,
    // Found by the fuzz: a token longer than the engine's 1 024 bytes (the mutation ran numbers
    // together into one), in the sentence and in the source.
    `#s=${'7'.repeat(LIMITS.maxTokenBytes + 1)}`,
    `#s=a+${'猫'.repeat(342)}`,
    `#cross=1&src=${'x'.repeat(LIMITS.maxTokenBytes + 1)}`,
  ];
  for (const link of links) assertUsable(decodeHash(link), link);
});

// Compressed values ('~…') as an attacker or a broken copy makes them: random text of the
// alphabet, real values cut short or with a character changed, values of the wrong kind or shape,
// and compression bombs (16 KB that expand to 33 million characters) in every field that may be
// compressed, several at once.
const COMPRESSIBLE = ALL_FIELDS.filter((field) => ['matrix', 'bools', 'boolMatrix'].includes(field.kind)).map((field) => field.param);

function hostileCompressed(r) {
  const lz = (text) => `~${LZString.compressToEncodedURIComponent(text)}`;
  const real = lz(Array.from({ length: 6 }, () => Array.from({ length: 6 }, () => (r() * 4 - 2).toFixed(2)).join(',')).join(';'));
  switch (r.int(0, 7)) {
    case 0:
      return `~${Array.from({ length: r.int(0, 3000) }, () => r.pick([...LZ_ALPHABET])).join('')}`;
    case 1:
      return real.slice(0, r.int(1, real.length));
    case 2: {
      const at = r.int(1, real.length - 1);
      return real.slice(0, at) + r.pick([...`${LZ_ALPHABET}%~ `]) + real.slice(at + 1);
    }
    case 3:
      return lz(r.pick(['0', '1', ';', ',', '.', '0.5', 'NaN', '1e999', '', '猫']).repeat(r.int(1, 5000)));
    case 4:
      return lz(
        Array.from({ length: r.int(1, 40) }, () =>
          Array.from({ length: r.int(1, 40) }, () => r.pick(['0', '1', '-3.5', '1e6', '2e6'])).join(','),
        ).join(';'),
      );
    case 5:
      return `~${compressionBomb(r.int(2, 16384), r.pick(['0', '1', ',', '9']))}`;
    case 6:
      return `~${compressionBomb(LIMITS.maxCompressed + r.int(1, 10))}`; // past the packed limit
    default:
      return real;
  }
}

test('hostile compressed values never throw, never expand past their field, and open a usable state', () => {
  const r = rng(3);
  for (let i = 0; i < 300; i += 1) {
    const fields = Array.from({ length: r.int(1, 8) }, () => `${r.pick(COMPRESSIBLE)}=${hostileCompressed(r)}`);
    const head = r.pick([
      '',
      'preset=journey&',
      's=a+b+c+d+e+f&d=6&',
      'mask=custom&cross=1&',
      `s=${Array.from({ length: 64 }, (_, k) => `w${k}`).join('+')}&d=64&h=4&`,
    ]);
    const link = `#${head}${fields.join('&')}`;
    let decoded;
    assert.doesNotThrow(
      () => {
        decoded = decodeHash(link);
      },
      link.slice(0, 200),
    );
    assertUsable(decoded, link);
  }
  // Eight bombs at once, with the most tokens and the widest d_model: each is refused by its
  // limit (the most characters its value can have), not read to its end.
  const bomb = `~${compressionBomb()}`;
  const sentence = Array.from({ length: LIMITS.maxTokens }, (_, k) => `w${k}`).join('+');
  const link = `#s=${sentence}&d=${LIMITS.maxDModel}&h=1&mask=custom&cross=1&${COMPRESSIBLE.map((param) => `${param}=${bomb}`).join('&')}`;
  const { ignored } = decodeHash(link);
  for (const param of COMPRESSIBLE) {
    const said = ignored.find((item) => item.param === param);
    assert.equal(said?.key, 'share.ignored.expands', `${param}: ${JSON.stringify(said)}`);
    assert.ok(said.params.max >= 1 && said.params.max <= LIMITS.maxEntries * 18, `${param}: ${said.params.max}`);
  }
});
