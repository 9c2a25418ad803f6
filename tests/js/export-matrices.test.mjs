// One matrix as CSV, JSON and an SVG heatmap: the numbers read back exactly, the labels are
// escaped, and nothing from a token can become markup or a spreadsheet formula.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

import { createAttention } from '../../web/src/engine/attention.js';
import { matrixCatalog, matrixToCSV, matrixToJSON, toRows } from '../../web/src/export/matrices.js';
import { heatmapSVG, SVG_MAX_SHOWN } from '../../web/src/export/svg.js';
import { engineConfigOf } from '../../web/src/share/engine-config.js';
import { decodeHash } from '../../web/src/state/url.js';

let engine;
before(async () => {
  engine = await createAttention();
});

const compute = (link) => engine.compute(engineConfigOf(decodeHash(link).state));

// A small RFC 4180 reader: quoted fields, doubled quotes, CRLF; `separator` as a spreadsheet set
// to another one reads the same file. (Text after a closing quote joins the field, as lenient
// readers do.)
export function parseCSV(text, separator = ',') {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === separator) {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

const fromText = (text) => ({ '-inf': -Infinity, inf: Infinity, nan: NaN })[text] ?? Number(text);

test('the catalog lists every matrix of the result with its labels', () => {
  const result = compute('');
  const ids = matrixCatalog(result).map((entry) => entry.id);
  for (const id of ['x', 'q', 'k', 'v', 'mask', 'scores.1', 'masked.2', 'weights.1', 'context.2', 'concat', 'output', 'wq', 'wo']) {
    assert.ok(ids.includes(id), id);
  }
  assert.equal(new Set(ids).size, ids.length);
});

test('CSV: a header of key tokens, one row per token, numbers that read back as the same float32', () => {
  const result = compute('#preset=journey');
  const entry = matrixCatalog(result).find((e) => e.id === 'masked.1');
  const rows = parseCSV(matrixToCSV(entry));
  assert.deepEqual(rows[0], ['', 'Your', 'journey', 'starts', 'with', 'one', 'step']);
  assert.equal(rows.length, 7);
  assert.equal(rows[1][0], 'Your');
  assert.equal(rows[1][2], '-inf');
  const data = toRows(entry.matrix);
  rows.slice(1).forEach((row, r) => row.slice(1).forEach((text, c) => assert.equal(Math.fround(fromText(text)), data[r][c])));
});

test('CSV: tokens with commas, quotes or a formula start are quoted and defused', () => {
  const result = compute('#v=1&s=%3D1%2B1+a%2Cb+%22q%22+%40x');
  const rows = parseCSV(matrixToCSV(matrixCatalog(result).find((e) => e.id === 'x')));
  assert.deepEqual(
    rows.slice(1).map((row) => row[0]),
    ["'=1+1", 'a,b', '"q"', "'@x"],
  );
});

// Tokens a spreadsheet would run as formulas, whole or after a ';', a tab, a ',' or a line break (a
// spreadsheet set to another separator, or a lax reader, splits the line there).
const FORMULA_TOKENS = ['x;=1+1', '=1+1', '+1', '-1', '@SUM(A1)', 'a,b', '"=q"', 'ok;fine', 'tab\t=2', 'x; -3', 'cr\r=4', '\t=5', 'lf\n@6', 'a,=7'];

// A formula cell: one that starts with = + - @ (after spaces) and is not a number, or with a tab or CR.
const NUMBER = /^-?(\d+(\.\d*)?(e[-+]?\d+)?|inf|nan)$/i;
const isFormula = (cell) => /^[\t\r]/.test(cell) || (/^ *[=+\-@]/.test(cell) && !NUMBER.test(cell.trim()));

test('CSV: no cell becomes a formula whether the spreadsheet splits at , ; or tab; numbers stay numbers', () => {
  const result = engine.compute({ ...engineConfigOf(decodeHash('#v=1&d=2&h=1&seed=5&mask=none').state), tokens: FORMULA_TOKENS });
  const catalog = matrixCatalog(result);
  for (const id of ['x', 'scores.1']) {
    const csv = matrixToCSV(catalog.find((e) => e.id === id));
    // Read as written (','): every token is its own cell, with a leading ' where a formula would start.
    const rows = parseCSV(csv);
    const labels = id === 'x' ? rows.slice(1).map((row) => row[0]) : rows[0].slice(1);
    assert.deepEqual(
      labels,
      ["x;'=1+1", "'=1+1", "'+1", "'-1", "'@SUM(A1)", 'a,b', `'"=q"`, 'ok;fine', "tab\t'=2", "x;' -3", "cr\r'=4", "'\t'=5", "lf\n'@6", "a,'=7"],
      id,
    );
    // The numbers are plain numbers, negative ones included.
    const numbers = rows.slice(1).flatMap((row) => row.slice(1));
    assert.ok(
      numbers.some((text) => text.startsWith('-')),
      'some negative numbers',
    );
    for (const text of numbers) assert.match(text, NUMBER);
    // Read with another separator, quotes honoured or not: no formula anywhere.
    for (const separator of [',', ';', '\t']) {
      for (const row of parseCSV(csv, separator))
        for (const cell of row) assert.ok(!isFormula(cell), `${id}, ${JSON.stringify(separator)}: ${JSON.stringify(cell)}`);
    }
    // …and by a reader that takes any line break for a new row and ignores quotes.
    for (const separator of [',', ';', '\t']) {
      for (const line of csv.split(/\r\n|\r|\n/)) {
        for (const cell of line.split(separator))
          assert.ok(!isFormula(cell.replace(/^"/, '')) || NUMBER.test(cell), `${id}, split at ${JSON.stringify(separator)}: ${JSON.stringify(cell)}`);
      }
    }
  }
});

test('JSON: the matrix with labels; ±∞ as strings', () => {
  const result = compute('#preset=journey');
  const entry = matrixCatalog(result).find((e) => e.id === 'masked.1');
  const body = JSON.parse(matrixToJSON(entry, { link: 'https://example.org/#preset=journey' }));
  assert.equal(body.id, 'masked.1');
  assert.equal(body.head, 1);
  assert.equal(body.rows, 6);
  assert.deepEqual(body.colLabels, ['Your', 'journey', 'starts', 'with', 'one', 'step']);
  assert.equal(body.data[0][1], '-Infinity');
  assert.equal(body.data[1][0].toFixed(3), '0.551');
  assert.equal(body.link, 'https://example.org/#preset=journey');
});

test('SVG: one coloured cell per entry, labels escaped, well-formed XML', () => {
  const result = compute('#v=1&s=%3Cb%3Ex%3C%2Fb%3E+%26amp+%22q%22+%E7%8C%AB&mask=none');
  const entry = matrixCatalog(result).find((e) => e.id === 'weights.1');
  const svg = heatmapSVG(entry, { title: 'attention <weights>' });
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.equal((svg.match(/<rect /g) ?? []).length, 1 + 4 * 4);
  assert.ok(svg.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.ok(svg.includes('attention &lt;weights&gt;'));
  assert.ok(!svg.includes('<b>'));
  assert.ok(svg.includes('猫'));
  const python = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.read())'], { input: svg });
  if (python.error?.code !== 'ENOENT') assert.equal(python.status, 0, String(python.stderr));
});

test("SVG: the worked example's key tokens are printed whole above their columns", () => {
  const entry = matrixCatalog(compute('#preset=journey')).find((e) => e.id === 'weights.1');
  const svg = heatmapSVG(entry);
  for (const token of ['Your', 'journey', 'starts', 'with', 'one', 'step']) assert.ok(svg.includes(`>${token}</text>`), token);
  assert.ok(!svg.includes('…'));
});

test('SVG: control characters and lone surrogates in labels are shown, and the SVG stays well-formed XML', () => {
  const tokens = ['nul\u0000', 'bell\u0007', 'esc\u001B[31m', 'lone\uD800', 'nonchar\uFFFE', '<b>&amp;', 'ok😀', 'tab\tcr\r'];
  const result = engine.compute({ ...engineConfigOf(decodeHash('#v=1&d=2&h=1&mask=none').state), tokens });
  const entry = matrixCatalog(result).find((e) => e.id === 'weights.1');
  const svg = heatmapSVG(entry, { title: 'weights \u0000\u0008' });
  // Only characters XML 1.0 allows (tab, LF, CR, and U+0020… without surrogates, U+FFFE, U+FFFF).
  assert.doesNotMatch(svg, /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u);
  // Each label as the reader can see it, in any font: the escapes of Python's repr().
  for (const shown of [
    'nul\\x00',
    'bell\\x07',
    'esc\\x1b[31m',
    'lone\\ud800',
    'nonchar\\ufffe',
    '&lt;b&gt;&amp;amp;',
    'ok😀',
    'tab\\tcr\\r',
    'weights \\x00\\x08',
  ]) {
    assert.ok(svg.includes(shown), shown);
  }
  const python = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())'], {
    input: Buffer.from(svg, 'utf8'),
  });
  if (python.error?.code !== 'ENOENT') assert.equal(python.status, 0, String(python.stderr));
});

test('SVG: a large matrix shows its corner and says so', () => {
  const big = { id: 'x', symbol: 'X', kind: 'signed', rowLabels: [], colLabels: [], matrix: { rows: 100, cols: 70, data: new Float32Array(7000) } };
  const svg = heatmapSVG(big);
  assert.equal((svg.match(/<rect /g) ?? []).length, 1 + SVG_MAX_SHOWN * SVG_MAX_SHOWN);
  assert.match(svg, /first 64 of 100 rows, 64 of 70 columns/);
});
