// The current configuration as a runnable Python script, PyTorch or NumPy, in the style of the
// course's complete example (attention-worked-example.zh.txt, 6.7): the inputs and the weights
// as numbers, Q/K/V, scores, mask, softmax, context, each printed; after each print, in a
// comment, the numbers the playground shows. No DOM here.
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
    weights: Object.fromEntries(['wq', 'wk', 'wv', 'wo'].map((name) => [name, result.weights[name]])),
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
    result,
  };
}

function maskLabel(config, kind, padding) {
  const base = {
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

// A matrix literal, one row per line, each row labelled with a comment (e.g. its token).
function pyRows(rows, indent, labels = null, trailing = '') {
  const pad = ' '.repeat(indent);
  const texts = rows.map((row) => `[${row.map(pyFloat).join(', ')}]`);
  const width = Math.max(0, ...texts.map((t) => t.length));
  return texts
    .map((text, r) => {
      const open = r === 0 ? '[' : ' ';
      const close = r === rows.length - 1 ? `]${trailing}` : ',';
      const label = labels ? `  # ${commentSafe(labels[r])}` : '';
      return `${pad}${open}${text}${close}${labels ? ' '.repeat(width - text.length + (r === rows.length - 1 ? 0 : trailing.length)) : ''}${label}`;
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
  const shownRows = rows.slice(0, COMMENT_MAX);
  const lines = [`${pad}# ${title}:`];
  for (const row of shownRows) {
    const cells = row.slice(0, COMMENT_MAX).map(fixed4);
    if (row.length > COMMENT_MAX) cells.push('…');
    lines.push(`${pad}#   ${cells.map((c) => c.padStart(7)).join(' ')}`);
  }
  if (rows.length > COMMENT_MAX) lines.push(`${pad}#   … (${rows.length} rows)`);
  return lines.join('\n');
}

function isIdentity(matrix) {
  const { rows, cols, data } = matrix;
  for (let r = 0; r < rows; r += 1) {
    for (let c = 0; c < cols; c += 1) if (data[r * cols + c] !== (r === c ? 1 : 0)) return false;
  }
  return true;
}

function header(run, { link, library }) {
  const { T, dModel, heads, kvHeads, dK } = run;
  const headsText = `${heads} head${heads > 1 ? 's' : ''}${kvHeads !== heads ? ` sharing ${kvHeads} key/value head(s)` : ''}`;
  const fillText = run.anyMasked ? `, masked scores get ${run.fill === '-inf' ? '−∞' : run.fill}` : '';
  const lines = [
    `# Attention playground: the page's computation as a ${library} script.`,
    ...(link ? [`# Link: ${commentSafe(link)}`] : []),
    `# T = ${T} tokens, d_model = ${dModel}, ${headsText} (d_k = ${dK}), ${run.maskLabel}${fillText}.`,
    `# Scores ${run.scale ? 'divided by √d_k' : 'not scaled'}${run.beforeScale ? ', mask added before the scaling' : ''}` +
      `${run.temperature !== 1 ? `, softmax temperature τ = ${run.temperature}` : ''}${run.naive ? ', naive softmax (no max subtracted)' : ''}.`,
    '# The inputs and weights are the numbers the playground used (float32, written exactly); after',
    '# each print, a comment holds the numbers the playground shows, to 4 decimals.',
  ];
  return lines.join('\n');
}

// The embedding rows labelled like the course: "Your     (x^1)".
function tokenLabels(tokens) {
  const width = Math.max(0, ...tokens.map((t) => [...t].length));
  return tokens.map((token, i) => `${token}${' '.repeat(width - [...token].length)}  (x^${i + 1})`);
}

// ---- the parts both scripts share ----------------------------------------------------------------

// Q, K, V from the inputs (or, in cross-attention, K and V from the source), each printed.
function projections(line, run, result) {
  const kvSource = run.source ? 'source' : 'inputs';
  line('Q = inputs @ W_Q');
  line(`K = ${kvSource} @ W_K`);
  line(`V = ${kvSource} @ W_V`);
  line();
  line('print("X =\\n", inputs)');
  line(expectedComment(result.x));
  line('print("Q =\\n", Q)');
  line(expectedComment(result.q));
  line('print("K =\\n", K)');
  line(expectedComment(result.k));
  line('print("V =\\n", V)');
  line(expectedComment(result.v));
  line();
}

// The attention of one head (`body`, the library's own lines) for each head, the concatenation
// (`concatExpression` in the library's words) and the output projection, each printed with the
// playground's numbers.
function headsAndOutput(line, run, result, body, concatExpression) {
  const { heads, kvHeads, dK } = run;
  line(`d_k = ${dK}`);
  if (heads === 1) {
    line('q, k, v = Q, K, V');
    body(0).forEach((text) => line(text));
    line('concat = context');
    line();
    printHead(line, result.perHead[0], '', 0, 'print');
  } else {
    line(`num_heads = ${heads}`);
    if (kvHeads !== heads) line(`kv_heads = ${kvHeads}  # query head h uses key/value head h // (num_heads // kv_heads)`);
    line('head_outputs = []');
    line('for h in range(num_heads):');
    line('    cols = slice(h * d_k, (h + 1) * d_k)');
    if (kvHeads !== heads) {
      line('    g = h // (num_heads // kv_heads)');
      line('    q, k, v = Q[:, cols], K[:, g * d_k:(g + 1) * d_k], V[:, g * d_k:(g + 1) * d_k]');
    } else {
      line('    q, k, v = Q[:, cols], K[:, cols], V[:, cols]');
    }
    body(4).forEach((text) => line(text));
    line('    head_outputs.append(context)');
    line('    print(f"head {h + 1}: attention scores =\\n", scores)');
    line('    print(f"head {h + 1}: masked scores =\\n", masked)');
    line('    print(f"head {h + 1}: attention weights =\\n", attn_weights)');
    line('    print(f"head {h + 1}: context =\\n", context)');
    line();
    result.perHead.forEach((head, h) => expectedHead(line, head, h));
    line(`concat = ${concatExpression}`);
  }
  line('output = concat @ W_O');
  line();
  line('print("concat =\\n", concat)');
  line(expectedComment(result.concat));
  line('print("output =\\n", output)');
  line(expectedComment(result.output));
}

// ---- PyTorch ----------------------------------------------------------------------------------------

/** { config, result, link? } → the PyTorch script (text). config: the engine config; result: its result. */
export function pytorchCode({ config, result, link = null }) {
  const run = describeRun(config, result);
  const { T, Tk, dModel } = run;
  const out = [];
  const line = (text = '') => out.push(text);

  line(header(run, { link, library: 'PyTorch' }));
  line('import torch');
  line();
  line('torch.set_printoptions(precision=4, sci_mode=False)');
  line();
  line(`tokens = [${run.tokens.map(pyString).join(', ')}]`);
  line();
  line(`${run.positional ? 'embeddings' : 'inputs'} = torch.tensor(`);
  line(pyRows(run.embeddings, 2, tokenLabels(run.tokens)));
  line(')');
  if (run.positional) {
    line();
    line('# sinusoidal positions: P[t, 2i] = sin(t / 10000^(2i/d_model)), P[t, 2i+1] = cos(the same angle)');
    line(`d_model = ${dModel}`);
    line('t = torch.arange(len(tokens), dtype=torch.float64)[:, None]');
    line('angle = t / 10000 ** (torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)');
    line('P = torch.zeros(len(tokens), d_model, dtype=torch.float64)');
    line('P[:, 0::2] = torch.sin(angle)');
    line('P[:, 1::2] = torch.cos(angle[:, : d_model // 2])');
    line('inputs = embeddings + P.float()');
  }
  if (run.source) {
    line();
    line(`source_tokens = [${run.sourceTokens.map(pyString).join(', ')}]`);
    line(`# cross-attention: keys and values come from the source${run.positional ? ' (positions included)' : ''}`);
    line('source = torch.tensor(');
    line(pyRows(run.source, 2, run.sourceTokens));
    line(')');
  }
  line();
  const weightNames = { wq: 'W_Q', wk: 'W_K', wv: 'W_V', wo: 'W_O' };
  for (const [name, symbol] of Object.entries(weightNames)) {
    const matrix = run.weights[name];
    if (isIdentity(matrix)) {
      line(`${symbol} = torch.eye(${matrix.rows}${matrix.cols !== matrix.rows ? `, ${matrix.cols}` : ''})  # identity`);
    } else {
      line(`${symbol} = torch.tensor(`);
      line(pyRows(toRows(matrix), 2));
      line(')');
    }
  }
  line();
  projections(line, run, result);

  // The mask M: additive, fill where masked, 0 elsewhere.
  if (run.anyMasked) {
    if (run.simpleCausal) {
      line('# causal mask: token i sees tokens 1…i (True = masked)');
      line(`mask = torch.triu(torch.ones(${T}, ${Tk}), diagonal=1).bool()`);
    } else {
      line(`# ${run.maskLabel} (True = masked)`);
      line('mask = torch.tensor(');
      line(pyBoolRows(run.maskRows, 2, run.tokens, 'True', 'False'));
      line(')');
    }
    const fill = run.fill === '-inf' ? 'float("-inf")' : pyFloat(run.fill);
    line(`# M = ${run.fill === '-inf' ? '−∞' : run.fill} where masked, 0 elsewhere; with −∞ this is scores.masked_fill(mask, float("-inf"))`);
    line(`M = torch.zeros(${T}, ${Tk}).masked_fill(mask, ${fill})`);
  } else {
    line('# no mask: every token sees every token (M = 0)');
    line(`M = torch.zeros(${T}, ${Tk})`);
  }
  line();

  const body = (indent) => {
    const pad = ' '.repeat(indent);
    const scaleText = run.scale ? ' / d_k ** 0.5' : '';
    const lines = [];
    lines.push(`${pad}scores = q @ k.T${scaleText}`);
    if (run.beforeScale) lines.push(`${pad}masked = (q @ k.T + M)${scaleText}  # the mask before the scaling`);
    else lines.push(`${pad}masked = scores + M`);
    const z = run.temperature !== 1 ? `masked / ${pyFloat(run.temperature)}` : 'masked';
    if (run.naive) {
      lines.push(`${pad}e = torch.exp(${z})  # naive: no max subtracted, overflows to inf for large scores`);
      lines.push(`${pad}attn_weights = e / e.sum(dim=-1, keepdim=True)`);
    } else {
      lines.push(`${pad}attn_weights = torch.softmax(${z}, dim=-1)`);
    }
    if (run.fullyMasked) {
      lines.push(`${pad}# a row with every key masked: softmax gives 0/0 = nan; the playground defines it as zeros`);
      lines.push(`${pad}attn_weights[mask.all(dim=-1)] = 0.0`);
    }
    lines.push(`${pad}context = attn_weights @ v`);
    return lines;
  };

  headsAndOutput(line, run, result, body, 'torch.cat(head_outputs, dim=-1)');
  return `${out.join('\n')}\n`;
}

function pyBoolRows(rows, indent, labels, yes, no) {
  const pad = ' '.repeat(indent);
  return rows
    .map((row, r) => {
      const open = r === 0 ? '[' : ' ';
      const close = r === rows.length - 1 ? ']' : ',';
      const label = labels?.[r] !== undefined ? `  # ${commentSafe(labels[r])}` : '';
      return `${pad}${open}[${row.map((b) => (b ? yes : no)).join(', ')}]${close}${label}`;
    })
    .join('\n');
}

// Single-head prints, each followed by the playground's numbers.
function printHead(line, head, prefix, h, print) {
  const items = [
    ['attention scores', 'scores', head.scores],
    ['masked scores', 'masked', head.masked],
    ['attention weights', 'attn_weights', head.weights],
    ['context vectors', 'context', head.context],
  ];
  for (const [label, variable, matrix] of items) {
    line(`${print}("${prefix}${label} =\\n", ${variable})`);
    line(expectedComment(matrix));
  }
}

// After a loop over heads: the playground's numbers of each head.
function expectedHead(line, head, h) {
  line(expectedComment(head.scores, 0, `head ${h + 1}, attention scores, the playground shows`));
  line(expectedComment(head.masked, 0, `head ${h + 1}, masked scores, the playground shows`));
  line(expectedComment(head.weights, 0, `head ${h + 1}, attention weights, the playground shows`));
  line(expectedComment(head.context, 0, `head ${h + 1}, context, the playground shows`));
}

// ---- NumPy ------------------------------------------------------------------------------------------

/** { config, result, link? } → the NumPy script (text). */
export function numpyCode({ config, result, link = null }) {
  const run = describeRun(config, result);
  const { T, Tk, dModel } = run;
  const out = [];
  const line = (text = '') => out.push(text);

  line(header(run, { link, library: 'NumPy' }));
  line('import numpy as np');
  line();
  line('np.set_printoptions(precision=4, suppress=True)');
  line();
  line(`tokens = [${run.tokens.map(pyString).join(', ')}]`);
  line();
  line(`${run.positional ? 'embeddings' : 'inputs'} = np.array(`);
  line(pyRows(run.embeddings, 2, tokenLabels(run.tokens), ','));
  line('  dtype=np.float32,');
  line(')');
  if (run.positional) {
    line();
    line('# sinusoidal positions: P[t, 2i] = sin(t / 10000^(2i/d_model)), P[t, 2i+1] = cos(the same angle)');
    line(`d_model = ${dModel}`);
    line('t = np.arange(len(tokens), dtype=np.float64)[:, None]');
    line('angle = t / 10000 ** (np.arange(0, d_model, 2, dtype=np.float64) / d_model)');
    line('P = np.zeros((len(tokens), d_model))');
    line('P[:, 0::2] = np.sin(angle)');
    line('P[:, 1::2] = np.cos(angle[:, : d_model // 2])');
    line('inputs = embeddings + P.astype(np.float32)');
  }
  if (run.source) {
    line();
    line(`source_tokens = [${run.sourceTokens.map(pyString).join(', ')}]`);
    line(`# cross-attention: keys and values come from the source${run.positional ? ' (positions included)' : ''}`);
    line('source = np.array(');
    line(pyRows(run.source, 2, run.sourceTokens, ','));
    line('  dtype=np.float32,');
    line(')');
  }
  line();
  const weightNames = { wq: 'W_Q', wk: 'W_K', wv: 'W_V', wo: 'W_O' };
  for (const [name, symbol] of Object.entries(weightNames)) {
    const matrix = run.weights[name];
    if (isIdentity(matrix)) {
      line(`${symbol} = np.eye(${matrix.rows}${matrix.cols !== matrix.rows ? `, ${matrix.cols}` : ''}, dtype=np.float32)  # identity`);
    } else {
      line(`${symbol} = np.array(`);
      line(pyRows(toRows(matrix), 2, null, ','));
      line('  dtype=np.float32,');
      line(')');
    }
  }
  line();
  projections(line, run, result);

  if (run.anyMasked) {
    if (run.simpleCausal) {
      line('# causal mask: token i sees tokens 1…i (True = masked)');
      line(`mask = np.triu(np.ones((${T}, ${Tk}), dtype=bool), k=1)`);
    } else {
      line(`# ${run.maskLabel} (True = masked)`);
      line('mask = np.array(');
      line(pyBoolRows(run.maskRows, 2, run.tokens, 'True', 'False'));
      line(')');
    }
    const fill = run.fill === '-inf' ? '-np.inf' : pyFloat(run.fill);
    line(`# M = ${run.fill === '-inf' ? '−∞' : run.fill} where masked, 0 elsewhere`);
    line(`M = np.zeros((${T}, ${Tk}), dtype=np.float32)`);
    line(`M[mask] = ${fill}`);
  } else {
    line('# no mask: every token sees every token (M = 0)');
    line(`M = np.zeros((${T}, ${Tk}), dtype=np.float32)`);
  }
  line();
  if (run.naive) {
    line('def softmax(z):');
    line('    # naive: e^z / Σ e^z without subtracting the row max; overflows to inf for large scores');
    line("    with np.errstate(over='ignore', invalid='ignore'):");
    line('        e = np.exp(z)');
    line('        return e / e.sum(axis=-1, keepdims=True)');
  } else {
    line('def softmax(z):');
    line('    # subtract the row max first: every exponent is ≤ 0, so exp cannot overflow');
    line("    with np.errstate(invalid='ignore'):");
    line('        e = np.exp(z - z.max(axis=-1, keepdims=True))');
    line('        return e / e.sum(axis=-1, keepdims=True)');
  }
  line();

  const body = (indent) => {
    const pad = ' '.repeat(indent);
    const scaleText = run.scale ? ' / d_k ** 0.5' : '';
    const lines = [`${pad}scores = q @ k.T${scaleText}`];
    if (run.beforeScale) lines.push(`${pad}masked = (q @ k.T + M)${scaleText}  # the mask before the scaling`);
    else lines.push(`${pad}masked = scores + M`);
    const z = run.temperature !== 1 ? `masked / ${pyFloat(run.temperature)}` : 'masked';
    lines.push(`${pad}attn_weights = softmax(${z})`);
    if (run.fullyMasked) {
      lines.push(`${pad}# a row with every key masked: softmax gives 0/0 = nan; the playground defines it as zeros`);
      lines.push(`${pad}attn_weights[mask.all(axis=-1)] = 0.0`);
    }
    lines.push(`${pad}context = attn_weights @ v`);
    return lines;
  };

  headsAndOutput(line, run, result, body, 'np.concatenate(head_outputs, axis=-1)');
  return `${out.join('\n')}\n`;
}
