// "How was this number computed?" for any cell of any matrix on the page, with the real numbers:
//   s₂₁ = (0.55·0.43 + 0.87·0.15 + 0.66·0.89)/√3 ≈ 0.551
// The factors and terms printed are entries of the engine's result matrices and the value after
// "≈" is the engine's own result for that cell: nothing is recomputed here, so a shortened sum
// can never show a wrong total. No DOM.
//
// explainCell(ref, ctx) → {
//   symbol,   e.g. 's₂₁'                 heading, the cell in words
//   tex,      the general formula (KaTeX source)
//   lines,    the formula with the numbers, one string per line
//   notes,    sentences (why masked, what τ does, …)
//   deps,     cells the value depends on: { name, head, row?, col? } — a missing row or col
//             means the whole column or row
// }
// ref: { name, head (null for model matrices), row, col } (0-based)
// ctx: { result, dots, stable, compare, state, t } (companions.js), t the translator.
import { compareMaskOf, withFields } from './companions.js';
import { factor, fmt, indices, operand, shortened, sub, sum, sup, vector } from '../render/numbers.js';

const at = (m, r, c) => m.data[r * m.cols + c];
const rowOf = (m, r) => m.data.subarray(r * m.cols, (r + 1) * m.cols);
const approx = (value) => (Number.isFinite(value) ? `≈ ${fmt(value)}` : `= ${fmt(value)}`);
const headMark = (ctx, h) => (ctx.result.heads > 1 ? `⁽${sup(h + 1)}⁾` : '');
const quote = (token) => `“${token}”`;
// The key (and value) tokens: the source's in cross-attention, else the sentence's.
const keyToken = (result, j) => (result.source ?? result).tokens[j];
// The token of a row of `name`: keys and values are the source's rows in cross-attention.
const rowToken = (result, name, r) => (['k', 'v'].includes(name) ? keyToken(result, r) : result.tokens[r]);

// The weights' names in the course's notation.
const W_SYMBOL = { wq: 'W_Q', wk: 'W_K', wv: 'W_V', wo: 'W_O' };

// "(8 terms)" after a shortened sum.
function termsNote(terms, t) {
  return shortened(terms) ? ` (${t('explain.terms', { n: terms.length })})` : '';
}

// Σ_m a_m·b_m as printed terms.
function products(a, b) {
  return Array.from(a, (value, m) => `${operand(value)}·${operand(b[m])}`);
}

function column(matrix, c) {
  return Array.from({ length: matrix.rows }, (_, r) => at(matrix, r, c));
}

function weightSource(ctx, key) {
  const { state, t } = ctx;
  if (state[key]) return t('explain.w.edited');
  if (state.weights === 'identity') return t('explain.w.identity');
  return t('explain.w.random', { seed: state.seed });
}

// ---- model matrices ------------------------------------------------------------------------------

function explainX(ref, ctx) {
  const { result, state, t } = ctx;
  const value = at(result.x, ref.row, ref.col);
  return {
    symbol: `x${indices(ref.row, ref.col)}`,
    heading: t('explain.x.heading', { token: quote(result.tokens[ref.row]), i: ref.row + 1, j: ref.col + 1 }),
    tex: String.raw`X \in \mathbb{R}^{T \times d_{model}}`,
    lines: [`x${indices(ref.row, ref.col)} = ${fmt(value)}`],
    notes: [t(state.embeddings ? 'explain.x.typed' : 'explain.x.perToken'), t('explain.editHint')],
    deps: [],
  };
}

function explainWeight(ref, ctx) {
  const { result, t } = ctx;
  const value = at(result.weights[ref.name], ref.row, ref.col);
  const symbol = `(${W_SYMBOL[ref.name]})${indices(ref.row, ref.col)}`;
  return {
    symbol,
    heading: t('explain.w.heading', { w: W_SYMBOL[ref.name], i: ref.row + 1, j: ref.col + 1 }),
    tex: `${W_SYMBOL[ref.name].replace('_', '_{')}} \\in \\mathbb{R}^{d_{model} \\times d_{model}}`,
    lines: [`${symbol} = ${fmt(value)}`],
    notes: [weightSource(ctx, ref.name), t('explain.editHint')],
    deps: [],
  };
}

// q_ic = Σ_m x_im (W_Q)_mc, and the same for k, v.
function explainProjection(ref, ctx) {
  const { result, t } = ctx;
  const w = { q: 'wq', k: 'wk', v: 'wv' }[ref.name];
  // Keys and values come from the source's X in cross-attention.
  const fromSource = ref.name !== 'q' && result.source;
  const x = rowOf(fromSource ? result.source.x : result.x, ref.row);
  const terms = products(x, column(result.weights[w], ref.col));
  const value = at(result[ref.name], ref.row, ref.col);
  const symbol = `${ref.name}${indices(ref.row, ref.col)}`;
  return {
    symbol,
    heading: t(`explain.${ref.name}.heading`, { token: quote(rowToken(result, ref.name, ref.row)), i: ref.row + 1, j: ref.col + 1 }),
    tex: `${ref.name}_{ij} = \\sum_m x_{im}\\,(${W_SYMBOL[w].replace('_', '_{')}})_{mj}`,
    lines: [`${symbol} = x${sub(ref.row + 1)}·${W_SYMBOL[w]}[:, ${ref.col + 1}] = ${sum(terms)} ${approx(value)}${termsNote(terms, t)}`],
    notes: [t('explain.projection.note', { w: W_SYMBOL[w] })],
    deps: [...(fromSource ? [] : [{ name: 'x', head: null, row: ref.row }]), { name: w, head: null, col: ref.col }],
  };
}

function explainConcat(ref, ctx) {
  const { result, t } = ctx;
  const h = Math.floor(ref.col / result.dK);
  const c = ref.col % result.dK;
  const value = at(result.concat, ref.row, ref.col);
  return {
    symbol: `Concat${indices(ref.row, ref.col)}`,
    heading: t('explain.concat.heading', { token: quote(result.tokens[ref.row]), h: h + 1 }),
    tex: String.raw`\text{Concat}(\text{head}_1, \dots, \text{head}_h)`,
    lines: [`Concat${indices(ref.row, ref.col)} = (head${sub(h + 1)})${indices(ref.row, c)} = ${fmt(value)}`],
    notes: [t('explain.concat.note', { h: h + 1, from: h * result.dK + 1, to: (h + 1) * result.dK })],
    deps: [{ name: 'context', head: h, row: ref.row, col: c }],
  };
}

function explainOutput(ref, ctx) {
  const { result, t } = ctx;
  const terms = products(rowOf(result.concat, ref.row), column(result.weights.wo, ref.col));
  const value = at(result.output, ref.row, ref.col);
  const symbol = `y${indices(ref.row, ref.col)}`;
  return {
    symbol,
    heading: t('explain.output.heading', { token: quote(result.tokens[ref.row]), j: ref.col + 1 }),
    tex: String.raw`\text{MultiHead}(X) = \text{Concat}(\text{head}_1, \dots, \text{head}_h)W_O`,
    lines: [`${symbol} = Concat${sub(ref.row + 1)}·W_O[:, ${ref.col + 1}] = ${sum(terms)} ${approx(value)}${termsNote(terms, t)}`],
    notes: [t('explain.output.note')],
    deps: [
      { name: 'concat', head: null, row: ref.row },
      { name: 'wo', head: null, col: ref.col },
    ],
  };
}

// Why a key is hidden from a query, in words; null when it is visible.
export function maskReason(ctx, i, j) {
  const { result, state, t } = ctx;
  if (!at(result.mask, i, j)) return null;
  const key = quote(keyToken(result, j));
  const query = quote(result.tokens[i]);
  if (result.source) return t('explain.mask.cross', { key, query });
  if (state.padding?.[j]) return t('explain.mask.padding', { key });
  switch (state.mask) {
    case 'causal':
      return t('explain.mask.future', { key, query });
    case 'window':
      return j > i ? t('explain.mask.future', { key, query }) : t('explain.mask.window', { key, query, w: state.window });
    case 'prefix':
      return t('explain.mask.prefix', { key, query, p: state.prefix });
    case 'custom':
      return t('explain.mask.custom');
    default:
      return t('explain.mask.custom');
  }
}

/** The printed value of M where masked: −∞, −1e9 or 0. */
export const fillText = (maskFill) => ({ '-inf': '−∞', '-1e9': '−1e9', 0: '0' })[maskFill] ?? '−∞';

function explainMask(ref, ctx) {
  const { result, state, t } = ctx;
  const masked = at(result.mask, ref.row, ref.col) === 1;
  const symbol = `m${indices(ref.row, ref.col)}`;
  const notes = [];
  if (masked) {
    notes.push(maskReason(ctx, ref.row, ref.col));
    if (state.maskFill === '0') notes.push(t('explain.mask.fillZero'));
  } else {
    notes.push(t('explain.mask.visible', { key: quote(keyToken(result, ref.col)), query: quote(result.tokens[ref.row]) }));
  }
  notes.push(t('explain.mask.clickHint'));
  return {
    symbol,
    heading: t('explain.mask.heading', { query: quote(result.tokens[ref.row]), key: quote(keyToken(result, ref.col)) }),
    tex: String.raw`M_{ij} = 0 \;\text{${t('formula.or')}}\; ${state.maskFill === '-inf' ? '-\\infty' : state.maskFill === '-1e9' ? '-10^9' : '0'}`,
    lines: [`${symbol} = ${masked ? fillText(state.maskFill) : '0'}`],
    notes,
    deps: [],
  };
}

// ---- per-head matrices -------------------------------------------------------------------------------

function explainHeadSlice(ref, ctx) {
  const { result, t } = ctx;
  const head = result.perHead[ref.head];
  const col = ref.head * result.dK + ref.col;
  const value = at(head[ref.name], ref.row, ref.col);
  const upper = ref.name.toUpperCase();
  const symbol = `${upper}${headMark(ctx, ref.head)}${indices(ref.row, ref.col)}`;
  return {
    symbol,
    heading: t(`explain.${ref.name}.heading`, { token: quote(rowToken(result, ref.name, ref.row)), i: ref.row + 1, j: ref.col + 1 }),
    tex: `${upper}^{(h)} = ${upper}_{[:,\\,(h-1)d_k+1\\,..\\,h\\,d_k]}`,
    lines: [`${symbol} = ${upper}${indices(ref.row, col)} = ${fmt(value)}`],
    notes: [t('explain.slice', { h: ref.head + 1, from: ref.head * result.dK + 1, to: (ref.head + 1) * result.dK, name: upper })],
    deps: [{ name: ref.name, head: null, row: ref.row, col }],
  };
}

// q_i·k_j as printed terms (this head's columns).
function dotTerms(head, i, j) {
  return products(rowOf(head.q, i), rowOf(head.k, j));
}

function explainDots(ref, ctx) {
  const { result, dots, t } = ctx;
  const head = result.perHead[ref.head];
  const terms = dotTerms(head, ref.row, ref.col);
  const value = at(dots.perHead[ref.head].scores, ref.row, ref.col);
  const mark = headMark(ctx, ref.head);
  return {
    symbol: `(QKᵀ)${mark}${indices(ref.row, ref.col)}`,
    heading: t('explain.dots.heading', { query: quote(result.tokens[ref.row]), key: quote(keyToken(result, ref.col)) }),
    tex: String.raw`(QK^T)_{ij} = q_i \cdot k_j = \sum_m q_{im}\,k_{jm}`,
    lines: [`(QKᵀ)${indices(ref.row, ref.col)} = q${sub(ref.row + 1)}·k${sub(ref.col + 1)} = ${sum(terms)} ${approx(value)}${termsNote(terms, t)}`],
    notes: [t('explain.dots.note')],
    deps: [
      { name: 'q', head: ref.head, row: ref.row },
      { name: 'k', head: ref.head, row: ref.col },
    ],
  };
}

function explainScores(ref, ctx) {
  const { result, dots, state, t } = ctx;
  const head = result.perHead[ref.head];
  const terms = dotTerms(head, ref.row, ref.col);
  const value = at(head.scores, ref.row, ref.col);
  const dot = at(dots.perHead[ref.head].scores, ref.row, ref.col);
  const s = `s${indices(ref.row, ref.col)}`;
  const lines = [];
  const notes = [];
  if (state.scale) {
    lines.push(`${s} = (${sum(terms)})/√${result.dK} ${approx(value)}${termsNote(terms, t)}`);
    lines.push(`${s} = q${sub(ref.row + 1)}·k${sub(ref.col + 1)}/√${result.dK} = ${fmt(dot)}/√${result.dK} ${approx(value)}`);
    notes.push(t('explain.scores.why'));
  } else {
    lines.push(`${s} = q${sub(ref.row + 1)}·k${sub(ref.col + 1)} = ${sum(terms)} ${approx(value)}${termsNote(terms, t)}`);
    notes.push(t('explain.scores.unscaled'));
  }
  return {
    symbol: `${s}${headMark(ctx, ref.head)}`,
    heading: t('explain.scores.heading', { query: quote(result.tokens[ref.row]), key: quote(keyToken(result, ref.col)) }),
    tex: state.scale ? String.raw`s_{ij} = \frac{q_i \cdot k_j}{\sqrt{d_k}}` : String.raw`s_{ij} = q_i \cdot k_j`,
    lines,
    notes,
    deps: [
      { name: 'q', head: ref.head, row: ref.row },
      { name: 'k', head: ref.head, row: ref.col },
      { name: 'dots', head: ref.head, row: ref.row, col: ref.col },
    ],
  };
}

function explainMasked(ref, ctx) {
  const { result, dots, state, t } = ctx;
  const head = result.perHead[ref.head];
  const value = at(head.masked, ref.row, ref.col);
  const isMasked = at(result.mask, ref.row, ref.col) === 1;
  const m = isMasked ? fillText(state.maskFill) : '0';
  const mTerm = m.startsWith('−') ? `(${m})` : m;
  const ij = indices(ref.row, ref.col);
  const lines = [];
  let tex;
  if (state.maskBeforeScale && state.scale) {
    const dot = at(dots.perHead[ref.head].scores, ref.row, ref.col);
    lines.push(`(q${sub(ref.row + 1)}·k${sub(ref.col + 1)} + m${ij})/√${result.dK} = (${fmt(dot)} + ${mTerm})/√${result.dK} ${approx(value)}`);
    tex = String.raw`\frac{q_i \cdot k_j + m_{ij}}{\sqrt{d_k}}`;
  } else if (head.bias) {
    // ALiBi's bias between the score and the mask (the engine's order).
    const b = at(head.bias, ref.row, ref.col);
    lines.push(
      `s${ij} + b${ij} + m${ij} = ${fmt(at(head.scores, ref.row, ref.col))} + ${b < 0 ? `(${fmt(b)})` : fmt(b)} + ${mTerm} ${approx(value)}`,
    );
    tex = String.raw`s_{ij} + b_{ij} + m_{ij}`;
  } else {
    lines.push(`s${ij} + m${ij} = ${fmt(at(head.scores, ref.row, ref.col))} + ${mTerm} ${approx(value)}`);
    tex = String.raw`s_{ij} + m_{ij}`;
  }
  const notes = [];
  if (isMasked) notes.push(maskReason(ctx, ref.row, ref.col));
  if (isMasked && state.maskFill === '0') notes.push(t('explain.mask.fillZero'));
  if (isMasked && state.maskFill === '-1e9') notes.push(t(state.maskBeforeScale ? 'explain.masked.before' : 'explain.masked.after'));
  return {
    symbol: `(S + ${head.bias ? 'B + ' : ''}M)${headMark(ctx, ref.head)}${ij}`,
    heading: t('explain.masked.heading', { query: quote(result.tokens[ref.row]), key: quote(keyToken(result, ref.col)) }),
    tex,
    lines,
    notes,
    deps: [
      { name: 'scores', head: ref.head, row: ref.row, col: ref.col },
      ...(head.bias ? [{ name: 'bias', head: ref.head, row: ref.row, col: ref.col }] : []),
      { name: 'mask', head: null, row: ref.row, col: ref.col },
    ],
  };
}

// ALiBi's bias: −m_h·|i − j|, the slope and the bias as the engine gives them.
function explainBias(ref, ctx) {
  const { result, t } = ctx;
  const head = result.perHead[ref.head];
  const slope = result.alibiSlopes?.[ref.head];
  if (!head?.bias || slope === undefined) return null;
  const ij = indices(ref.row, ref.col);
  return {
    symbol: `B${headMark(ctx, ref.head)}${ij}`,
    heading: t('explain.bias.heading', { query: quote(result.tokens[ref.row]), key: quote(keyToken(result, ref.col)) }),
    tex: String.raw`b_{ij} = -m_h\,|i - j|`,
    lines: [`b${ij} = −${String(Number(slope.toPrecision(4)))}·|${ref.row + 1} − ${ref.col + 1}| ${approx(at(head.bias, ref.row, ref.col))}`],
    notes: [t('explain.bias.note')],
    deps: [],
  };
}

// A row with no visible key (−∞ everywhere): the engine defines its weights as all zero.
const rowFullyMasked = (head, i) => head.rowMax[i] === -Infinity && head.rowSum[i] === 0;

// e^(z − max) as printed for key j of row i; z = (s + m)/τ.
function expTerm(ctx, head, i, j) {
  const { state } = ctx;
  const z = at(head.masked, i, j);
  const tau = state.temperature === 1 ? '' : `/${factor(state.temperature)}`;
  if (state.naive) return `e^(${fmt(z)}${tau})`;
  if (at(head.exps, i, j) === 1 && z !== -Infinity) return 'e^0';
  return `e^(${fmt(z)}${tau} − ${fmt(head.rowMax[i])})`.replace('− −', '+ ');
}

function explainExps(ref, ctx) {
  const { result, state, t } = ctx;
  const head = result.perHead[ref.head];
  const value = at(head.exps, ref.row, ref.col);
  const e = `e${indices(ref.row, ref.col)}`;
  const notes = [];
  const lines = [];
  if (rowFullyMasked(head, ref.row)) {
    lines.push(`${e} = 0`);
    notes.push(t('explain.row.allMasked'));
  } else {
    lines.push(`${e} = ${expTerm(ctx, head, ref.row, ref.col)} ${approx(value)}`);
    if (state.naive) notes.push(t('explain.naive.note'));
    else notes.push(t('explain.exps.note', { max: fmt(head.rowMax[ref.row]) }));
    if (value === Infinity) notes.push(t('explain.naive.overflow'));
    if (state.temperature !== 1) notes.push(t('explain.temperature', { tau: factor(state.temperature) }));
  }
  return {
    symbol: `${e}${headMark(ctx, ref.head)}`,
    heading: t('explain.exps.heading', { query: quote(result.tokens[ref.row]), key: quote(keyToken(result, ref.col)) }),
    tex: state.naive ? String.raw`e^{z_{ij}},\quad z = (S + M)/\tau` : String.raw`e^{\,z_{ij} - \max_k z_{ik}},\quad z = (S + M)/\tau`,
    lines,
    notes,
    deps: [{ name: 'masked', head: ref.head, row: ref.row }],
  };
}

function explainWeights(ref, ctx) {
  const { result, state, t } = ctx;
  const head = result.perHead[ref.head];
  const i = ref.row;
  const value = at(head.weights, i, ref.col);
  const a = `a${indices(i, ref.col)}`;
  const lines = [];
  const notes = [];
  const deps = [
    { name: 'masked', head: ref.head, row: i },
    { name: 'exps', head: ref.head, row: i },
  ];
  const overQueries = state.softmaxOver === 'queries';
  if (overQueries) {
    // Normalised over key j's column (the misconception): the row's terms do not make it.
    const c = sub(ref.col + 1);
    lines.push(`${a} = ${fmt(at(head.exps, i, ref.col))} / Σₖ e^(zₖ${c} − maxₖ zₖ${c}) ${approx(value)}`);
    notes.push(t('explain.weights.queries', { token: quote(result.tokens[i]), key: quote(keyToken(result, ref.col)), sum: fmt(head.weightSum[i]) }));
  } else if (rowFullyMasked(head, i)) {
    lines.push(`${a} = 0`);
    notes.push(t('explain.row.allMasked'));
  } else {
    const visible = [];
    for (let j = 0; j < result.Tk; j += 1) if (at(head.masked, i, j) !== -Infinity) visible.push(j);
    const terms = visible.map((j) => expTerm(ctx, head, i, j));
    const hidden = result.Tk - visible.length;
    const own = at(head.masked, i, ref.col) === -Infinity ? 'e^(−∞)' : expTerm(ctx, head, i, ref.col);
    const denominator = terms.length === 1 ? terms[0] : `(${sum(terms)})`;
    lines.push(`${a} = ${own} / ${denominator} ${approx(value)}${termsNote(terms, t)}`);
    lines.push(`${a} = ${fmt(at(head.exps, i, ref.col))} / ${fmt(head.rowSum[i])} ${approx(value)}`);
    if (hidden > 0) notes.push(t('explain.weights.hidden', { n: hidden }));
    if (at(result.mask, i, ref.col) === 1 && state.maskFill === '0') notes.push(t('explain.mask.fillZero'));
    if (state.naive) notes.push(t(Number.isNaN(value) ? 'explain.naive.nan' : 'explain.naive.note'));
    if (state.temperature !== 1) notes.push(t('explain.temperature', { tau: factor(state.temperature) }));
    if (Number.isFinite(head.rowSum[i])) notes.push(t('explain.weights.rowSum', { token: quote(result.tokens[i]) }));
  }
  return {
    symbol: `${a}${headMark(ctx, ref.head)}`,
    heading: t('explain.weights.heading', { query: quote(result.tokens[i]), key: quote(keyToken(result, ref.col)) }),
    tex: overQueries
      ? String.raw`a_{ij} = \frac{e^{\,z_{ij} - \max_k z_{kj}}}{\sum_k e^{\,z_{kj} - \max_k z_{kj}}}`
      : state.naive
        ? String.raw`a_{ij} = \frac{e^{z_{ij}}}{\sum_k e^{z_{ik}}}`
        : String.raw`a_{ij} = \frac{e^{\,z_{ij} - \max_k z_{ik}}}{\sum_k e^{\,z_{ik} - \max_k z_{ik}}}`,
    lines,
    notes,
    deps,
  };
}

function explainContext(ref, ctx) {
  const { result, state, t } = ctx;
  const head = result.perHead[ref.head];
  const i = ref.row;
  const value = at(head.context, i, ref.col);
  const used = [];
  for (let j = 0; j < result.Tk; j += 1) if (at(head.masked, i, j) !== -Infinity && !rowFullyMasked(head, i)) used.push(j);
  const a = (j) => factor(at(head.weights, i, j));
  const cellTerms = used.map((j) => `${a(j)}·${operand(at(head.v, j, ref.col))}`);
  const rowTerms = used.map((j) => `${a(j)}·v${sub(j + 1)}`);
  const o = `o${indices(i, ref.col)}`;
  const lines = [
    `${o} = ${sum(cellTerms)} ${approx(value)}${termsNote(cellTerms, t)}`,
    `o${sub(i + 1)} = ${sum(rowTerms)} ≈ ${vector(rowOf(head.context, i))}`,
  ];
  const notes = [t('explain.context.note')];
  if (used.length < result.Tk) notes.push(t('explain.context.hidden', { n: result.Tk - used.length }));
  if (state.weights === 'identity' && !state.wv) notes.push(t('explain.context.identity'));
  if (Number.isNaN(value)) notes.push(t('explain.naive.nan'));
  return {
    symbol: `${o}${headMark(ctx, ref.head)}`,
    heading: t('explain.context.heading', { token: quote(result.tokens[i]), j: ref.col + 1 }),
    tex: String.raw`o_i = \sum_j a_{ij}\, v_j`,
    lines,
    notes,
    deps: [
      { name: 'weights', head: ref.head, row: i },
      { name: 'v', head: ref.head, col: ref.col },
    ],
  };
}

const EXPLAINERS = {
  x: explainX,
  wq: explainWeight,
  wk: explainWeight,
  wv: explainWeight,
  wo: explainWeight,
  q: explainProjection,
  k: explainProjection,
  v: explainProjection,
  concat: explainConcat,
  output: explainOutput,
  mask: explainMask,
  dots: explainDots,
  scores: explainScores,
  bias: explainBias,
  masked: explainMasked,
  exps: explainExps,
  weights: explainWeights,
  context: explainContext,
};

/** The explanation of one cell (see the top of this file), or null for an unknown cell. */
export function explainCell(ref, ctx) {
  if (!ref || !ctx?.result) return null;
  if (ref.name === 'cmp-weights' || ref.name === 'cmp-context') {
    if (!ctx.compare) return null;
    const mask = compareMaskOf(ctx.state.mask);
    const other = withFields(ctx, { result: ctx.compare, state: { ...ctx.state, mask } });
    const explained = explainCell({ ...ref, name: ref.name.slice(4) }, other);
    if (!explained) return null;
    explained.heading = `${explained.heading} · ${ctx.t(`mask.kind.${mask}`)}`;
    explained.deps = explained.deps.map((d) => (d.name === 'weights' ? { ...d, name: 'cmp-weights' } : d));
    return explained;
  }
  const explain = EXPLAINERS[ref.name];
  if (!explain) return null;
  if (ref.head !== null && ['q', 'k', 'v'].includes(ref.name)) return explainHeadSlice(ref, ctx);
  if (ref.head === null && !['x', 'wq', 'wk', 'wv', 'wo', 'q', 'k', 'v', 'concat', 'output', 'mask'].includes(ref.name)) return null;
  return explain(ref, ctx);
}
