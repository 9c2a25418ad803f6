// Random valid page states for the link tests (share-codec, share-fuzz), from a seeded generator
// so that a failure can be replayed. Every field of the link table must have a generator here:
// share-codec.test.mjs fails when a field is added without one.
import { formatCellRef, MAX_SEED, MAX_SHUFFLE_SEED, sentenceTokens } from '../../web/src/state/schema.js';
import { validateLesson, validateStructure } from '../../web/src/state/validate.js';
import { STEP_IDS } from '../../web/src/lesson/steps.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { ALL_FIELDS, PAGE_PARTS, presetState } from '../../web/src/state/url.js';
import { seededRandom } from '../../web/src/state/random.js';

// The page's seeded generator (state/random.js), with the helpers the tests use.
export function rng(seed) {
  const next = seededRandom(seed);
  next.int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  next.pick = (list) => list[Math.floor(next() * list.length)];
  next.chance = (p) => next() < p;
  return next;
}

// Words that test the escaping: URL syntax, HTML, non-Latin scripts, emoji, the '~' marker.
const WORDS = [
  'Your',
  'journey',
  'starts',
  'with',
  'one',
  'step',
  'The',
  'cat',
  'sat',
  'a&b=c',
  '#d',
  '+e',
  '%f',
  'g;h',
  'i,j',
  '~k',
  '<b>x</b>',
  '"q"',
  "it's",
  '猫',
  '注意力',
  'Straße',
  'café',
  '🙂',
  'x\u0301',
  '$5',
  '?',
  'token',
  'none',
  'v=2',
  '&&',
  '=',
];
const SPACES = [' ', ' ', ' ', '  ', '\t', ' \n '];

function sentence(r) {
  const n = r.int(1, 12);
  let text = r.chance(0.1) ? ' ' : '';
  for (let i = 0; i < n; i += 1) text += (i ? r.pick(SPACES) : '') + r.pick(WORDS);
  return text + (r.chance(0.1) ? ' ' : '');
}

// A number as a link would carry it: typed decimals, exact float32 values, extremes.
function entry(r) {
  switch (r.int(0, 5)) {
    case 0:
      return Number((r() * 4 - 2).toFixed(2));
    case 1:
      return Math.fround(r() * 10 - 5);
    case 2:
      return Math.fround((r() - 0.5) * 1e-6);
    case 3:
      return r.pick([0, 1, -1, 0.5, 1e6, -2.5e-5]);
    case 4:
      return Math.fround((r() - 0.5) * 2e4);
    default:
      return Number((r() * 2 - 1).toFixed(4));
  }
}

// T under the state's tokenization (generated first).
const Tn = (state) => sentenceTokens(state).length;

const matrix = (r, rows, cols) => Array.from({ length: rows }, () => Array.from({ length: cols }, () => entry(r)));
const bools = (r, n, p = 0.3) => Array.from({ length: n }, () => r.chance(p));
const divisorsOf = (n) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

// key → (r, state so far) → value. Fields are generated in table order.
export const GENERATORS = {
  tokenization: (r, s, field) => (r.chance(0.7) ? 'whitespace' : r.pick(field.values)),
  sentence: (r) => sentence(r),
  dModel: (r) => r.int(1, 16),
  heads: (r, s) => r.pick(divisorsOf(s.dModel)),
  mask: (r, s, field) => r.pick(field.values),
  scale: (r) => r.chance(0.5),
  weights: (r, s, field) => r.pick(field.values),
  seed: (r) => (r.chance(0.2) ? r.pick([0, 1, MAX_SEED]) : r.int(0, MAX_SEED)),
  embeddings: (r, s) => (r.chance(0.5) ? null : matrix(r, Tn(s), s.dModel)),
  step: (r) => r.pick(STEP_IDS),
  head: (r, s) => r.int(1, s.heads),
  row: (r, s) => r.int(1, Tn(s)),
  cell: (r, s) => {
    if (r.chance(0.5)) return '';
    const T = Tn(s);
    return r.chance(0.5)
      ? formatCellRef({ name: 'x', row: r.int(0, T - 1), col: r.int(0, s.dModel - 1) })
      : formatCellRef({ name: 'weights', head: r.int(0, s.heads - 1), row: r.int(0, T - 1), col: r.int(0, T - 1) });
  },
  window: (r, s) => r.int(1, Tn(s) + 2),
  prefix: (r, s) => r.int(0, Tn(s)),
  padding: (r, s) => (r.chance(0.5) ? null : bools(r, Tn(s))),
  customMask: (r, s) => {
    const T = Tn(s);
    return s.mask === 'custom' || r.chance(0.2) ? Array.from({ length: T }, () => bools(r, T, 0.4)) : null;
  },
  maskFill: (r, s, field) => r.pick(field.values),
  maskBeforeScale: (r) => r.chance(0.5),
  temperature: (r) => (r.chance(0.5) ? r.pick([1, 0.5, 2, 0.01, 100]) : Number((0.01 + r() * 10).toFixed(3))),
  naive: (r) => r.chance(0.3),
  softmaxOver: (r, s, field) => (r.chance(0.2) ? 'queries' : field.default),
  compare: (r) => r.chance(0.3),
  // Edited weights come as all four or none (validateLesson); wq decides.
  wq: (r, s) => (r.chance(0.3) ? matrix(r, s.dModel, s.dModel) : null),
  wk: (r, s) => (s.wq ? matrix(r, s.dModel, s.dModel) : null),
  wv: (r, s) => (s.wq ? matrix(r, s.dModel, s.dModel) : null),
  wo: (r, s) => (s.wq ? matrix(r, s.dModel, s.dModel) : null),
  // Shared key/value heads need narrower W_K, W_V than the lesson's edited weights: not both.
  kvHeads: (r, s) => (s.wq || r.chance(0.6) ? 0 : r.pick(divisorsOf(s.heads))),
  positional: (r, s, field) => r.pick(field.values),
  // RoPE and ALiBi are self-attention only (validateStructure).
  cross: (r, s) => s.positional !== 'rope' && r.chance(0.3),
  source: (r) => sentence(r),
  sourcePadding: (r, s) => (r.chance(0.6) ? null : bools(r, sentenceTokens({ ...s, sentence: s.source }).length)),
  crossCausal: (r) => r.chance(0.3),
  shuffle: (r) => (r.chance(0.7) ? 0 : r.int(1, MAX_SHUFFLE_SEED)),
  split: (r, s, field) => r.pick(field.values),
  exercise: (r, s) =>
    r.chance(0.7)
      ? ''
      : JSON.stringify({
          questions: [
            { kind: 'number', cell: `weights.1.${r.int(1, Tn(s))}.1` },
            { kind: 'choice', prompt: sentence(r), options: ['a', '“b”'], answer: r.int(0, 1) },
          ],
        }),
  // The Train panel's model: none, a checkpoint, or a config trained some steps (versions 1 and 2).
  train: (r) =>
    r.pick([
      '',
      `${r.pick(['previous', 'induction', 'sort'])}_${r.pick(['', 'v2_'])}ckpt_s${r.int(0, 500)}`,
      `${r.pick(['induction', 'text'])}_v2_T${r.int(2, 128)}_B${r.int(1, 256)}_V${r.pick(['a.b', '%25.%2E.%5F.让.猫', 'ab.c d.?'])}_L${r.int(1, 4)}_H${r.pick([1, 2, 4])}_C${r.pick([8, 16, 32])}_mlp${r.int(0, 1)}_ln${r.int(0, 1)}_pos${r.pick(['none', 'sinusoidal', 'learned'])}_lr${r.pick([0.01, 0.003])}_seed${r.int(0, 99)}_s${r.int(0, 3000)}`,
      `${r.pick(['previous', 'induction', 'reverse', 'sort', 'text'])}_L${r.int(1, 4)}_H${r.pick([1, 2, 4])}_C${r.pick([8, 16, 32])}_mlp${r.int(0, 1)}_ln${r.int(0, 1)}_pos${r.pick(['none', 'sinusoidal', 'learned'])}_lr${r.pick([0.01, 0.003, 0.0005])}_seed${r.int(0, 99)}_s${r.int(0, 3000)}`,
    ]),
  alibi: (r, s) => !s.cross && r.chance(0.3),
  flashRows: (r) => r.int(1, 64),
  flashKeys: (r) => r.int(1, 64),
  flashTile: (r) => r.int(1, 4096),
  kvStep: (r, s) => r.int(1, Tn(s)),
  kvModel: (r, s, field) => r.pick(field.values),
  ropeToken: (r, s) => r.int(1, Tn(s)),
  ropePair: (r) => r.int(1, 512),
  view: (r, s, field) => r.pick(field.values),
  trainLayer: (r, s, field) => r.int(field.min, field.max),
};

/** A random valid state with every field of ALL_FIELDS, fitted as the page would hold it. */
export function randomState(r) {
  const state = {};
  for (const field of ALL_FIELDS) {
    const generate = GENERATORS[field.key];
    if (!generate) throw new Error(`tests/js/share-random.mjs has no generator for the field "${field.key}"`);
    state[field.key] = generate(r, state, field);
  }
  // The lesson's own fitting (e.g. padding with no token marked is null), as the page does.
  const checked = validateLesson(state, {
    T: Tn(state),
    dModel: state.dModel,
    heads: state.heads,
  });
  if (!checked.ok) throw new Error(`random state refused by validateLesson: ${JSON.stringify(checked.error)}`);
  const structure = validateStructure(state, { heads: state.heads, maxTokens: 1024 });
  if (!structure.ok) throw new Error(`random state refused by validateStructure: ${JSON.stringify(structure.error)}`);
  return { ...state, ...checked.lesson, ...structure.fields };
}

/** A random { presetId, state, lang, view } as the page encodes it. */
export function randomPage(r) {
  const presetId = r.pick(Object.keys(PRESETS));
  // Half of the states start from the preset and change a few fields, like real links.
  let state = randomState(r);
  if (r.chance(0.5)) {
    const base = presetState(presetId);
    const keep = new Set(ALL_FIELDS.filter(() => r.chance(0.8)).map((field) => field.key));
    const mixed = { ...state };
    for (const key of keep) mixed[key] = base[key];
    state = fitOrNull(mixed) ?? state;
  }
  const hideable = [...ALL_FIELDS.map((field) => field.key), ...PAGE_PARTS];
  return {
    presetId,
    state,
    lang: r.pick([null, 'en', 'zh-CN']),
    view: { embed: r.chance(0.3), hidden: hideable.filter(() => r.chance(0.1)) },
  };
}

// A mixed state is valid only if its parts still fit each other.
function fitOrNull(state) {
  const T = Tn(state);
  if (state.dModel % state.heads !== 0) return null;
  if (state.embeddings && (state.embeddings.length !== T || state.embeddings[0].length !== state.dModel)) return null;
  if (state.wq && state.wq.length !== state.dModel) return null;
  const checked = validateLesson(state, { T, dModel: state.dModel, heads: state.heads });
  const structure = validateStructure(state, { heads: state.heads, maxTokens: 1024 });
  if (!checked.ok || !structure.ok) return null;
  const fitted = { ...state, ...checked.lesson, ...structure.fields };
  return JSON.stringify(fitted) === JSON.stringify(state) ? fitted : null;
}

// Matrix entries compared as the float32 the engine sees (the link writes the shortest decimal
// of the same float32).
export function asFloat32(state) {
  const out = {};
  for (const [key, value] of Object.entries(state)) {
    out[key] =
      Array.isArray(value) && Array.isArray(value[0]) && typeof value[0][0] === 'number'
        ? value.map((row) => row.map((v) => Math.fround(v) + 0)) // −0 reads back as 0: the same number on the page
        : value;
  }
  return out;
}

// lz-string's URI-safe alphabet: 6 bits per character.
export const LZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';

/**
 * A compression bomb of `chars` characters in lz-string's URI-safe format: one literal `letter`,
 * then codes that each name the dictionary entry being defined (LZW's "KwKwK" case), so the n-th
 * code adds n + 1 letters: 16 384 characters expand to about 33 million. Written bit by bit as
 * lz-string's decompressor reads them (its code widths grow with its dictionary).
 */
export function compressionBomb(chars = 16384, letter = '0') {
  const out = [];
  let value = 0;
  let used = 0;
  const bit = (b) => {
    value = (value << 1) | b;
    used += 1;
    if (used === 6) {
      out.push(LZ_ALPHABET[value]);
      value = 0;
      used = 0;
    }
  };
  const write = (number, width) => {
    for (let k = 0; k < width; k += 1) bit((number >> k) & 1); // least significant bit first
  };
  write(0, 2); // an 8-bit literal
  write(letter.charCodeAt(0), 8);
  let dictSize = 4;
  let numBits = 3;
  let enlargeIn = 4;
  const grow = () => {
    enlargeIn -= 1;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits += 1;
    }
  };
  // Leave room for the end code and the last character.
  while ((out.length * 6 + used + 2 * numBits + 6) / 6 < chars) {
    write(dictSize, numBits);
    dictSize += 1;
    grow();
  }
  write(2, numBits); // end of stream
  while (used !== 0) bit(0);
  return out.join('');
}
