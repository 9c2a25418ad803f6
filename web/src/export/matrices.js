// The matrices of an engine result as a flat list, each with its labels, for the exports:
// CSV, JSON and the heatmap SVG/PNG of one of them. No DOM here.
import { subscript, superscript } from '../i18n/index.js';
import { formatFloat32 } from '../state/url.js';

// Row-major { rows, cols, data } → number[][] (plain numbers, −∞ kept).
export function toRows({ rows, cols, data }) {
  return Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols)));
}

const indexLabels = (n) => Array.from({ length: n }, (_, i) => String(i + 1));

// result: what engine.compute returns → [{ id, name, head, symbol, kind, matrix, rowLabels, colLabels }]
//   id      'x', 'weights.2' (head 2), 'wq', …: stable, used in file names and by the page
//   name    the page's data-matrix name (render/matrix-table.js) or wq, wk, wv, wo, mask
//   head    0-based head index for per-head matrices, else undefined
//   kind    'signed' or 'weights' (the colour scale)
export function matrixCatalog(result) {
  const tokens = result.tokens;
  const keyTokens = result.source?.tokens ?? tokens;
  const list = [];
  const add = (name, matrix, { head, symbol, kind = 'signed', rowLabels = tokens, colLabels } = {}) => {
    list.push({
      id: head === undefined ? name : `${name}.${head + 1}`,
      name,
      head,
      symbol: symbol ?? SYMBOLS[name],
      kind,
      matrix,
      rowLabels,
      colLabels: colLabels ?? indexLabels(matrix.cols),
    });
  };
  add('x', result.x);
  add('q', result.q);
  add('k', result.k, { rowLabels: keyTokens });
  add('v', result.v, { rowLabels: keyTokens });
  add('mask', result.mask, { kind: 'weights', colLabels: keyTokens });
  result.perHead.forEach((head, h) => {
    const sup = superscript(h + 1);
    add('q', head.q, { head: h, symbol: `Q${sup}` });
    add('k', head.k, { head: h, symbol: `K${sup}`, rowLabels: keyTokens });
    add('v', head.v, { head: h, symbol: `V${sup}`, rowLabels: keyTokens });
    add('scores', head.scores, { head: h, symbol: `S${sup}`, colLabels: keyTokens });
    add('masked', head.masked, { head: h, symbol: `S${sup} + M`, colLabels: keyTokens });
    add('weights', head.weights, { head: h, symbol: `A${sup}`, kind: 'weights', colLabels: keyTokens });
    add('context', head.context, { head: h, symbol: `head${subscript(h + 1)}` });
  });
  add('concat', result.concat);
  add('output', result.output);
  const byIndex = indexLabels(result.dModel);
  for (const name of ['wq', 'wk', 'wv', 'wo']) add(name, result.weights[name], { rowLabels: byIndex });
  return list;
}

const SYMBOLS = {
  x: 'X',
  q: 'Q',
  k: 'K',
  v: 'V',
  mask: 'mask (1 = masked)',
  concat: 'Concat(head₁ … head_h)',
  output: 'MultiHead(X)',
  wq: 'W_Q',
  wk: 'W_K',
  wv: 'W_V',
  wo: 'W_O',
};

// A number as the exports write it: exact for float32, −∞ as '-inf' (as Python prints it).
export function exportNumber(value) {
  if (value === -Infinity) return '-inf';
  if (value === Infinity) return 'inf';
  if (Number.isNaN(value)) return 'nan';
  return formatFloat32(value);
}

// A text cell (a token label) as one CSV field. Tokens come from whoever made the link, and a
// spreadsheet runs a cell that starts with = + - @ (or a tab or CR) as a formula. The file says
// ',' but a spreadsheet set to ';' or tab splits the line there instead, and a lax reader splits
// at any ',' or line break inside quotes too: so each part of the text that some reader could
// take for a cell gets a leading apostrophe when it starts that way (after spaces or quotes,
// which some readers drop). Then RFC 4180 quoting for ',' ';' '"' tab and line breaks. Numbers
// never come here: −0.5 stays a number.
const CELL_BREAK = /([,;\t]|\r\n?|\n)/;
const FORMULA_START = /^[ "]*[=+\-@]/;

export function csvTextField(text) {
  let field = String(text)
    .split(CELL_BREAK) // (the breaks at the odd indices)
    .map((part, i) => (i % 2 === 0 && FORMULA_START.test(part) ? `'${part}` : part))
    .join('');
  if (/^[\t\r\n]/.test(field)) field = `'${field}`;
  return /[",;\t\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

// entry: one item of matrixCatalog → CSV text: a header row (corner, column labels), then one
// row per matrix row (its label, the numbers).
export function matrixToCSV(entry) {
  const { matrix, rowLabels, colLabels } = entry;
  const lines = [['', ...colLabels].map(csvTextField).join(',')];
  toRows(matrix).forEach((row, r) => {
    lines.push([csvTextField(rowLabels[r] ?? String(r + 1)), ...row.map(exportNumber)].join(','));
  });
  return `${lines.join('\r\n')}\r\n`;
}

// JSON numbers cannot be ±∞ or NaN: those are written as the strings "-Infinity", "Infinity",
// "NaN" (what JavaScript's Number() reads back).
const jsonNumber = (value) => (Number.isFinite(value) ? Number(formatFloat32(value)) : String(value));

// entry → a JSON text { id, symbol, head, rows, cols, rowLabels, colLabels, data, link }.
export function matrixToJSON(entry, { link = null } = {}) {
  const { id, symbol, head, matrix, rowLabels, colLabels } = entry;
  const body = {
    id,
    symbol,
    head: head === undefined ? null : head + 1,
    rows: matrix.rows,
    cols: matrix.cols,
    rowLabels,
    colLabels,
    data: toRows(matrix).map((row) => row.map(jsonNumber)),
    link,
  };
  return `${JSON.stringify(body, null, 1)}\n`;
}
