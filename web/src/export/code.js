// The current configuration as a runnable Python script, PyTorch or NumPy, in the style of the
// course's complete example (attention-worked-example.zh.txt, 6.7): the inputs and the weights
// as numbers, Q/K/V, scores, mask, softmax, context, each printed; after each print, in a
// comment, the numbers the playground shows. One generator writes both scripts; DIALECTS holds
// the few places where the two libraries spell things differently. No DOM here.
//
// The script computes what the engine computes (cpp/forward_reference.cpp):
//   masked = QKᵀ/√d_k + M   (or (QKᵀ + M)/√d_k with maskBeforeScale), M = fill where masked
//   A = softmax(masked / τ)  (a row with every key masked by −∞ is all zeros, not NaN)
// The inputs are written as the shortest decimals that give the same float32 numbers, so the
// script starts from exactly the engine's inputs.
import { formatFloat32 } from '../state/url.js';
import { toRows } from './matrices.js';
import { visibleText } from './visible-text.js';

// Expected values printed in comments: at most this many rows and columns of each matrix.
const COMMENT_MAX = 16;

// How each library writes what the script needs. `defaultFloat` is the dtype a constructor gives
// Python floats when none is named: the generator names a dtype only where it differs, so PyTorch
// reads `torch.eye(3)` and NumPy `np.eye(3, dtype=np.float32)`, both float32 like the engine.
const DIALECTS = {
  pytorch: {
    library: 'PyTorch',
    setup: ['import torch', '', 'torch.set_printoptions(precision=4, sci_mode=False)'],
    ns: 'torch',
    literal: 'tensor',
    defaultFloat: 'float32',
    shape: (dims) => dims.join(', '),
    axis: 'dim',
    concat: 'cat',
    toFloat32: '.float()',
    negInf: 'float("-inf")',
    causalMask: (T, Tk) => `torch.triu(torch.ones(${T}, ${Tk}), diagonal=1).bool()`,
    fillNote: '; with −∞ this is scores.masked_fill(mask, float("-inf"))',
    maskedFill: (zeros, fill) => [`M = ${zeros}.masked_fill(mask, ${fill})`],
    softmaxDefinition: () => [],
    softmax: (z, naive, axis) =>
      naive
        ? [
            `e = torch.exp(${z})  # naive: no max subtracted, overflows to inf for large scores`,
            `attn_weights = e / e.sum(dim=${axis}, keepdim=True)`,
          ]
        : [`attn_weights = torch.softmax(${z}, dim=${axis})`],
  },
  numpy: {
    library: 'NumPy',
    setup: ['import numpy as np', '', 'np.set_printoptions(precision=4, suppress=True)'],
    ns: 'np',
    literal: 'array',
    defaultFloat: 'float64',
    shape: (dims) => `(${dims.join(', ')})`,
    axis: 'axis',
    concat: 'concatenate',
    toFloat32: '.astype(np.float32)',
    negInf: '-np.inf',
    causalMask: (T, Tk) => `np.triu(np.ones((${T}, ${Tk}), dtype=bool), k=1)`,
    fillNote: '',
    maskedFill: (zeros, fill) => [`M = ${zeros}`, `M[mask] = ${fill}`],
    // A function of its own, so the error state NumPy would warn about is set in one place.
    softmaxDefinition: (naive, axis) => [
      'def softmax(z):',
      ...(naive
        ? [
            '    # naive: e^z / Σ e^z without subtracting the row max; overflows to inf for large scores',
            "    with np.errstate(over='ignore', invalid='ignore'):",
            '        e = np.exp(z)',
          ]
        : [
            '    # subtract the row max first: every exponent is ≤ 0, so exp cannot overflow',
            "    with np.errstate(invalid='ignore'):",
            `        e = np.exp(z - z.max(axis=${axis}, keepdims=True))`,
          ]),
      `        return e / e.sum(axis=${axis}, keepdims=True)`,
      '',
    ],
    softmax: (z) => [`attn_weights = softmax(${z})`],
  },
};

// The facts of one run, read from the engine config and its result.
function describeRun(config, result) {
  const { T, Tk, dModel, heads, kvHeads, dK } = result;
  const positional = config.positional === 'sinusoidal';
  const maskRows = toRows(result.mask).map((row) => row.map((m) => m !== 0));
  const fillValue = config.maskFill;
  const fill = fillValue === undefined || fillValue === '-inf' || fillValue === -Infinity ? '-inf' : Number(fillValue);
  const kind = config.mask ?? 'causal';
  const padding = Array.isArray(config.padding) && config.padding.some(Boolean);
  return {
    T,
    Tk,
    dModel,
    heads,
    kvHeads,
    dK,
    tokens: result.tokens,
    sourceTokens: result.source?.tokens ?? null,
    embeddings: toRows(positional ? result.embeddings : result.x),
    source: result.source ? toRows(result.source.x) : null,
    positional,
    // Not written into the script yet (docs/modern-attention.md): said in its header.
    missing: [config.positional === 'rope' ? 'RoPE' : null, config.alibi ? 'ALiBi' : null].filter(Boolean),
    maskRows,
    anyMasked: maskRows.some((row) => row.some(Boolean)),
    simpleCausal: kind === 'causal' && !padding && !result.source && T === Tk,
    maskLabel: maskLabel(config, kind, padding),
    fill,
    fullyMasked: fill === '-inf' && maskRows.some((row) => row.length > 0 && row.every(Boolean)),
    scale: config.scale !== false,
    beforeScale: config.maskBeforeScale === true,
    temperature: config.temperature ?? 1,
    naive: config.naiveSoftmax === true,
    // The softmax's axis: -1 normalises each query row; -2 each key column (the misconception).
    axis: config.softmaxOver === 'queries' ? -2 : -1,
    fullyMaskedColumns: fill === '-inf' && maskRows.length > 0 && maskRows[0].some((_, j) => maskRows.every((row) => row[j])),
  };
}

function maskLabel(config, kind, padding) {
  const base =
    {
      none: 'no mask',
      causal: 'causal mask',
      window: `sliding-window mask (w = ${config.window ?? 1})`,
      prefix: `prefix-LM mask (p = ${config.prefix ?? 0})`,
      custom: 'custom mask',
    }[kind] ?? `${kind} mask`;
  return padding ? `${base} + padding` : base;
}

// ---- Python text helpers ------------------------------------------------------------------------

// A float32 as a Python float literal (always with '.', 'e', 'inf' or 'nan').
function pyFloat(value) {
  if (value === -Infinity) return 'float("-inf")';
  if (value === Infinity) return 'float("inf")';
  if (Number.isNaN(value)) return 'float("nan")';
  const text = formatFloat32(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

// A Python str literal that reads back as exactly the same text (a token may hold a NUL, a
// quote, a lone surrogate…): JSON's escapes are Python's too, and JSON.stringify writes control
// characters and lone surrogates as escapes. DEL, C1 and U+2028/2029, which JSON leaves raw and
// some editors or readers take as line ends or hide, are escaped as well.
const pyString = (text) =>
  JSON.stringify(String(text)).replace(/[\u007F-\u009F\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// A comment holds the text as seen (visible-text.js), on one line: Python refuses a NUL anywhere
// in a source file, and a line break would end the comment.
const commentSafe = (text) => visibleText(text).replace(/[\u0085\u2028\u2029]/g, ' ');

// A nested-list literal, one row per line, each row optionally labelled with a comment (e.g. its
// token); `trailing` follows the closing bracket, and the labels line up after it.
function pyRows(rows, format, labels = null, trailing = '') {
  const texts = rows.map((row) => `[${row.map(format).join(', ')}]`);
  const width = Math.max(0, ...texts.map((t) => t.length));
  return texts
    .map((text, r) => {
      const last = r === rows.length - 1;
      const label = labels?.[r] === undefined ? '' : `${' '.repeat(width - text.length + (last ? 0 : trailing.length))}  # ${commentSafe(labels[r])}`;
      return `  ${r === 0 ? '[' : ' '}${text}${last ? `]${trailing}` : ','}${label}`;
    })
    .join('\n');
}

const fixed4 = (value) => {
  if (value === -Infinity) return '-inf';
  if (value === Infinity) return 'inf';
  if (Number.isNaN(value)) return 'nan';
  const text = value.toFixed(4);
  return text === '-0.0000' ? '0.0000' : text;
};

// The playground's values of a matrix as comment lines (4 decimals, as the script prints them).
export function expectedComment(matrix, indent = 0, title = 'the playground shows') {
  const pad = ' '.repeat(indent);
  const rows = toRows(matrix);
  const lines = [`${pad}# ${title}:`];
  for (const row of rows.slice(0, COMMENT_MAX)) {
    const cells = row.slice(0, COMMENT_MAX).map(fixed4);
    if (row.length > COMMENT_MAX) cells.push('…');
    lines.push(`${pad}#   ${cells.map((c) => c.padStart(7)).join(' ')}`);
  }
  if (rows.length > COMMENT_MAX) lines.push(`${pad}#   … (${rows.length} rows)`);
  return lines.join('\n');
}

function isIdentity({ rows, cols, data }) {
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) if (data[r * cols + c] !== (r === c ? 1 : 0)) return false;
  }
  return true;
}

function header(run, link, library) {
  const { T, dModel, heads, kvHeads, dK } = run;
  const headsText = `${heads} head${heads > 1 ? 's' : ''}${kvHeads !== heads ? ` sharing ${kvHeads} key/value head(s)` : ''}`;
  const fillText = run.anyMasked ? `, masked scores get ${run.fill === '-inf' ? '−∞' : run.fill}` : '';
  return [
    `# Attention playground: the page's computation as a ${library} script.`,
    ...(link ? [`# Link: ${commentSafe(link)}`] : []),
    `# T = ${T} tokens, d_model = ${dModel}, ${headsText} (d_k = ${dK}), ${run.maskLabel}${fillText}.`,
    `# Scores ${run.scale ? 'divided by √d_k' : 'not scaled'}${run.beforeScale ? ', mask added before the scaling' : ''}` +
      `${run.temperature !== 1 ? `, softmax temperature τ = ${run.temperature}` : ''}${run.naive ? ', naive softmax (no max subtracted)' : ''}` +
      `${run.axis === -2 ? ', softmax over the queries (each column sums to 1: the misconception)' : ''}.`,
    ...(run.missing.length
      ? [`# Not in this script: the page's ${run.missing.join(' and ')}. Its scores, weights and outputs differ from the comments below.`]
      : []),
    '# The inputs and weights are the numbers the playground used (float32, written exactly); after',
    '# each print, a comment holds the numbers the playground shows, to 4 decimals.',
  ];
}

// The embedding rows labelled like the course: "Your     (x^1)".
function tokenLabels(tokens) {
  const width = Math.max(0, ...tokens.map((t) => [...t].length));
  return tokens.map((token, i) => `${token}${' '.repeat(width - [...token].length)}  (x^${i + 1})`);
}

// What each head prints: [label after one head, label in the loop over heads, variable, result key].
const HEAD_MATRICES = [
  ['attention scores', 'attention scores', 'scores', 'scores'],
  ['masked scores', 'masked scores', 'masked', 'masked'],
  ['attention weights', 'attention weights', 'attn_weights', 'weights'],
  ['context vectors', 'context', 'context', 'context'],
];

// ---- the generator ------------------------------------------------------------------------------

function pythonScript(dialect, { config, result, link = null }) {
  const d = dialect;
  const run = describeRun(config, result);
  const { T, Tk, heads, kvHeads, dK } = run;
  const out = [];
  const line = (...texts) => out.push(...(texts.length ? texts : ['']));
  const indented = (pad, texts) => line(...texts.map((text) => `${pad}${text}`));
  // Constructors name a dtype only where the library's default float differs from it.
  const dtype = (type) => (type === d.defaultFloat ? '' : `, dtype=${d.ns}.${type}`);
  const zeros = (dims, type) => `${d.ns}.zeros(${d.shape(dims)}${dtype(type)})`;
  const float32Literal = dtype('float32') !== '';
  const matrixLiteral = (name, rows, labels = null) => {
    line(`${name} = ${d.ns}.${d.literal}(`, pyRows(rows, pyFloat, labels, float32Literal ? ',' : ''));
    if (float32Literal) line(`  dtype=${d.ns}.float32,`);
    line(')');
  };

  // Inputs: tokens, embeddings (plus sinusoidal positions), the source of cross-attention, weights.
  line(...header(run, link, d.library), ...d.setup);
  line();
  line(`tokens = [${run.tokens.map(pyString).join(', ')}]`);
  line();
  matrixLiteral(run.positional ? 'embeddings' : 'inputs', run.embeddings, tokenLabels(run.tokens));
  if (run.positional) {
    line();
    line('# sinusoidal positions: P[t, 2i] = sin(t / 10000^(2i/d_model)), P[t, 2i+1] = cos(the same angle)');
    line(`d_model = ${run.dModel}`);
    line(`t = ${d.ns}.arange(len(tokens), dtype=${d.ns}.float64)[:, None]`);
    line(`angle = t / 10000 ** (${d.ns}.arange(0, d_model, 2, dtype=${d.ns}.float64) / d_model)`);
    line(`P = ${zeros(['len(tokens)', 'd_model'], 'float64')}`);
    line(`P[:, 0::2] = ${d.ns}.sin(angle)`);
    line(`P[:, 1::2] = ${d.ns}.cos(angle[:, : d_model // 2])`);
    line(`inputs = embeddings + P${d.toFloat32}`);
  }
  if (run.source) {
    line();
    line(`source_tokens = [${run.sourceTokens.map(pyString).join(', ')}]`);
    line(`# cross-attention: keys and values come from the source${run.positional ? ' (positions included)' : ''}`);
    matrixLiteral('source', run.source, run.sourceTokens);
  }
  line();
  for (const [name, symbol] of [
    ['wq', 'W_Q'],
    ['wk', 'W_K'],
    ['wv', 'W_V'],
    ['wo', 'W_O'],
  ]) {
    const matrix = result.weights[name];
    if (isIdentity(matrix)) {
      const cols = matrix.cols !== matrix.rows ? `, ${matrix.cols}` : '';
      line(`${symbol} = ${d.ns}.eye(${matrix.rows}${cols}${dtype('float32')})  # identity`);
    } else {
      matrixLiteral(symbol, toRows(matrix));
    }
  }
  line();

  // Q, K, V from the inputs (or, in cross-attention, K and V from the source), each printed.
  const kvSource = run.source ? 'source' : 'inputs';
  line('Q = inputs @ W_Q', `K = ${kvSource} @ W_K`, `V = ${kvSource} @ W_V`);
  line();
  for (const [name, matrix] of [
    ['X', result.x],
    ['Q', result.q],
    ['K', result.k],
    ['V', result.v],
  ]) {
    line(`print("${name} =\\n", ${name === 'X' ? 'inputs' : name})`, expectedComment(matrix));
  }
  line();

  // The mask M: additive, fill where masked, 0 elsewhere.
  if (run.anyMasked) {
    if (run.simpleCausal) {
      line('# causal mask: token i sees tokens 1…i (True = masked)', `mask = ${d.causalMask(T, Tk)}`);
    } else {
      line(`# ${run.maskLabel} (True = masked)`, `mask = ${d.ns}.${d.literal}(`);
      line(
        pyRows(run.maskRows, (masked) => (masked ? 'True' : 'False'), run.tokens),
        ')',
      );
    }
    line(`# M = ${run.fill === '-inf' ? '−∞' : run.fill} where masked, 0 elsewhere${d.fillNote}`);
    line(...d.maskedFill(zeros([T, Tk], 'float32'), run.fill === '-inf' ? d.negInf : pyFloat(run.fill)));
  } else {
    line('# no mask: every token sees every token (M = 0)', `M = ${zeros([T, Tk], 'float32')}`);
  }
  line();
  out.push(...d.softmaxDefinition(run.naive, run.axis));

  // One head's attention, written once and indented into the loop when there are several heads.
  const scaleText = run.scale ? ' / d_k ** 0.5' : '';
  const attention = [
    `scores = q @ k.T${scaleText}`,
    run.beforeScale ? `masked = (q @ k.T + M)${scaleText}  # the mask before the scaling` : 'masked = scores + M',
    ...d.softmax(run.temperature !== 1 ? `masked / ${pyFloat(run.temperature)}` : 'masked', run.naive, run.axis),
    ...(run.fullyMasked && run.axis === -1
      ? ['# a row with every key masked: softmax gives 0/0 = nan; the playground defines it as zeros', `attn_weights[mask.all(${d.axis}=-1)] = 0.0`]
      : []),
    ...(run.fullyMaskedColumns && run.axis === -2
      ? ['# a key no query sees: its column is 0/0 = nan; the playground defines it as zeros', `attn_weights[:, mask.all(${d.axis}=0)] = 0.0`]
      : []),
    'context = attn_weights @ v',
  ];
  line(`d_k = ${dK}`);
  if (heads === 1) {
    line('q, k, v = Q, K, V', ...attention, 'concat = context');
    line();
    for (const [label, , variable, key] of HEAD_MATRICES) line(`print("${label} =\\n", ${variable})`, expectedComment(result.perHead[0][key]));
  } else {
    const shared = kvHeads !== heads;
    line(`num_heads = ${heads}`);
    if (shared) line(`kv_heads = ${kvHeads}  # query head h uses key/value head h // (num_heads // kv_heads)`);
    line('head_outputs = []', 'for h in range(num_heads):', '    cols = slice(h * d_k, (h + 1) * d_k)');
    if (shared) {
      line('    g = h // (num_heads // kv_heads)', '    q, k, v = Q[:, cols], K[:, g * d_k:(g + 1) * d_k], V[:, g * d_k:(g + 1) * d_k]');
    } else {
      line('    q, k, v = Q[:, cols], K[:, cols], V[:, cols]');
    }
    indented('    ', [...attention, 'head_outputs.append(context)']);
    for (const [, label, variable] of HEAD_MATRICES) line(`    print(f"head {h + 1}: ${label} =\\n", ${variable})`);
    line();
    result.perHead.forEach((head, h) => {
      for (const [, label, , key] of HEAD_MATRICES) line(expectedComment(head[key], 0, `head ${h + 1}, ${label}, the playground shows`));
    });
    line(`concat = ${d.ns}.${d.concat}(head_outputs, ${d.axis}=-1)`);
  }
  line('output = concat @ W_O');
  line();
  line('print("concat =\\n", concat)', expectedComment(result.concat));
  line('print("output =\\n", output)', expectedComment(result.output));
  return `${out.join('\n')}\n`;
}

/** { config, result, link? } → the PyTorch script (text). config: the engine config; result: its result. */
export const pytorchCode = (input) => pythonScript(DIALECTS.pytorch, input);

/** { config, result, link? } → the NumPy script (text). */
export const numpyCode = (input) => pythonScript(DIALECTS.numpy, input);
