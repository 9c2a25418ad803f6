// What the lesson shows, without the DOM: for a step, its groups of figures (which matrices, of
// which heads, as inputs or outputs) and for a figure its spec (symbol, title, labels, tools, and
// whether a table or a canvas draws it). lesson/view.js turns these into the page.
// ctx: { result, dots, compare, state, t } (companions.js).
import { superscript, subscript } from '../i18n/index.js';
import { allHeadsShown, matrixPresentation, printed } from '../render/policy.js';
import { compareMaskOf } from './companions.js';
import { fillText } from './explain.js';
import { fmt } from '../render/numbers.js';
import { EDITABLE, STEPS, stepIndex } from './steps.js';

const WEIGHT_MATRICES = new Set(['weights', 'exps', 'cmp-weights']);
const SQUARE = new Set(['dots', 'scores', 'bias', 'masked', 'exps', 'weights', 'mask', 'cmp-weights']);
const W_SYMBOL = { wq: 'W_Q', wk: 'W_K', wv: 'W_V', wo: 'W_O' };

/** The matrix called `name` (of head `head`, or a model matrix for null) in the results, or null. */
export function matrixOf(name, head, ctx) {
  const { result, compare } = ctx; // ctx.dots is read only for QKᵀ: it may be a run not made yet
  if (head === null) {
    if (name in W_SYMBOL) return result.weights[name];
    return result[name] ?? null;
  }
  const perHead = result.perHead[head];
  if (!perHead) return null;
  if (name === 'dots') return ctx.dots?.perHead[head]?.scores ?? null;
  if (name === 'cmp-weights') return compare?.perHead[head]?.weights ?? null;
  if (name === 'cmp-context') return compare?.perHead[head]?.context ?? null;
  return perHead[name] ?? null;
}

export function symbolOf(name, head, ctx) {
  const { t, state } = ctx;
  const sym = head === null ? {} : { h: superscript(head + 1), hs: subscript(head + 1) };
  if (name in W_SYMBOL) return W_SYMBOL[name];
  if (head === null) return t(`sym.${name}`);
  const other = `${t('sym.weights', sym)} · ${t(`mask.kind.${compareMaskOf(state.mask)}`)}`;
  // Compared with another mask, the page's own A and O say which mask they are for.
  if (ctx.compare && (name === 'weights' || name === 'context')) return `${t(`sym.${name}`, sym)} · ${t(`mask.kind.${state.mask}`)}`;
  switch (name) {
    case 'q':
      return t('sym.headQ', sym);
    case 'k':
      return t('sym.headK', sym);
    case 'v':
      return t('sym.headV', sym);
    case 'masked':
      if (state.maskBeforeScale && state.scale) return t('sym.maskedBefore', sym);
      return t(state.alibi ? 'sym.maskedAlibi' : 'sym.masked', sym);
    case 'cmp-weights':
      return other;
    case 'cmp-context':
      return `${t('sym.context', sym)} · ${t(`mask.kind.${compareMaskOf(state.mask)}`)}`;
    default:
      return t(`sym.${name}`, sym);
  }
}

export function figureSpec(name, head, role, ctx, { tokensKey, tokensOnCanvas }) {
  const { result, t } = ctx;
  const matrix = matrixOf(name, head, ctx);
  if (!matrix) return null;
  const tokens = result.tokens;
  const keys = (result.source ?? result).tokens; // keys and values: the source's in cross-attention
  const isW = name in W_SYMBOL;
  const editable = role === 'output' && EDITABLE.has(name);
  const tools = [];
  if (editable) {
    tools.push({ id: 'random', label: t('tool.random') }, { id: 'identity', label: t('tool.identity') });
    if (name === 'x') tools.push({ id: 'x10', label: t('tool.x10') });
    tools.push({ id: 'reset', label: t('tool.reset') });
  }
  const producer = role === 'input' ? STEPS.find((s) => s.model.includes(name) || s.head.includes(name)) : null;
  const spec = {
    name,
    head,
    rows: matrix.rows,
    cols: matrix.cols,
    symbol: symbolOf(name, head, ctx),
    title: name.startsWith('cmp-') ? t(`name.${name.slice(4)}`) : t(`name.${name}`),
    kind: name === 'mask' ? 'mask' : WEIGHT_MATRICES.has(name) ? 'weights' : 'signed',
    corner: isW ? '' : undefined,
    rowLabels: isW ? Array.from({ length: printed(matrix.rows) }, (_, r) => String(r + 1)) : ['k', 'v'].includes(name) ? keys : tokens,
    colTokens: SQUARE.has(name) ? keys : null,
    editable,
    toggle: name === 'mask',
    sumColumn: name === 'weights' || name === 'cmp-weights',
    tag: producer ? t('lesson.fromStep', { n: stepIndex(producer.id) + 1 }) : null,
    tools,
    t,
  };
  // (Not the symbol: a view takes a new one in place, viewFor.)
  const { kind } = matrixPresentation({ rows: matrix.rows, cols: matrix.cols, isWeight: isW, tokens: result.T, keys: result.Tk, tokensOnCanvas });
  spec.surface = kind;
  spec.key = [
    role,
    name,
    head,
    spec.rows,
    spec.cols,
    spec.title,
    spec.tag,
    isW ? spec.rows : tokensKey,
    spec.colTokens ? 'sq' : '',
    editable,
    tools.map((x) => x.label).join(','),
    t('table.corner'),
    kind,
  ].join('|');
  return { spec, matrix };
}

export function shownHeads(ctx) {
  const { result, state } = ctx;
  if (allHeadsShown({ heads: result.heads, tokens: result.T, keys: result.Tk })) return { all: true, heads: result.perHead.map((_, k) => k) };
  return { all: false, heads: [state.head - 1] };
}

// What a step shows: groups of figures, each figure a [name, head, role].
export function stepPlan(step, single, ctx) {
  const groups = [];
  if (single && step.inputs.length) groups.push({ head: null, figures: step.inputs.map((n) => [n, null, 'input']) });
  if (step.id === 'qkv') {
    groups.push({ head: null, figures: ['wq', 'wk', 'wv'].map((n) => [n, null, 'output']) });
    groups.push({ head: null, figures: ['q', 'k', 'v'].map((n) => [n, null, 'output']) });
  } else if (step.model.length) {
    groups.push({ head: null, figures: step.model.map((n) => [n, null, 'output']) });
  }
  const perHead = step.head.length > 0 || (single && step.headInputs.length > 0);
  const { all, heads } = shownHeads(ctx);
  if (perHead) {
    for (const k of heads) {
      const inputs = single ? step.headInputs.map((n) => [n, k, 'input']) : [];
      const own = step.head.map((n) => [n, k, 'output']);
      // A comparison puts the step's result and the compared one side by side, first.
      const figures =
        ctx.compare && step.compare.length
          ? [own[own.length - 1], ...step.compare.map((n) => [n, k, 'output']), ...own.slice(0, -1), ...inputs]
          : [...inputs, ...own];
      groups.push({ head: k, figures });
    }
  }
  return { groups, tabs: perHead && !all };
}

// The entries a step shows (its plan, without making a figure); `rowsOnly`: of its matrices
// with a row per token (not the W matrices).
export function stepCells(step, single, ctx, rowsOnly = false) {
  let cells = 0;
  for (const group of stepPlan(step, single, ctx).groups) {
    for (const [name, head] of group.figures) {
      const matrix = rowsOnly && name in W_SYMBOL ? null : matrixOf(name, head, ctx);
      if (matrix) cells += matrix.rows * matrix.cols;
    }
  }
  return cells;
}

/** What a figure's update needs besides its numbers (render/matrix.js): the mask that greys its
 *  masked entries, how M prints a masked entry (and the key of both names), the Σ column’s text per row. */
export function drawOptions(spec, rows, ctx) {
  const { name } = spec;
  const { result, compare, state } = ctx;
  const options = {};
  const source = name.startsWith('cmp-') ? compare : result;
  if (['masked', 'exps', 'weights', 'cmp-weights'].includes(name)) options.mask = source.mask;
  if (name === 'mask' || name === 'masked') options.fillText = fillText(state.maskFill); // (its legend names the fill)
  if (spec.sumColumn) {
    const head = source.perHead[spec.head];
    options.rowSums = Array.from({ length: rows }, (_, r) => {
      const row = head.weights.data.subarray(r * head.weights.cols, (r + 1) * head.weights.cols);
      if (head.weights.hidden?.[r * head.weights.cols] === 1) return '?'; // (an exercise asks for this row)
      if (row.some(Number.isNaN)) return 'NaN';
      // Over queries a row's sum is anything: the core's Σ_j a_ij, printed
      if (state.softmaxOver === 'queries') return fmt(head.weightSum[r]);
      return head.rowSum[r] === 0 ? '0' : '1';
    });
  }
  return options;
}

/** The marks of a figure (render/matrix.js highlight) for the explained entry `ref` and what it
 *  depends on (`deps`: entries, rows or columns), or null when the figure shows none of them. */
export function marksFor(spec, ref, deps = []) {
  const { name, head } = spec;
  const marks = { self: null, cells: [], rows: [], cols: [] };
  if (name === ref.name && head === ref.head) marks.self = [ref.row, ref.col];
  for (const dep of deps) {
    if (dep.name !== name || dep.head !== head) continue;
    if (dep.row !== undefined && dep.col !== undefined) marks.cells.push([dep.row, dep.col]);
    else if (dep.row !== undefined) marks.rows.push(dep.row);
    else if (dep.col !== undefined) marks.cols.push(dep.col);
  }
  return marks.self || marks.cells.length || marks.rows.length || marks.cols.length ? marks : null;
}
