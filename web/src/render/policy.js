// How a matrix is drawn, decided from its size and its page alone (no DOM): a table or a canvas,
// its printed corner, numbers or bare cells, the figures off screen skipped. Every view asks here;
// the numbers are render/thresholds.js's.
import { THRESHOLDS as L } from './thresholds.js';

const count = (cells) => (typeof cells === 'function' ? cells() : cells);

/** Rows (or columns) of n that a lesson matrix prints: its top-left corner past printedCorner. */
export const printed = (n) => Math.min(n, L.printedCorner);

/**
 * A page of the lesson, before its figures are made. tokens, keys: T and Tk (the source's in
 * cross-attention); single: one step at a time; stepCells, pageCells: the cells of the largest
 * step's matrices with a row per token, and of every matrix on a page of all steps (numbers, or
 * functions asked only when they matter).
 * → { sliced: past the printed corner, matrices are canvases made ready and drawn a few per task (sliceMs);
 *     tokensOnCanvas: the matrices with a row per token are canvases below canvasFromTokens too }
 */
export function lessonPage({ tokens, keys = tokens, dModel, single, stepCells = 0, pageCells = 0 }) {
  const sliced = tokens > L.printedCorner || keys > L.printedCorner;
  const tokensOnCanvas =
    !sliced && dModel < L.weightCanvasFromDModel && (single ? count(stepCells) > L.stepTableCells : count(pageCells) > L.allStepsTableCells);
  return { sliced, tokensOnCanvas };
}

/**
 * One matrix of the lesson: rows × cols; isWeight: a W matrix (d_model × d_model); tokens, keys
 * and tokensOnCanvas: its page's (lessonPage).
 * → { kind: 'table' | 'canvas', rows, cols: printed; corner: only the top-left corner is printed;
 *     numbersInCells (always, in the lesson); sliced: filled a few per task }
 * Past the printed corner (in tokens or keys) every matrix is a canvas of its corner, weights too:
 * about twenty 48 × 48 tables made each frame that laid them out long; a canvas draws the rows
 * near the window first. Below it, the weights' corner past d_model 48 stays a table.
 */
export function matrixPresentation({ rows, cols, isWeight = false, tokens, keys = tokens, tokensOnCanvas = false }) {
  const sliced = tokens > L.printedCorner || keys > L.printedCorner;
  const corner = rows > L.printedCorner || cols > L.printedCorner;
  const from = isWeight ? L.weightCanvasFromDModel : L.canvasFromTokens;
  const canvas = sliced || (!(isWeight && corner) && (rows >= from || (tokensOnCanvas && !isWeight)));
  return { kind: canvas ? 'canvas' : 'table', rows: printed(rows), cols: printed(cols), corner, numbersInCells: true, sliced };
}

/** Whether the lesson's figures off screen skip layout and paint (lesson.css "many"): on every
 *  page of all steps, and one step at a time from manyCells cells shown. */
export const skipOffScreen = ({ single, shownCells }) => !single || shownCells > L.manyCells;

/** Whether a per-head step shows every head side by side (else one, with a tab per head). */
export function allHeadsShown({ heads, tokens, keys = tokens }) {
  return heads <= L.allHeadsUpTo && heads * printed(tokens) * printed(keys) <= L.headCellBudget;
}

/** The softmax lab: { queries, keys } listed, and a table or a canvas for the keys of a row. */
export function labPresentation({ queries, keys }) {
  const shownKeys = Math.min(keys, L.labShown);
  return { queries: Math.min(queries, L.labShown), keys: shownKeys, kind: shownKeys >= L.canvasFromTokens ? 'canvas' : 'table' };
}

// ---- the head grids (heads/grid.js and the panels that use it) ----

/** Whether a head grid prints numbers for `columns` (d_model in the head split, the keys in a map). */
export const printsNumbers = (columns) => columns <= L.numbersUpTo;

/**
 * A head grid of rows × cols; maxRows, maxCols, numbers: what its caller asks for, if anything.
 * → { rows, cols: drawn; numbersInCells: numbers printed, else bare coloured cells }
 */
export function gridPresentation({ rows, cols, maxRows = L.gridRows, maxCols = L.gridCols, numbers }) {
  const shownCols = Math.min(cols, maxCols);
  return { rows: Math.min(rows, maxRows), cols: shownCols, numbersInCells: numbers ?? printsNumbers(shownCols) };
}

/**
 * One head's attention map in detail (queries × keys): numbers in a table for a few keys; past
 * that bare cells, painted on a canvas where the view can (`canvas`), else a compact table.
 * → { kind, numbersInCells, maxRows, maxCols }
 */
export function weightMapPresentation({ keys, canvas = false }) {
  const numbersInCells = printsNumbers(keys);
  return { kind: !numbersInCells && canvas ? 'canvas' : 'table', numbersInCells, maxRows: L.detailDrawn, maxCols: L.detailDrawn };
}

/** A small map of one head among all: { rows, cols, corner, cellPx } (pixels a side per entry). */
export function smallMapPresentation({ tokens, keys = tokens }) {
  const side = Math.min(L.mapTokens, Math.max(tokens, keys));
  const cellPx = Math.max(L.mapCellMinPx, Math.min(L.mapCellMaxPx, Math.floor(L.mapPx / side)));
  return { rows: Math.min(tokens, L.mapTokens), cols: Math.min(keys, L.mapTokens), corner: side < Math.max(tokens, keys), cellPx };
}

/** Whether the head split draws its parts one per task rather than all in one. */
export const splitByParts = ({ tokens, keys = tokens }) => tokens * keys > L.splitByPartFrom;
