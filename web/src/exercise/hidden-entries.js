// What an unanswered question hides: the asked entries and every entry computed from them, in the
// order of the attention's passes (X, W → Q, K, V → QKᵀ → ÷√d_k → + M → e^(z − max) → A → A·V →
// concat → ·W_O), and the entries that give an asked one away: a row of A sums to 1 (a column,
// when the softmax runs over the queries), and e^(z − max) is A divided by the row's largest.
// A head's Q, K, V and O are the model's columns (shown in both places), so they hide together.
// No DOM and no arithmetic on values: only which entries.

// The 2-D matrices a result shows, by name: model ones and per-head ones.
const MODEL = ['x', 'wq', 'wk', 'wv', 'wo', 'q', 'k', 'v', 'mask', 'concat', 'output'];
const HEAD = ['q', 'k', 'v', 'dots', 'scores', 'masked', 'exps', 'weights', 'context'];
// Per-row figures of a head that a hidden row of e^(z − max) or A gives away.
const ROW_FIGURES = ['rowMax', 'rowSum', 'entropy', 'weightSum', 'laterWeight'];

const keyOf = (name, head) => (head === null ? name : `${name}/${head}`);

function shapes({ T, Tk, dModel, heads, kvHeads, dK }) {
  const model = {
    x: [T, dModel],
    wq: [dModel, dModel],
    wk: [dModel, dModel],
    wv: [dModel, dModel],
    wo: [dModel, dModel],
    q: [T, dModel],
    k: [Tk, kvHeads * dK],
    v: [Tk, kvHeads * dK],
    mask: [T, Tk],
    concat: [T, dModel],
    output: [T, dModel],
  };
  const head = {
    q: [T, dK],
    k: [Tk, dK],
    v: [Tk, dK],
    dots: [T, Tk],
    scores: [T, Tk],
    masked: [T, Tk],
    exps: [T, Tk],
    weights: [T, Tk],
    context: [T, dK],
  };
  return { model, head, heads, kvHeads, dK };
}

/** One flag grid per matrix: { rows, cols, flags: Uint8Array } by 'name' or 'name/head'. */
function emptyGrids(shape) {
  const grids = new Map();
  for (const name of MODEL) {
    const [rows, cols] = shape.model[name];
    grids.set(keyOf(name, null), { rows, cols, flags: new Uint8Array(rows * cols) });
  }
  for (let h = 0; h < shape.heads; h += 1) {
    for (const name of HEAD) {
      const [rows, cols] = shape.head[name];
      grids.set(keyOf(name, h), { rows, cols, flags: new Uint8Array(rows * cols) });
    }
  }
  return grids;
}

// Whether any flag of `g` is set, read four flags at a time (a T × T grid has a million).
function hasAny(g) {
  const { flags } = g;
  const words = flags.byteOffset % 4 === 0 ? Math.floor(flags.length / 4) : 0;
  const view = new Uint32Array(flags.buffer, flags.byteOffset, words);
  for (let n = 0; n < words; n += 1) if (view[n] !== 0) return true;
  for (let n = words * 4; n < flags.length; n += 1) if (flags[n] !== 0) return true;
  return false;
}
const anyInRow = (g, r) => g.flags.subarray(r * g.cols, (r + 1) * g.cols).includes(1);
function anyInCol(g, c) {
  for (let r = 0; r < g.rows; r += 1) if (g.flags[r * g.cols + c]) return true;
  return false;
}
// Per row (or column) of g: whether any entry is hidden, read once rather than per entry.
const rowsWith = (g) => Uint8Array.from({ length: g.rows }, (_, r) => anyInRow(g, r));
function colsWith(g) {
  const cols = new Uint8Array(g.cols);
  for (let r = 0; r < g.rows; r += 1) {
    const row = g.flags.subarray(r * g.cols, (r + 1) * g.cols);
    if (row.includes(1)) for (let c = 0; c < g.cols; c += 1) cols[c] |= row[c];
  }
  return cols;
}
const setRow = (g, r) => g.flags.fill(1, r * g.cols, (r + 1) * g.cols);
function setCol(g, c) {
  for (let r = 0; r < g.rows; r += 1) g.flags[r * g.cols + c] = 1;
}
// Every entry of `to` in a flagged row or a flagged column is hidden (a product's entry depends
// on a row of its left factor and a column of its right one).
function spreadRowsCols(to, rows, cols) {
  const anyCol = cols?.includes(1);
  if (!anyCol && !rows?.includes(1)) return;
  for (let r = 0; r < to.rows; r += 1) {
    if (rows?.[r]) setRow(to, r);
    else if (anyCol) for (let c = 0; c < to.cols; c += 1) to.flags[r * to.cols + c] |= cols[c];
  }
}
// Every entry of `to` hidden in one of `from` (same shape) is hidden.
function spreadSame(to, ...from) {
  for (const g of from) {
    if (!hasAny(g)) continue;
    for (let n = 0; n < to.flags.length; n += 1) to.flags[n] |= g.flags[n];
  }
}
// Rows (or columns) of `to` are hidden whole when any of their entries is.
function wholeRows(g) {
  for (let r = 0; r < g.rows; r += 1) if (anyInRow(g, r)) setRow(g, r);
}
function wholeCols(g) {
  const cols = colsWith(g);
  for (let c = 0; c < g.cols; c += 1) if (cols[c]) setCol(g, c);
}

// A head's columns [h·dK, (h+1)·dK) of a model matrix and the head's own matrix: one flag each way.
function joinBlock(model, headGrid, c0) {
  for (let r = 0; r < headGrid.rows; r += 1) {
    for (let c = 0; c < headGrid.cols; c += 1) {
      const i = r * model.cols + c0 + c;
      const j = r * headGrid.cols + c;
      const on = model.flags[i] | headGrid.flags[j];
      model.flags[i] = on;
      headGrid.flags[j] = on;
    }
  }
}

/**
 * cells: [{ name, head (0-based or null), row, col }] asked (row null: the whole row);
 * result: the engine's result (its shape and softmaxOver: options.overQueries).
 * → { grids: Map('name' | 'name/head' → { rows, cols, flags }), rows: Map('head' → Uint8Array(T)) }
 * where `rows` marks the per-row figures (row max, Σ, entropy) of each head that are hidden.
 */
export function hiddenEntries(cells, result, { overQueries = false } = {}) {
  const shape = shapes(result);
  const grids = emptyGrids(shape);
  const grid = (name, head = null) => grids.get(keyOf(name, head));
  for (const { name, head = null, row, col } of cells) {
    const g = grid(name, head);
    if (!g || row < 0 || row >= g.rows) continue;
    if (col === null || col === undefined) setRow(g, row);
    else if (col >= 0 && col < g.cols) g.flags[row * g.cols + col] = 1;
  }
  const { heads, kvHeads, dK } = shape;
  const group = heads / kvHeads;
  const x = grid('x');
  const cross = result.Tk !== result.T || Boolean(result.source);
  // Q, K, V from X (self-attention: K and V rows are X rows) and from W's columns.
  for (const [name, w, fromX] of [
    ['q', 'wq', true],
    ['k', 'wk', !cross],
    ['v', 'wv', !cross],
  ]) {
    const to = grid(name);
    const xRows = rowsWith(x);
    const wCols = colsWith(grid(w));
    spreadRowsCols(to, fromX ? xRows : null, wCols);
  }
  for (let h = 0; h < heads; h += 1) {
    const kv = Math.floor(h / group);
    joinBlock(grid('q'), grid('q', h), h * dK);
    joinBlock(grid('k'), grid('k', h), kv * dK);
    joinBlock(grid('v'), grid('v', h), kv * dK);
  }
  // Heads sharing a key/value head share its flags (set through the model's columns above).
  for (let h = 0; h < heads; h += 1) {
    const kv = Math.floor(h / group);
    joinBlock(grid('k'), grid('k', h), kv * dK);
    joinBlock(grid('v'), grid('v', h), kv * dK);
  }
  const mask = grid('mask');
  const rowFlags = new Map();
  for (let h = 0; h < heads; h += 1) {
    const context = grid('context', h);
    // (a head nothing reaches stays as it is: most heads, at a few entries asked)
    if (![mask, ...HEAD.map((name) => grid(name, h))].some(hasAny)) {
      rowFlags.set(h, new Uint8Array(result.T));
      joinBlock(grid('concat'), context, h * dK);
      continue;
    }
    const qh = grid('q', h);
    const kh = grid('k', h);
    const vh = grid('v', h);
    const dots = grid('dots', h);
    const qRows = rowsWith(qh);
    const kRows = rowsWith(kh);
    spreadRowsCols(dots, qRows, kRows);
    const scores = grid('scores', h);
    spreadSame(scores, dots);
    // (The unscaled and scaled scores differ by one factor: each gives the other away.)
    spreadSame(dots, scores);
    const masked = grid('masked', h);
    spreadSame(masked, scores, mask);
    const exps = grid('exps', h);
    const weights = grid('weights', h);
    // A softmax mixes its whole row (or column): every entry after it depends on all of them.
    const line = overQueries ? { any: anyInCol, set: setCol, whole: wholeCols } : { any: anyInRow, set: setRow, whole: wholeRows };
    const lines = overQueries ? masked.cols : masked.rows;
    for (let n = 0; n < lines; n += 1) if (line.any(masked, n)) line.set(exps, n);
    line.whole(exps);
    spreadSame(weights, exps);
    line.whole(weights);
    spreadSame(exps, weights);
    const aRows = rowsWith(weights);
    const vCols = colsWith(vh);
    spreadRowsCols(context, aRows, vCols);
    joinBlock(grid('concat'), context, h * dK);
    const rows = new Uint8Array(result.T);
    for (let i = 0; i < result.T; i += 1) rows[i] = anyInRow(exps, i) || anyInRow(weights, i) ? 1 : 0;
    rowFlags.set(h, rows);
  }
  const concat = grid('concat');
  const wo = grid('wo');
  const concatRows = rowsWith(concat);
  const woCols = colsWith(wo);
  spreadRowsCols(grid('output'), concatRows, woCols);
  return { grids, rows: rowFlags };
}

/** The matrices of `result` the views show: [{ name, head (null: the model's), matrix }]. */
export function shownMatrices(result) {
  const out = [];
  for (const name of MODEL) {
    const matrix = result[name] ?? result.weights?.[name];
    if (matrix?.data) out.push({ name, head: null, matrix });
  }
  result.perHead.forEach((head, h) => {
    for (const name of HEAD) if (head[name]?.data) out.push({ name, head: h, matrix: head[name] });
  });
  return out;
}

/** Whether any entry is hidden. */
export const hidesAnything = (hidden) => [...hidden.grids.values()].some(hasAny);

const redactMatrix = (matrix, g) => {
  if (!matrix || !g || !hasAny(g) || matrix.rows !== g.rows || matrix.cols !== g.cols) return matrix;
  const data = Float32Array.from(matrix.data);
  for (let n = 0; n < data.length; n += 1) if (g.flags[n]) data[n] = Number.NaN;
  return { ...matrix, data, hidden: g.flags };
};

/**
 * A copy of `result` in which every hidden entry is NaN and its matrix carries `hidden` (the flags,
 * so that a view prints "?" there rather than NaN); per-row figures of hidden rows are NaN too.
 * Nothing of a hidden value is left in the copy. `names` maps a run's own matrix names to the
 * names flagged (the unscaled run's scores are the lesson's `dots`).
 */
export function redactResult(result, hidden, names = {}) {
  if (!result || !hidesAnything(hidden)) return result;
  const flagsOf = (name, head) => hidden.grids.get(keyOf(names[name] ?? name, head));
  const copy = { ...result };
  for (const name of ['x', 'q', 'k', 'v', 'mask', 'concat', 'output']) copy[name] = redactMatrix(result[name], flagsOf(name, null));
  copy.weights = Object.fromEntries(Object.entries(result.weights ?? {}).map(([name, m]) => [name, redactMatrix(m, flagsOf(name, null))]));
  copy.perHead = result.perHead.map((head, h) => {
    const out = { ...head };
    for (const name of HEAD) if (head[name]) out[name] = redactMatrix(head[name], flagsOf(name, h));
    const rows = hidden.rows.get(h);
    if (rows?.includes(1)) {
      for (const figure of ROW_FIGURES) {
        if (!head[figure]) continue;
        out[figure] = Float32Array.from(head[figure]);
        for (let i = 0; i < rows.length; i += 1) if (rows[i]) out[figure][i] = Number.NaN;
      }
    }
    return out;
  });
  return copy;
}

/** Whether entry (row, col) of a matrix drawn from a redacted result is hidden. */
export const isHiddenEntry = (matrix, row, col) => Boolean(matrix?.hidden?.[row * matrix.cols + col]);
