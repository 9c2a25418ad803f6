// Every export downloads and parses: PyTorch and NumPy code whose expected numbers are the
// page's (and, where Python has NumPy, that runs and prints them), the selected matrix as CSV
// and JSON with the page's numbers, and the heatmap as SVG and PNG. Needs the built site.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { saveScreenshot } from './harness.mjs';
import { openPage, rowTexts, screenshots, startHarness } from './share-harness.mjs';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness?.close();
});

async function download(page, action) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`[data-export="${action}"]`)]);
  return { name: file.suggestedFilename(), path: await file.path() };
}

// The numbers of a comment block in exported code (4 decimals): the lines under the first line
// that contains `marker`.
function expectedBlock(code, marker) {
  const lines = code.split('\n');
  const start = lines.findIndex((line) => line.includes(marker));
  assert.ok(start >= 0, `no "${marker}" in the code`);
  const rows = [];
  const first = /shows:$/.test(lines[start + 1] ?? '') ? start + 2 : start + 1; // after a print: its title line
  for (let i = first; i < lines.length && /^ *# {3}/.test(lines[i]); i += 1) {
    rows.push(
      lines[i]
        .replace(/^ *#/, '')
        .trim()
        .split(/\s+/)
        .map((text) => (text === '-inf' ? -Infinity : Number(text))),
    );
  }
  return rows;
}

const pageNumber = (text) => (text === '0' ? '0.000' : text.replace('−', '-'));

// The code's 4 decimals agree with the page's 3 (the page rounds the exact value once).
function assertAgree(codeRows, pageRows, what) {
  assert.equal(codeRows.length, pageRows.length, what);
  codeRows.forEach((row, r) => {
    assert.equal(row.length, pageRows[r].length, `${what} row ${r + 1}`);
    row.forEach((value, c) => {
      const shown = Number(pageNumber(pageRows[r][c]));
      assert.ok(Math.abs(value - shown) <= 0.00051, `${what}[${r}][${c}]: code ${value}, page ${pageRows[r][c]}`);
    });
  });
}

test('PyTorch and NumPy code hold the numbers the page shows', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}dist/index.html`, { acceptDownloads: true });
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    await page.click('[data-share-open="share-export"]');
    await saveScreenshot(page.locator('#share-export'), { path: path.join(screenshots, 'share-export-panel.png') });
    const weights2 = await Promise.all([0, 1, 2, 3, 4, 5].map((row) => rowTexts(page, 'weights', 1, row)));
    const output = await Promise.all([0, 1, 2, 3, 4, 5].map((row) => rowTexts(page, 'output', null, row)));
    for (const [action, name] of [
      ['pytorch', 'attention_pytorch.py'],
      ['numpy', 'attention_numpy.py'],
    ]) {
      const file = await download(page, action);
      assert.equal(file.name, name);
      const code = readFileSync(file.path, 'utf8');
      assert.match(code, /^# Attention playground: the page's computation as a (PyTorch|NumPy) script\./);
      assert.ok(code.includes(`# Link: ${page.url()}`) || code.includes('# Link: http'), 'the link');
      assertAgree(expectedBlock(code, 'head 2, attention weights, the playground shows'), weights2, `${action} A⁽²⁾`);
      assertAgree(expectedBlock(code, 'print("output =\\n", output)'), output, `${action} output`);
      if (action === 'numpy') {
        copyFileSync(file.path, path.join(screenshots, 'export-attention_numpy.py'));
        const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy']).status === 0);
        if (python) {
          const run = spawnSync(python, [file.path], { encoding: 'utf8' });
          assert.equal(run.status, 0, run.stderr);
          // What NumPy prints as the output matrix agrees with the page.
          const printed = run.stdout.split('output =\n')[1].replace(/[[\]]/g, ' ').trim().split(/\s+/).map(Number);
          assertAgree([printed], [output.flat()], 'printed output');
        }
      }
    }
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

// A small RFC 4180 reader, enough for the exported CSV.
function parseCSV(text) {
  return text
    .trim()
    .split('\r\n')
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, -1));
}

test('the selected matrix downloads as CSV, JSON, SVG and PNG with the page’s numbers', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}dist/index.html#preset=journey`, { acceptDownloads: true });
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
    await page.click('[data-share-open="share-export"]');
    assert.equal(await page.inputValue('#share-export-matrix'), 'weights.1');
    const rows = await Promise.all([0, 1, 2, 3, 4, 5].map((row) => rowTexts(page, 'weights', 0, row)));

    const csv = await download(page, 'csv');
    assert.equal(csv.name, 'attention-weights-head1.csv');
    const table = parseCSV(readFileSync(csv.path, 'utf8'));
    assert.deepEqual(table[0], ['', 'Your', 'journey', 'starts', 'with', 'one', 'step']);
    assert.deepEqual(
      table.slice(1).map((row) => row.slice(1).map((v) => Number(v).toFixed(3))),
      rows.map((row) => row.map(pageNumber)),
    );

    const json = await download(page, 'json');
    const body = JSON.parse(readFileSync(json.path, 'utf8'));
    assert.equal(body.id, 'weights.1');
    assert.deepEqual(
      body.data.map((row) => row.map((v) => Number(v).toFixed(3))),
      rows.map((row) => row.map(pageNumber)),
    );
    assert.equal(body.link, page.url());

    // Another matrix: the masked scores, with −∞.
    await page.selectOption('#share-export-matrix', 'masked.1');
    const masked = JSON.parse(readFileSync((await download(page, 'json')).path, 'utf8'));
    assert.equal(masked.data[0][1], '-Infinity');
    await page.selectOption('#share-export-matrix', 'weights.1');

    const svg = await download(page, 'svg');
    assert.equal(svg.name, 'attention-weights-head1.svg');
    const svgText = readFileSync(svg.path, 'utf8');
    assert.match(svgText, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    for (const value of ['0.423', '0.577', '0.151']) assert.ok(svgText.includes(`>${value}</text>`), value);
    const check = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.read())'], { input: svgText });
    if (check.error?.code !== 'ENOENT') assert.equal(check.status, 0, String(check.stderr));
    copyFileSync(svg.path, path.join(screenshots, 'export-weights.svg'));

    const png = await download(page, 'png');
    assert.equal(png.name, 'attention-weights-head1.png');
    const bytes = readFileSync(png.path);
    assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    assert.ok(width > 400 && height > 300, `${width} × ${height}`);
    copyFileSync(png.path, path.join(screenshots, 'export-weights.png'));
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('clicking a matrix’s caption selects it for export', async () => {
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}dist/index.html#preset=journey`);
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="output"]');
    await page.click('[data-share-open="share-export"]');
    await page.locator('figure:has(td[data-matrix="output"]) figcaption').first().click();
    assert.equal(await page.inputValue('#share-export-matrix'), 'output');
    // A tool in a caption does its own job and leaves the choice alone.
    await page.click('button[data-tool="identity"][data-target="wq"]');
    await page.click('button[data-tool="random"][data-target="wk"]');
    assert.equal(await page.inputValue('#share-export-matrix'), 'output');
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('tokens with a NUL, control characters, quotes or a formula start: every export stays valid', async () => {
  // "nul\0byte bell\a "q" back\slash x;=1+1 esc\x1b[0m", from a link as anyone could make it.
  const link = '#v=1&mask=none&s=nul%00byte+bell%07+%22q%22+back%5Cslash+x%3B%3D1%2B1+esc%1B[0m';
  const { page, errors, close } = await openPage(harness.browser, `${harness.base}dist/index.html${link}`, { acceptDownloads: true });
  try {
    await page.waitForSelector('section.lesson-step:not(.parked) td[data-matrix="weights"]');
    await page.click('[data-share-open="share-export"]');
    await page.selectOption('#share-export-matrix', 'x');
    const tokens = JSON.parse(readFileSync((await download(page, 'json')).path, 'utf8')).rowLabels;
    assert.deepEqual(tokens, ['nul\u0000byte', 'bell\u0007', '"q"', 'back\\slash', 'x;=1+1', 'esc\u001b[0m']);

    // The Python scripts: Python reads the tokens back exactly, and the NumPy one runs.
    const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import numpy']).status === 0);
    for (const action of ['numpy', 'pytorch']) {
      const file = await download(page, action);
      const read = spawnSync(
        python ?? 'python3',
        [
          '-c',
          'import ast, json, sys\nfor n in ast.parse(open(sys.argv[1], "rb").read()).body:\n    if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "tokens": print(json.dumps(ast.literal_eval(n.value)))',
          file.path,
        ],
        { encoding: 'utf8' },
      );
      if (read.error?.code === 'ENOENT') break;
      assert.equal(read.status, 0, `${action}: ${read.stderr}`);
      assert.deepEqual(JSON.parse(read.stdout), tokens, action);
      if (action === 'numpy' && python) {
        const run = spawnSync(python, [file.path], { encoding: 'utf8' });
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /output =/);
      }
    }

    // CSV: the formula after ';' is defused.
    assert.ok(readFileSync((await download(page, 'csv')).path, 'utf8').includes(`"x;'=1+1"`));

    // SVG: strict XML, as the browser's own parser reads it; the labels visible (NUL as \x00).
    await page.selectOption('#share-export-matrix', 'weights.1');
    const svg = readFileSync((await download(page, 'svg')).path, 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        labels: [...doc.querySelectorAll('text')].map((t) => t.textContent),
      };
    }, svg);
    assert.equal(parsed.error, null);
    assert.equal(parsed.root, 'svg');
    for (const label of ['nul\\x00byte', 'bell\\x07', '"q"', 'back\\slash', 'x;=1+1', 'esc\\x1b[0m']) assert.ok(parsed.labels.includes(label), label);
    // PNG: drawn from that SVG.
    const png = readFileSync((await download(page, 'png')).path);
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'PNG signature');
    assert.ok(png.readUInt32BE(16) > 400, 'PNG width');
    copyFileSync((await download(page, 'png')).path, path.join(screenshots, 'export-control-characters.png'));
    await saveScreenshot(page.locator('#share-export'), { path: path.join(screenshots, 'share-export-control-characters.png') });
    assert.deepEqual(errors, []);
  } finally {
    await close();
  }
});
