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

// A small RFC 4180 reader: quoted fields, doubled quotes, CRLF.
export function parseCSV(text) {
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
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
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
  assert.deepEqual(rows.slice(1).map((row) => row[0]), ["'=1+1", 'a,b', '"q"', "'@x"]);
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

test('SVG: a large matrix shows its corner and says so', () => {
  const big = { id: 'x', symbol: 'X', kind: 'signed', rowLabels: [], colLabels: [], matrix: { rows: 100, cols: 70, data: new Float32Array(7000) } };
  const svg = heatmapSVG(big);
  assert.equal((svg.match(/<rect /g) ?? []).length, 1 + SVG_MAX_SHOWN * SVG_MAX_SHOWN);
  assert.match(svg, /first 64 of 100 rows, 64 of 70 columns/);
});
