// The largest hostile links, for share-link.test.mjs (the page opens them, says what it could not
// apply and stays usable) and bench/browser/measure-hostile-links.mjs (how long the page's tasks were).
// Chromium takes URLs of up to 2 MiB (url::kMaxURLChars); each link here stays just under.
import { compressionBomb } from '../js/share-random.mjs';

// Every field whose value may be lz-string compressed ('~…'): matrices, bools, bool matrices.
export const COMPRESSED_PARAMS = Object.freeze(['x', 'wq', 'wk', 'wv', 'wo', 'pad', 'cm', 'spad']);

const MAX_URL = 2 * 1024 * 1024;

// n tokens w1 … wn as a link's sentence.
const sentence = (n) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join('+');

/** name → fragment ('#…'), each under Chromium's URL limit with `prefix` (the page's address). */
export function hostileLinks(prefix = 'http://127.0.0.1:65535/dist/index.html') {
  const room = MAX_URL - prefix.length - 64;
  const bomb = compressionBomb();
  const links = {};

  // 2 MB of garbage: random link characters, '&' and '=' and '%' among them (many pairs, bad
  // escapes, unknown names).
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789&&==%~;,.+-_';
  let garbage = '';
  while (garbage.length < room) garbage += chars[Math.floor(random() * chars.length)];
  links['2 MB of garbage'] = `#${garbage}`;

  // 2 MB of valid-looking fields: 1024 tokens, d_model 1024 and X as 1024 × ~1000 zeros (what
  // fits), then every other field.
  const head = `#v=1&s=${sentence(1024)}&d=1024&h=1&x=`;
  const row = Array(1024).fill('0').join(',');
  const rows = [];
  let length = head.length;
  while (length + row.length + 1 < room - 200) {
    rows.push(row);
    length += row.length + 1;
  }
  links['2 MB of valid-looking fields'] = `${head}${rows.join(';')}&mask=custom&tau=0.5&step=softmax&row=3&pos=sinusoidal`;

  // One '~' value of 16 KB that expands to ~28 M characters, and the eight fields that may be
  // compressed each given one.
  links['one ~ field of 16 KB'] = `#v=1&x=~${bomb}`;
  links['eight ~ fields of 16 KB'] =
    `#v=1&s=${sentence(1024)}&d=1024&h=1&mask=custom&cross=1&${COMPRESSED_PARAMS.map((p) => `${p}=~${bomb}`).join('&')}`;

  // Many '~' fields: the same bomb under every name a link can hold, repeated until 2 MB.
  const names = [...COMPRESSED_PARAMS];
  const parts = [];
  length = 1;
  for (let k = 0; length + bomb.length + 16 < room; k += 1) {
    const part = `${k < names.length ? names[k] : `${names[k % names.length]}`}=~${bomb}`;
    parts.push(part);
    length += part.length + 1;
  }
  links['2 MB of ~ fields'] = `#${parts.join('&')}`;

  // Huge token lists: a sentence of 1 024 tokens of the longest kind (each ~1 900 characters:
  // 2 MB), one of 20 000 one-letter tokens (the most characters a sentence may have), and one
  // million tokens (2 MB of 'a+').
  const longToken = 'a'.repeat(Math.floor(room / 1024) - 2);
  links['1024 tokens of 2 KB'] = `#v=1&s=${Array(1024).fill(longToken).join('+')}`;
  links['10 000 tokens'] = `#v=1&s=${Array(10000).fill('a').join('+')}`;
  links['1 M tokens'] = `#v=1&s=${'a+'.repeat(Math.floor(room / 2))}`;
  links['1024 tokens in characters'] = `#v=1&tok=char&s=${'猫'.repeat(1024)}&d=1024&h=1024`;

  for (const [name, link] of Object.entries(links)) {
    if (prefix.length + link.length > MAX_URL) throw new Error(`${name}: ${prefix.length + link.length} characters`);
  }
  return links;
}
