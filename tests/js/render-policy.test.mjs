// How a matrix is drawn (render/policy.js), decided at and around every threshold of
// render/thresholds.js, and that no other file of web/src sets a threshold of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  allHeadsShown,
  gridPresentation,
  labPresentation,
  lessonPage,
  matrixPresentation,
  printed,
  printsNumbers,
  skipOffScreen,
  smallMapPresentation,
  splitByParts,
  weightMapPresentation,
} from '../../web/src/render/policy.js';
import { THRESHOLDS as L } from '../../web/src/render/thresholds.js';
import { createAttention } from '../../web/src/engine/attention.js';
import { createTranslator } from '../../web/src/i18n/index.js';
import { lessonContext } from './page-runs.mjs';
import { figureSpec, stepCells } from '../../web/src/lesson/step-plan.js';
import { STEPS } from '../../web/src/lesson/steps.js';
import { stateToDraft } from '../../web/src/state/draft.js';
import { PRESETS } from '../../web/src/state/presets.js';
import { validateDraft } from '../../web/src/state/validate.js';

const kind = (spec) => matrixPresentation(spec).kind;

test('the table of thresholds is one frozen object of positive numbers', () => {
  assert.ok(Object.isFrozen(L));
  for (const [name, value] of Object.entries(L)) assert.ok(Number.isFinite(value) && value > 0, name);
  // The values the page's tests and its learners rely on.
  assert.equal(L.printedCorner, 48);
  assert.equal(L.canvasFromTokens, 8);
  assert.equal(L.weightCanvasFromDModel, 16);
  assert.equal(L.numbersUpTo, 12);
  assert.equal(L.nearPx, 150);
});

test('a lesson matrix prints its top-left corner past printedCorner', () => {
  assert.equal(printed(L.printedCorner), L.printedCorner);
  assert.equal(printed(L.printedCorner + 1), L.printedCorner);
  assert.equal(printed(3), 3);
  const m = matrixPresentation({ rows: 49, cols: 16, tokens: 49 });
  assert.deepEqual([m.rows, m.cols, m.corner, m.sliced, m.numbersInCells], [48, 16, true, true, true]);
  assert.equal(matrixPresentation({ rows: 48, cols: 48, tokens: 48 }).corner, false);
});

test('matrices with a row per token are canvases from canvasFromTokens on, past the printed corner too', () => {
  const at = (T, extra = {}) => kind({ rows: T, cols: 8, tokens: T, ...extra });
  assert.equal(at(L.canvasFromTokens - 1), 'table');
  assert.equal(at(L.canvasFromTokens), 'canvas');
  assert.equal(at(L.printedCorner), 'canvas');
  assert.equal(at(L.printedCorner + 1), 'canvas'); // past the corner: canvases drawn in slices
  assert.equal(at(1024), 'canvas');
  // A square matrix T × Tk: past the corner in keys (cross-attention) is past it too.
  assert.equal(kind({ rows: 10, cols: 60, tokens: 10, keys: 60 }), 'canvas');
  assert.equal(kind({ rows: 10, cols: 40, tokens: 10, keys: 40 }), 'canvas');
  // A token matrix wider than the corner (Q at d_model = 64) is still a canvas: its rows decide.
  assert.equal(kind({ rows: 10, cols: 64, tokens: 10 }), 'canvas');
  // Below canvasFromTokens, on a page with too many table cells.
  assert.equal(at(6, { tokensOnCanvas: true }), 'canvas');
});

test('the W matrices are canvases from weightCanvasFromDModel up to the corner, and past it on a page past the corner', () => {
  const w = (d, extra = {}) => kind({ rows: d, cols: d, isWeight: true, tokens: 6, ...extra });
  assert.equal(w(L.weightCanvasFromDModel - 1), 'table');
  assert.equal(w(L.weightCanvasFromDModel), 'canvas');
  assert.equal(w(L.printedCorner), 'canvas');
  assert.equal(w(L.printedCorner + 1), 'table');
  assert.equal(w(8, { tokensOnCanvas: true }), 'table'); // the page's cell count is for token matrices
  // A page past the corner (in tokens or keys): every matrix a canvas, whatever d_model.
  assert.equal(w(8, { tokens: L.printedCorner + 1 }), 'canvas');
  assert.equal(w(20, { tokens: 60 }), 'canvas');
  assert.equal(w(1024, { tokens: 1024 }), 'canvas');
  assert.equal(w(1024, { tokens: 6, keys: 60 }), 'canvas');
  assert.equal(w(1024, { tokens: L.printedCorner }), 'table'); // its corner only: a table below it
});

test('past the printed corner every lesson matrix is a canvas of the corner, drawn in slices', () => {
  const T = L.printedCorner + 1;
  for (const spec of [
    { rows: T, cols: 4, tokens: T }, // X, Q, K, V at a small d_model
    { rows: T, cols: T, tokens: T }, // scores, M, weights
    { rows: T, cols: 1024, tokens: T }, // X at d_model 1 024
    { rows: 4, cols: 4, isWeight: true, tokens: T }, // W below weightCanvasFromDModel
    { rows: 1024, cols: 1024, isWeight: true, tokens: 1024 },
  ]) {
    const m = matrixPresentation(spec);
    assert.equal(m.kind, 'canvas', JSON.stringify(spec));
    assert.equal(m.sliced, true);
    assert.deepEqual([m.rows, m.cols], [printed(spec.rows), printed(spec.cols)]);
    assert.ok(m.rows <= L.printedCorner && m.cols <= L.printedCorner);
  }
  // Up to the corner nothing is sliced, and small matrices stay tables.
  assert.equal(matrixPresentation({ rows: L.printedCorner, cols: 4, tokens: L.printedCorner }).sliced, false);
  assert.equal(kind({ rows: 4, cols: 4, isWeight: true, tokens: L.printedCorner }), 'table');
  assert.equal(kind({ rows: 6, cols: 6, tokens: 6 }), 'table');
});

test('a page of tables goes to canvases when it would print too many cells', () => {
  const page = (spec) => lessonPage({ tokens: 6, dModel: 8, ...spec });
  assert.equal(page({ single: true, stepCells: L.stepTableCells }).tokensOnCanvas, false);
  assert.equal(page({ single: true, stepCells: L.stepTableCells + 1 }).tokensOnCanvas, true);
  assert.equal(page({ single: false, pageCells: L.allStepsTableCells }).tokensOnCanvas, false);
  assert.equal(page({ single: false, pageCells: L.allStepsTableCells + 1 }).tokensOnCanvas, true);
  // The counts one step at a time and for all steps do not mix.
  assert.equal(page({ single: true, pageCells: 1e6, stepCells: 10 }).tokensOnCanvas, false);
  assert.equal(page({ single: false, pageCells: 10, stepCells: 1e6 }).tokensOnCanvas, false);
  // Not from weightCanvasFromDModel (the page skips its figures off screen there already), nor
  // past the corner; the counts are then not even asked for.
  const never = () => assert.fail('counted');
  assert.equal(page({ single: true, dModel: L.weightCanvasFromDModel, stepCells: never }).tokensOnCanvas, false);
  assert.deepEqual(lessonPage({ tokens: 49, dModel: 8, single: true, stepCells: never }), { sliced: true, tokensOnCanvas: false });
  assert.deepEqual(lessonPage({ tokens: 6, keys: 49, dModel: 8, single: false, pageCells: never }), { sliced: true, tokensOnCanvas: false });
  assert.equal(page({ single: true, stepCells: () => L.stepTableCells + 1 }).tokensOnCanvas, true);
});

test('figures off screen skip layout and paint on pages of all steps and from manyCells', () => {
  assert.equal(skipOffScreen({ single: false, shownCells: 0 }), true);
  assert.equal(skipOffScreen({ single: true, shownCells: L.manyCells }), false);
  assert.equal(skipOffScreen({ single: true, shownCells: L.manyCells + 1 }), true);
});

test('per-head steps show every head within the cell budget and up to allHeadsUpTo heads', () => {
  assert.equal(allHeadsShown({ heads: 4, tokens: 32 }), true); // 4 × 32 × 32: the budget exactly
  assert.equal(allHeadsShown({ heads: 4, tokens: 33 }), false);
  assert.equal(allHeadsShown({ heads: 2, tokens: 45 }), true);
  assert.equal(allHeadsShown({ heads: 2, tokens: 46 }), false);
  assert.equal(allHeadsShown({ heads: 5, tokens: 2 }), false); // too many heads side by side
  // Past the corner only the printed corner counts: 1 head of 512 tokens is 48 × 48 cells.
  assert.equal(allHeadsShown({ heads: 1, tokens: 512 }), true);
  assert.equal(allHeadsShown({ heads: 2, tokens: 512 }), false);
  assert.equal(allHeadsShown({ heads: 2, tokens: 8, keys: 128 }), true); // 2 × 8 × 48
});

test('the softmax lab is a canvas from canvasFromTokens keys and lists labShown at most', () => {
  assert.deepEqual(labPresentation({ queries: 6, keys: 7 }), { queries: 6, keys: 7, kind: 'table' });
  assert.deepEqual(labPresentation({ queries: 8, keys: 8 }), { queries: 8, keys: 8, kind: 'canvas' });
  assert.deepEqual(labPresentation({ queries: 500, keys: 600 }), { queries: 64, keys: 64, kind: 'canvas' });
});

test('head grids print numbers up to numbersUpTo columns, and their size is capped', () => {
  assert.equal(printsNumbers(L.numbersUpTo), true);
  assert.equal(printsNumbers(L.numbersUpTo + 1), false);
  assert.deepEqual(gridPresentation({ rows: 6, cols: 12 }), { rows: 6, cols: 12, numbersInCells: true });
  assert.deepEqual(gridPresentation({ rows: 30, cols: 13 }), { rows: L.gridRows, cols: 13, numbersInCells: false });
  assert.deepEqual(gridPresentation({ rows: 30, cols: 100 }), { rows: 12, cols: L.gridCols, numbersInCells: false });
  // What the caller asks for wins.
  assert.deepEqual(gridPresentation({ rows: 30, cols: 100, maxRows: 16, maxCols: 8 }), { rows: 16, cols: 8, numbersInCells: true });
  assert.equal(gridPresentation({ rows: 4, cols: 4, numbers: false }).numbersInCells, false);
  assert.equal(gridPresentation({ rows: 4, cols: 40, numbers: true }).numbersInCells, true);
});

test('a head map in detail prints numbers for a few keys, else bare cells on a canvas or a compact table', () => {
  assert.deepEqual(weightMapPresentation({ keys: 12, canvas: true }), { kind: 'table', numbersInCells: true, maxRows: 64, maxCols: 64 });
  assert.deepEqual(weightMapPresentation({ keys: 13, canvas: true }), { kind: 'canvas', numbersInCells: false, maxRows: 64, maxCols: 64 });
  assert.deepEqual(weightMapPresentation({ keys: 13 }), { kind: 'table', numbersInCells: false, maxRows: 64, maxCols: 64 });
});

test('the small maps of the head split: about mapPx a side, their corner past mapTokens', () => {
  assert.deepEqual(smallMapPresentation({ tokens: 6 }), { rows: 6, cols: 6, corner: false, cellPx: 22 });
  assert.equal(smallMapPresentation({ tokens: 10 }).cellPx, 15);
  assert.equal(smallMapPresentation({ tokens: 64 }).cellPx, 2);
  assert.deepEqual(smallMapPresentation({ tokens: 96 }), { rows: 96, cols: 96, corner: false, cellPx: 2 });
  assert.deepEqual(smallMapPresentation({ tokens: 512, keys: 20 }), { rows: 96, cols: 20, corner: true, cellPx: 2 });
});

test('the head split draws its parts one per task past splitByPartFrom entries', () => {
  assert.equal(splitByParts({ tokens: 64 }), false);
  assert.equal(splitByParts({ tokens: 64, keys: 65 }), true);
  assert.equal(splitByParts({ tokens: 65 }), true);
});

// Every threshold is set in render/thresholds.js: no other file of web/src defines one of the names
// they had before, nor an IntersectionObserver margin or a timeout in numbers of its own.
const OLD_NAMES = [
  'MAX_SHOWN',
  'CANVAS_FROM',
  'W_CANVAS_FROM',
  'NUMBERS_UP_TO',
  'DETAIL_NUMBERS_UP_TO',
  'HEAD_CELL_BUDGET',
  'MANY_CELLS',
  'ALL_STEPS_TABLE_CELLS',
  'STEP_TABLE_CELLS',
  'NEAR_PX',
  'SLICE_MS',
  'IDLE_SLICE_MS',
  'IDLE_WAIT_MS',
  'IDLE_TIMEOUT_MS',
  'FIRST_GUESS_MS',
  'ROWS_SHOWN',
  'COLS_SHOWN',
  'COLS_DRAWN',
  'MAPS_DRAWN',
  'MAP_TOKENS',
  'DETAIL_DRAWN',
  'PROGRESSIVE_ENTRIES',
  'LAYOUT_BATCH_ELEMENTS',
  'MAX_PARKED',
  'SPARE_VIEWS',
  'LONGEST_FIT_MS',
  'EMULATED_IDLE_MS',
  'SIGHT_STEPS',
  'COL_MARGIN',
  'ROW_MARGIN',
  'COST_MS',
  'MAX_WAIT_MS',
];
const root = fileURLToPath(new URL('../../web/src/', import.meta.url));
const sources = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.(js|css)$/.test(name) ? [file] : [];
  });

test('no file of web/src but render/thresholds.js sets a threshold of how or when a matrix is drawn', () => {
  const own = path.join(root, 'render', 'thresholds.js');
  const defines = new RegExp(`\\b(?:const|let|var)\\s+(${OLD_NAMES.join('|')})\\b|\\b(${OLD_NAMES.join('|')})\\s*[:=]\\s*\\d`);
  const found = [];
  for (const file of sources(root)) {
    if (file === own) continue;
    const text = readFileSync(file, 'utf8');
    const match = defines.exec(text);
    if (match) found.push(`${path.relative(root, file)}: ${match[0]}`);
    // Margins of IntersectionObservers come from the table (nearPx), not from a number written here.
    const margin = /rootMargin\s*[:=]\s*['"`][^'"`]*\b[1-9]\d*px/.exec(text);
    if (margin) found.push(`${path.relative(root, file)}: ${margin[0]}`);
    // Nor does an idle callback wait a time of its own.
    const wait = /\btimeout:\s*\d/.exec(text);
    if (wait) found.push(`${path.relative(root, file)}: ${wait[0]}`);
    // Nor does a view compare a size with a number of its own to choose numbers or bare cells.
    const numbers = /\bnumbers\s*[:=]\s*[\w.]+\s*<=?\s*\d/.exec(text);
    if (numbers) found.push(`${path.relative(root, file)}: ${numbers[0]}`);
  }
  assert.deepEqual(found, []);
  // The lesson's, the head grids' and the canvases' files ask the policy or the table.
  for (const file of [
    'lesson/view.js',
    'render/matrix-table.js',
    'render/matrix-canvas.js',
    'lesson/softmax-lab.js',
    'heads/grid.js',
    'heads/split-view.js',
    'cross/cross-panel.js',
  ]) {
    assert.match(readFileSync(path.join(root, file), 'utf8'), /from '(\.\.\/render|\.)\/policy\.js'/, file);
  }
});

// The lesson's own pages, as the browser tests open them: which matrices a learner sees in
// tables and which on canvases. The page's cell counts come from lesson/step-plan.js, put to
// the policy as lesson/view.js's render does.
test('the lesson’s pages: tables up to the worked example and the first page, canvases past 150 cells a step, 1 000 a page, or 8 tokens', async () => {
  const engine = await createAttention();
  const t = createTranslator('en');
  // → { name: 'table' | 'canvas' } for a preset's page with changes, one step at a time or not.
  const surfaces = (preset, changes, single, names) => {
    const checked = validateDraft({ ...stateToDraft(PRESETS[preset].state), ...changes }, { maxTokens: 1024, maxDModel: 1024 });
    assert.equal(checked.ok, true, JSON.stringify(checked.error));
    const ctx = lessonContext(engine, checked.state, t);
    const { result } = ctx;
    const { tokensOnCanvas } = lessonPage({
      tokens: result.T,
      keys: result.Tk,
      dModel: result.dModel,
      single,
      stepCells: () => Math.max(...STEPS.map((step) => stepCells(step, true, ctx, true))),
      pageCells: () => STEPS.reduce((cells, step) => cells + stepCells(step, false, ctx), 0),
    });
    return Object.fromEntries(
      names.map((name) => [
        name,
        figureSpec(name, ['x', 'q', 'k', 'v', 'wq', 'wk', 'wv', 'wo', 'output'].includes(name) ? null : 0, 'output', ctx, {
          tokensKey: 'k',
          tokensOnCanvas,
        }).spec.surface,
      ]),
    );
  };
  const words = (n) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');
  const all = (kind, names) => Object.fromEntries(names.map((name) => [name, kind]));
  const rowsPerToken = ['x', 'q', 'k', 'v', 'weights', 'output'];
  const weights = ['wq', 'wk', 'wv'];
  const both = (rowsKind, weightsKind) => ({ ...all(rowsKind, rowsPerToken), ...all(weightsKind, weights) });
  const names = [...rowsPerToken, ...weights];
  // One step at a time: 7 tokens, d_model 4, 1 head prints 147 cells a step at most: tables;
  // 6 tokens, d_model 8, 2 heads 216 in the softmax step: canvases; so from 8 tokens on.
  assert.deepEqual(surfaces('default', { sentence: words(7), dModel: '4', heads: '1' }, true, names), both('table', 'table'));
  assert.deepEqual(surfaces('default', { sentence: words(6), dModel: '8', heads: '2' }, true, names), both('canvas', 'table'));
  assert.deepEqual(surfaces('default', { sentence: words(8), dModel: '8', heads: '2' }, true, names), both('canvas', 'table'));
  // All steps: the worked example (432 cells) and the first page a visitor sees (900) are tables,
  // 7 tokens at d_model 8 with 2 heads are not; at d_model 16 the weights are canvases.
  assert.deepEqual(surfaces('journey', {}, false, names), both('table', 'table'));
  assert.deepEqual(surfaces('default', {}, false, names), both('table', 'table'));
  assert.deepEqual(surfaces('default', { sentence: words(7), dModel: '8', heads: '2' }, false, names), both('canvas', 'table'));
  assert.deepEqual(surfaces('default', { sentence: words(7), dModel: '16', heads: '4' }, false, names), both('table', 'canvas'));
  // The softmax lab: a table for the 7 keys, a canvas for 8.
  assert.equal(labPresentation({ queries: 7, keys: 7 }).kind, 'table');
  assert.equal(labPresentation({ queries: 8, keys: 8 }).kind, 'canvas');
});
