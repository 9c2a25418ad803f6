// Parsing of what people type: the sentence into tokens, numbers, and the embeddings text into
// a T×d_model table. Pure functions, no DOM.
import { tokenize as tokenizeText } from '../engine/tokenize.js';

// Whitespace-split tokens; runs of spaces, tabs and newlines count as one separator. With mode
// 'char' or 'word' (the tokenization control), the engine's tokenize: grapheme clusters, or
// Intl.Segmenter words (so 我爱自然语言处理 gives 我 / 爱 / 自然 / 语言 / 处理).
export function tokenize(sentence, mode = 'whitespace') {
  if (mode === 'char' || mode === 'word') return tokenizeText(String(sentence), mode);
  return String(sentence)
    .split(/\s+/)
    .filter((token) => token.length > 0);
}

// The length of a text in UTF-8 bytes, as the engine counts a token's (a lone surrogate: 3).
export function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

// The longest token in UTF-8 bytes (only tokens that could pass `limit` are counted).
export function longestToken(tokens, limit) {
  let longest = 0;
  for (const token of tokens) if (token.length * 3 > limit) longest = Math.max(longest, utf8Length(token));
  return longest;
}

// The divisors of n in increasing order: the head counts that fit d_model.
export function divisors(n) {
  const result = [];
  for (let d = 1; d <= n; d += 1) if (n % d === 0) result.push(d);
  return result;
}

// Numbers as a Chinese input method types them: full-width digits, signs, point, comma and space
// ("１２", "３．５", "－１") become ASCII (NFKC), and so do the minus sign − and the ideographic
// full stop 。 (typed for '.' in Chinese punctuation mode). Only text with a non-ASCII character
// is touched: the usual case costs one scan.
const NON_ASCII = /[^\x00-\x7f]/;
export function asciiNumbers(text) {
  const string = String(text);
  if (!NON_ASCII.test(string)) return string;
  return string
    .normalize('NFKC')
    .replace(/\u2212/g, '-')
    .replace(/\u3002/g, '.');
}

// A whole number written with digits only (surrounding spaces allowed), or null.
const WHOLE = /^\d{1,10}$/;
export function parseWholeNumber(text) {
  let trimmed = String(text).trim();
  if (!WHOLE.test(trimmed)) trimmed = asciiNumbers(trimmed).trim();
  if (!WHOLE.test(trimmed)) return null;
  return Number(trimmed);
}

// A decimal number as people write it: 1, -0.5, .25, 3e-2 (full-width too, asciiNumbers). Not
// "NaN", "Infinity", "0x10", "".
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
export function parseDecimal(text) {
  let written = text;
  if (!NUMBER.test(written)) {
    written = asciiNumbers(written);
    if (written === text || !NUMBER.test(written)) return null;
  }
  const value = Number(written);
  return Number.isFinite(value) ? value : null; // 1e999 overflows to Infinity
}

// Embeddings text: one row per non-empty line, numbers separated by spaces or commas.
// Returns { ok: true, rows } or { ok: false, error: { key, params } } naming the first bad entry
// by its line (1-based) and its position in the line (1-based).
export function parseMatrixText(text) {
  const rows = [];
  const lines = asciiNumbers(text).split(/\r?\n/);
  for (let line = 0; line < lines.length; line += 1) {
    const fields = lines[line].split(/[\s,]+/).filter((field) => field.length > 0);
    if (fields.length === 0) continue;
    const row = [];
    for (let col = 0; col < fields.length; col += 1) {
      const value = parseDecimal(fields[col]);
      if (value === null) {
        return {
          ok: false,
          error: { key: 'error.embeddingsNumber', params: { row: line + 1, col: col + 1, text: fields[col] } },
        };
      }
      row.push(value);
    }
    rows.push(row);
  }
  return { ok: true, rows };
}

// A number for the embeddings editor and the address: at most 4 decimals, no trailing zeros.
export function formatNumber(value) {
  return String(roundForEditor(value));
}

// The number the embeddings editor's text holds for `value` (4 decimals): parsing
// formatNumber(value) gives exactly this.
export function roundForEditor(value) {
  const rounded = Number(value.toFixed(4));
  return Object.is(rounded, -0) ? 0 : rounded;
}

// The inverse of parseMatrixText: one line per row, numbers separated by spaces.
export function formatMatrixText(rows) {
  return rows.map((row) => row.map(formatNumber).join(' ')).join('\n');
}
