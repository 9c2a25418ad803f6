// Parsing of what people type: the sentence into tokens, numbers, and the embeddings text into
// a T×d_model table. Pure functions, no DOM.
import { tokenize as tokenizeText } from '../engine/tokenize.js';

// Whitespace-split tokens; runs of spaces, tabs and newlines count as one separator. With mode
// 'char' or 'word' (the tokenization control), the engine's tokenize: grapheme clusters, or
// Intl.Segmenter words (so 我爱自然语言处理 gives 我 / 爱 / 自然 / 语言 / 处理).
export function tokenize(sentence, mode = 'whitespace') {
  if (mode === 'char' || mode === 'word') return tokenizeText(String(sentence), mode);
  return String(sentence).split(/\s+/).filter((token) => token.length > 0);
}

// The divisors of n in increasing order: the head counts that fit d_model.
export function divisors(n) {
  const result = [];
  for (let d = 1; d <= n; d += 1) if (n % d === 0) result.push(d);
  return result;
}

// A whole number written with digits only (surrounding spaces allowed), or null.
export function parseWholeNumber(text) {
  const trimmed = String(text).trim();
  if (!/^\d{1,10}$/.test(trimmed)) return null;
  return Number(trimmed);
}

// A decimal number as people write it: 1, -0.5, .25, 3e-2. Not "NaN", "Infinity", "0x10", "".
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
export function parseDecimal(text) {
  if (!NUMBER.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null; // 1e999 overflows to Infinity
}

// Embeddings text: one row per non-empty line, numbers separated by spaces or commas.
// Returns { ok: true, rows } or { ok: false, error: { key, params } } naming the first bad entry
// by its line (1-based) and its position in the line (1-based).
export function parseMatrixText(text) {
  const rows = [];
  const lines = String(text).split(/\r?\n/);
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
