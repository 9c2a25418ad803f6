// lz-string's URI-safe format (lz-string 1.5: compressToEncodedURIComponent and
// decompressFromEncodedURIComponent), with bounds on what each side writes and in steps that a
// caller can spread over several tasks. lz-string itself has neither:
// - decompressing: its dictionary entries may each be one character longer than the last, so
//   16 KB of link expand to tens of millions of characters (seconds, hundreds of MB) before it
//   returns;
// - compressing: it looks up every new string in an object by its whole text (1.5 s for the
//   2 MB text of a 1 024 × 1 024 matrix of zeros), and cannot stop once the output is too long
//   to be used.
// The format: LZW codes of growing width, 6 bits per character of the alphabet below (a code's
// least significant bit first); code 0 or 1 brings a new 8- or 16-bit character, 2 ends the
// stream. tests/js/lz-bounded.test.mjs checks both sides against lz-string.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i += 1) VALUE[ALPHABET.charCodeAt(i)] = i;

// A step generator yields every this many characters read or written (a few milliseconds).
const STEP_CHARS = 1 << 16;

/** Runs a step generator (below) to its end; → its value. */
export function runSteps(steps) {
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

/**
 * Decompresses lz-string's URI-safe text (a space reads as '+', as lz-string does) in steps,
 * stopping as soon as the output would pass maxChars. Never throws.
 * → { ok: true, text } | { ok: false, reason: 'tooLong' } | { ok: false, reason: 'malformed' }
 * The dictionary holds each entry as (the entry it extends, one character): reading a value that
 * is too long costs the codes read, not the characters they stand for, and the text is written
 * out only once it is known to fit.
 */
export function* decompressSteps(packed, maxChars) {
  const input = String(packed);
  const length = input.length;
  let index = 0;
  let value = 0;
  let position = 0; // the bit of `value` read next; 0: take the next character first
  let broken = false;
  const readBits = (count) => {
    let bits = 0;
    for (let power = 0; power < count; power += 1) {
      if (position === 0) {
        const code = index < length ? input.charCodeAt(index++) : -1;
        value = code === 32 ? VALUE[43] : code >= 0 && code < 128 ? VALUE[code] : -1;
        if (value < 0) {
          broken = true; // past the end, or not of the alphabet: not lz-string's output
          return 0;
        }
        position = 32;
      }
      if (value & position) bits |= 1 << power;
      position >>= 1;
    }
    return bits;
  };
  // Entry k: the entry it extends (-1: none), its last character, its first, its length.
  const prefix = [-1, -1, -1];
  const last = [0, 0, 0];
  const first = [0, 0, 0];
  const size = [0, 0, 0];
  const add = (from, char) => {
    prefix.push(from);
    last.push(char);
    first.push(from < 0 ? char : first[from]);
    size.push(from < 0 ? 1 : size[from] + 1);
    return prefix.length - 1;
  };

  const kind = readBits(2);
  if (broken || kind > 1) return MALFORMED;
  let w = add(-1, readBits(kind === 0 ? 8 : 16));
  if (broken) return MALFORMED;
  const codes = [w];
  let total = 1;
  let enlargeIn = 4;
  let numBits = 3;
  if (total > maxChars) return TOO_LONG;
  for (;;) {
    let code = readBits(numBits);
    if (broken) return MALFORMED;
    if (code === 2) break;
    if (code < 2) {
      const char = readBits(code === 0 ? 8 : 16);
      if (broken) return MALFORMED;
      code = add(-1, char);
      if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
    } else if (code > prefix.length) return MALFORMED;
    // (code === the next entry: LZW's case of the entry being defined, w + w's first character)
    add(w, code < prefix.length ? first[code] : first[w]);
    total += size[code];
    if (total > maxChars) return TOO_LONG;
    codes.push(code);
    w = code;
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
    if (codes.length % STEP_CODES === 0) yield;
  }
  // It fits: write the text, each entry from its end back along the entries it extends.
  const units = new Uint16Array(total);
  let end = 0;
  let written = 0;
  for (const code of codes) {
    end += size[code];
    for (let k = code, at = end - 1; k >= 0; k = prefix[k], at -= 1) units[at] = last[k];
    written += size[code];
    if (written >= STEP_CHARS) {
      written = 0;
      yield;
    }
  }
  const pieces = [];
  for (let at = 0; at < total; at += 8192) pieces.push(String.fromCharCode.apply(null, units.subarray(at, at + 8192)));
  return { ok: true, text: pieces.join('') };
}

// The decompressor yields every this many codes read.
const STEP_CODES = 1 << 14;

/**
 * Compresses `text` as lz-string's compressToEncodedURIComponent does (the same characters), in
 * steps, giving up as soon as the output passes maxChars: → the packed text, or null. `text` may
 * be an array of pieces that stand for pieces.join(separator) (never joined: a matrix's rows).
 */
export function* compressSteps(text, maxChars = Infinity, separator = '') {
  const pieces = Array.isArray(text) ? text : [String(text)];
  const between = separator === '' ? -1 : separator.charCodeAt(0);
  const out = [];
  let bitsValue = 0;
  let bitsUsed = 0;
  const write = (value, count) => {
    for (let i = 0; i < count; i += 1) {
      bitsValue = (bitsValue << 1) | (value & 1);
      value >>= 1;
      if (bitsUsed === 5) {
        out.push(ALPHABET[bitsValue]);
        bitsValue = 0;
        bitsUsed = 0;
      } else bitsUsed += 1;
    }
  };
  // The dictionary as a trie: a node is { code, next: Map(char code → node) | null }.
  const roots = new Map();
  const unwritten = new Set(); // characters seen whose literal is not written yet
  let dictSize = 3;
  let numBits = 2;
  let enlargeIn = 2; // (lz-string: "compensate for the first entry which should not count")
  const grow = () => {
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
  };
  let w = null; // the node of the current string
  let wChar = -1; // its character when it is one character long
  const emit = () => {
    if (wChar >= 0 && unwritten.has(wChar)) {
      const wide = wChar >= 256;
      write(wide ? 1 : 0, numBits);
      write(wChar, wide ? 16 : 8);
      grow();
      unwritten.delete(wChar);
    } else {
      write(w.code, numBits);
    }
    grow();
  };

  let seen = 0;
  let nextStep = STEP_CHARS;
  for (let p = 0; p < pieces.length; p += 1) {
    const piece = pieces[p];
    for (let i = p > 0 && between >= 0 ? -1 : 0; i < piece.length; i += 1) {
      const c = i < 0 ? between : piece.charCodeAt(i);
      if (++seen >= nextStep) {
        nextStep = seen + STEP_CHARS;
        yield;
      }
      let single = roots.get(c);
      if (single === undefined) {
        single = { code: dictSize++, next: null };
        roots.set(c, single);
        unwritten.add(c);
      }
      if (w === null) {
        w = single;
        wChar = c;
        continue;
      }
      const longer = w.next?.get(c);
      if (longer !== undefined) {
        w = longer;
        wChar = -1;
        continue;
      }
      emit();
      (w.next ??= new Map()).set(c, { code: dictSize++, next: null });
      w = single;
      wChar = c;
      if (out.length > maxChars) return null;
    }
  }
  if (w !== null) emit();
  write(2, numBits); // the end of the stream
  for (;;) {
    bitsValue <<= 1;
    if (bitsUsed === 5) {
      out.push(ALPHABET[bitsValue]);
      break;
    }
    bitsUsed += 1;
  }
  return out.length > maxChars ? null : out.join('');
}

/** decompressSteps run to its end. */
export const decompressBounded = (packed, maxChars) => runSteps(decompressSteps(packed, maxChars));

/** compressSteps run to its end. */
export const compressBounded = (text, maxChars, separator) => runSteps(compressSteps(text, maxChars, separator));

const MALFORMED = Object.freeze({ ok: false, reason: 'malformed' });
const TOO_LONG = Object.freeze({ ok: false, reason: 'tooLong' });
