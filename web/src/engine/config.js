// Turns the documented JavaScript config into what the core takes, checking the things only
// JavaScript can get wrong (types, holes, ragged rows, unknown names, numbers float32 cannot hold).
// Value checks — NaN, ∞, shapes against T and d_model, heads dividing d_model, limits, memory — are
// the core's (cpp/validate.cpp), so native and browser builds give the same messages.
import { MASK_KIND, POSITIONAL, ROPE_PAIRING, WEIGHTS_KIND } from './module-ids.js';

// The softmax's axis: keys (each query row sums to 1) or queries (the misconception, columns).
const SOFTMAX_AXIS = Object.freeze({ keys: 0, queries: 1 });

const WEIGHT_NAMES = ['wq', 'wk', 'wv', 'wo'];
const BIAS_NAMES = ['bq', 'bk', 'bv', 'bo'];

function fail(message) {
  throw new Error(message);
}

/**
 * Runs a call into the core. The bindings return problems as text and catch what C++ throws
 * (cpp/bindings/guarded.hpp); anything that still arrives here (a WebAssembly trap, a foreign
 * exception) becomes an Error that says the engine failed, never a bare number.
 */
export function callCore(work) {
  try {
    return work();
  } catch (error) {
    throw engineFailure(error);
  }
}

/** What the core threw, as an Error that says the engine failed. */
export function engineFailure(error) {
  const detail = error instanceof Error ? error.message : typeof error === 'number' ? `C++ exception at ${error}` : String(error);
  return new Error(`the engine failed: ${detail}`, { cause: error });
}

/** True for what JavaScript code throws on purpose (an Error), false for a trap or a foreign exception. */
export const isOwnError = (error) => error instanceof Error && !(error instanceof WebAssembly.RuntimeError);

// A lone surrogate (half of a UTF-16 pair) is no character: UTF-8, as the core stores strings,
// cannot hold it, so a string the core hands back (a vocabulary) would come back as another one.
// (Tokens of compute() never come back from the core: there a lone surrogate is kept as given.)
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const wellFormed = (text) => !LONE_SURROGATE.test(text);

// A caller's value in a message: short, and never "[object Object]".
export function quoted(value) {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  let text;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

function integer(value, name, fallback) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (!Number.isInteger(value)) fail(`${name} must be a whole number (got ${quoted(value)})`);
  return value;
}

function boolean(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(`${name} must be true or false`);
  return value;
}

// A setting left out takes its default; any other value, null included, must be a valid one.
const given = (value, fallback) => (value === undefined ? fallback : value);

function oneOf(value, name, table, fallback) {
  const chosen = given(value, fallback);
  if (!Object.hasOwn(table, chosen)) {
    fail(
      `unknown ${name} ${quoted(chosen)}: use ${Object.keys(table)
        .map((k) => `"${k}"`)
        .join(', ')}`,
    );
  }
  return table[chosen];
}

// A copy, checked index by index (forEach would skip the holes of a sparse array ([, 'a'])): the
// core reads the copy, so each entry of the caller's array is read once.
function stringList(value, name) {
  if (!Array.isArray(value)) fail(`${name} must be an array of strings`);
  const list = new Array(value.length);
  for (let t = 0; t < list.length; ++t) {
    const text = value[t];
    if (typeof text !== 'string') fail(`${name}[${t}] must be a string`);
    list[t] = text;
  }
  return list;
}

// Bytes of a string in UTF-8, as Embind copies it (a lone surrogate becomes 3 bytes).
function utf8Bytes(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; ++i) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

// The UTF-8 length of the longest string; strings too short to pass any limit are not counted.
function longestUtf8(lists, limit) {
  let longest = 0;
  for (const list of lists) {
    for (const text of list) if (text.length * 3 > limit) longest = Math.max(longest, utf8Bytes(text));
  }
  return longest;
}

/**
 * A number[][] or a { rows, cols, data } matrix, described by its shape. Once the core has accepted
 * the shape (a matrix of the wrong size is refused before any entry is read), `read()` checks and
 * copies the entries into JavaScript's own array — so that no caller code runs while a view of
 * wasm memory is open — and the engine then copies that into its storage.
 */
function matrixSource(value, name, maxEntry) {
  const checkEntry = (entry, r, c) => {
    if (typeof entry !== 'number') fail(`${name}[${r}][${c}] is not a number (got ${quoted(entry)})`);
    // float32 turns a finite number past ±3.4e38 into ±∞, which the core would call "not finite":
    // say what it was. (Every other value is the core's to check.)
    if (Number.isFinite(entry) && !Number.isFinite(Math.fround(entry)))
      fail(`${name}[${r}][${c}] = ${entry} is too large (the limit is ±${maxEntry})`);
  };
  const data = value && typeof value === 'object' ? value.data : undefined;
  if (ArrayBuffer.isView(data)) {
    const { rows, cols } = value;
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0 || data.length !== rows * cols) {
      fail(`${name} must have whole-number rows and cols and rows·cols entries in data`);
    }
    return {
      rows,
      cols,
      // (A typed array's entries run no caller code: a Float32Array is copied as it is.)
      read() {
        if (!(data instanceof Float32Array)) {
          for (let n = 0; n < data.length; ++n) checkEntry(Number(data[n]), Math.floor(n / cols), n % cols);
        }
        return data;
      },
    };
  }
  if (!Array.isArray(value)) fail(`${name} must be an array of rows (number[][]) or { rows, cols, data }`);
  const rows = value.length;
  const first = rows > 0 ? value[0] : undefined;
  const cols = Array.isArray(first) ? first.length : 0;
  return {
    rows,
    cols,
    read() {
      const out = new Float32Array(rows * cols);
      for (let r = 0; r < rows; ++r) {
        const row = value[r];
        if (!Array.isArray(row)) fail(`${name}[${r}] must be an array of numbers`);
        if (row.length !== cols) fail(`${name}[${r}] has ${row.length} numbers, but ${name}[0] has ${cols}`);
        for (let c = 0; c < cols; ++c) {
          const entry = row[c];
          checkEntry(entry, r, c);
          out[r * cols + c] = entry;
        }
      }
      return out;
    },
  };
}

// boolean[] or boolean[][] (true = masked / padding), described by its shape; `read()` gives its
// bytes, row-major, once the core has accepted the shape.
function bytesSource(value, name, nested) {
  if (!Array.isArray(value)) fail(`${name} must be ${nested ? 'an array of rows of true/false' : 'an array of true/false'}`);
  const rows = nested ? value.length : 1;
  const first = nested && rows > 0 ? value[0] : undefined;
  const cols = nested ? (Array.isArray(first) ? first.length : 0) : value.length;
  return {
    rows,
    cols,
    read() {
      const out = new Uint8Array(rows * cols);
      for (let r = 0; r < rows; ++r) {
        const row = nested ? value[r] : value;
        if (!Array.isArray(row)) fail(`${name} must be an array of rows of true/false`);
        if (row.length !== cols) fail(`${name} rows must all have the same length`);
        for (let c = 0; c < cols; ++c) {
          const entry = row[c];
          if (typeof entry !== 'boolean' && entry !== 0 && entry !== 1) fail(`${name}${nested ? `[${r}]` : ''}[${c}] must be true or false`);
          out[r * cols + c] = entry ? 1 : 0;
        }
      }
      return out;
    },
  };
}

// biases: { bq?, bk?, bv?, bo? }, each number[] or a typed array, described by its length and
// written once the core has accepted the lengths. Absent biases add nothing.
function biasSources(value, maxEntry) {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail('biases must be an object { bq, bk, bv, bo } (any of them)');
  for (const name of Object.keys(value)) {
    if (!BIAS_NAMES.includes(name)) fail(`unknown bias ${quoted(name)}: use bq, bk, bv, bo`);
  }
  const sources = {};
  for (const name of BIAS_NAMES) {
    const bias = value[name];
    if (bias === undefined) continue;
    const typed = ArrayBuffer.isView(bias) && !(bias instanceof DataView);
    if (!typed && !Array.isArray(bias)) fail(`biases.${name} must be an array of numbers or a Float32Array`);
    sources[name] = {
      rows: 1,
      cols: bias.length,
      // (as matrixSource's read(): checked and copied before any view of the module is open)
      read() {
        if (bias instanceof Float32Array) return bias;
        const out = new Float32Array(bias.length);
        for (let n = 0; n < bias.length; ++n) {
          const entry = typed ? Number(bias[n]) : bias[n];
          if (typeof entry !== 'number') fail(`biases.${name}[${n}] is not a number (got ${quoted(entry)})`);
          if (Number.isFinite(entry) && !Number.isFinite(Math.fround(entry)))
            fail(`biases.${name}[${n}] = ${entry} is too large (the limit is ±${maxEntry})`);
          out[n] = entry;
        }
        return out;
      },
    };
  }
  return sources;
}

function maskFillValue(value) {
  if (value === undefined || value === '-inf' || value === -Infinity) return -Infinity;
  if (typeof value !== 'number') fail(`maskFill must be "-inf" or a number (got ${quoted(value)})`);
  return value; // the core checks the range
}

/**
 * The config with defaults applied and names turned into the core's codes, with the sizes the core
 * checks before any input is copied (options.tokenCount …). Matrices and masks stay as sources
 * (matrixSource, bytesSource) until then. On the forward-only path (`outputOnly`), tokens may be
 * left out when embeddings are given: T is then the number of embedding rows.
 * limits: the engine's { maxEntry, maxTokenBytes }.
 */
// The fields of a config, each read from the caller's object once (a getter could answer
// differently the second time). (An object literal: V8 builds it in a fraction of a microsecond.)
const readFields = (c) => ({
  tokens: c.tokens,
  embeddings: c.embeddings,
  source: c.source,
  seed: c.seed,
  weights: c.weights,
  mask: c.mask,
  customMask: c.customMask,
  padding: c.padding,
  temperature: c.temperature,
  heads: c.heads,
  dModel: c.dModel,
  kvHeads: c.kvHeads,
  positional: c.positional,
  positionOffset: c.positionOffset,
  alibi: c.alibi,
  window: c.window,
  prefix: c.prefix,
  maskFill: c.maskFill,
  maskBeforeScale: c.maskBeforeScale,
  scale: c.scale,
  naiveSoftmax: c.naiveSoftmax,
  softmaxOver: c.softmaxOver,
  biases: c.biases,
  ropePairing: c.ropePairing,
  ropeTheta: c.ropeTheta,
});

export function normaliseConfig(callerConfig, { outputOnly = false, limits }) {
  if (!callerConfig || typeof callerConfig !== 'object') fail('compute() needs a config object');
  const config = readFields(callerConfig);
  const anonymous = outputOnly && config.tokens === undefined;
  if (anonymous && config.embeddings === undefined) fail('tokens may only be left out when embeddings are given');
  const tokens = anonymous ? [] : stringList(config.tokens, 'tokens');
  const embeddings = config.embeddings === undefined ? null : matrixSource(config.embeddings, 'embeddings', limits.maxEntry);

  let source = null;
  if (config.source !== undefined) {
    if (!config.source || typeof config.source !== 'object') fail('source must be { tokens, embeddings? }');
    const { tokens: sourceTokens, embeddings: sourceEmbeddings } = config.source;
    source = {
      tokens: stringList(sourceTokens, 'source.tokens'),
      embeddings: sourceEmbeddings === undefined ? null : matrixSource(sourceEmbeddings, 'source.embeddings', limits.maxEntry),
    };
  }

  const seed = integer(config.seed, 'seed', 0);
  if (seed < 0 || seed > 0xffffffff) fail(`seed must be between 0 and 4294967295 (got ${seed})`);

  const weights = given(config.weights, 'random');
  let weightsKind;
  let weightMatrices = null;
  if (weights === 'identity' || weights === 'random') {
    weightsKind = WEIGHTS_KIND[weights];
  } else if (weights && typeof weights === 'object' && !Array.isArray(weights)) {
    weightsKind = WEIGHTS_KIND.explicit;
    weightMatrices = {};
    for (const name of WEIGHT_NAMES) {
      const matrix = weights[name];
      if (matrix === undefined) fail(`weights.${name} is missing: give wq, wk, wv and wo`);
      weightMatrices[name] = matrixSource(matrix, name, limits.maxEntry);
    }
  } else {
    fail(`unknown weights ${quoted(weights)}: use "identity", "random" or { wq, wk, wv, wo }`);
  }

  const mask = oneOf(config.mask, 'mask', MASK_KIND, 'causal');
  if (mask === MASK_KIND.custom && config.customMask === undefined) fail('mask "custom" needs customMask (boolean[][], true = masked)');
  const customMask = mask === MASK_KIND.custom ? bytesSource(config.customMask, 'customMask', true) : null;
  const padding = config.padding === undefined ? null : bytesSource(config.padding, 'padding', false);
  const temperature = given(config.temperature, 1);
  if (typeof temperature !== 'number') fail(`temperature must be a number (got ${quoted(temperature)})`);

  const heads = integer(config.heads, 'heads', 1);
  const biases = biasSources(config.biases, limits.maxEntry);
  const ropeTheta = given(config.ropeTheta, 10000);
  if (typeof ropeTheta !== 'number') fail(`ropeTheta must be a number (got ${quoted(ropeTheta)})`);
  const T = anonymous ? embeddings.rows : tokens.length;
  const shape = (matrix, name) => ({ [`${name}Rows`]: matrix?.rows ?? 0, [`${name}Cols`]: matrix?.cols ?? 0 });
  return {
    tokens,
    source,
    embeddings,
    T,
    weightMatrices,
    biases,
    customMask,
    padding,
    options: {
      anonymousTokens: anonymous ? Math.max(1, embeddings.rows) : 0,
      dModel: integer(config.dModel, 'dModel'),
      heads,
      kvHeads: integer(config.kvHeads, 'kvHeads', heads),
      hasEmbeddings: config.embeddings !== undefined,
      weightsKind,
      seed: seed >>> 0,
      positional: oneOf(config.positional, 'positional', POSITIONAL, 'none'),
      positionOffset: integer(config.positionOffset, 'positionOffset', 0),
      alibi: boolean(config.alibi, 'alibi', false),
      cross: source !== null,
      hasSourceEmbeddings: source?.embeddings != null,
      mask,
      window: integer(config.window, 'window', 1),
      prefix: integer(config.prefix, 'prefix', 0),
      hasCustomMask: mask === MASK_KIND.custom,
      hasPadding: config.padding !== undefined,
      maskFill: maskFillValue(config.maskFill),
      maskBeforeScale: boolean(config.maskBeforeScale, 'maskBeforeScale', false),
      scale: boolean(config.scale, 'scale', true),
      temperature,
      naiveSoftmax: boolean(config.naiveSoftmax, 'naiveSoftmax', false),
      softmaxOver: oneOf(config.softmaxOver, 'softmaxOver', SOFTMAX_AXIS, 'keys'),
      useReference: false,
      // the sizes, checked by the core before anything is copied in
      tokenCount: T,
      sourceTokenCount: source?.tokens.length ?? 0,
      longestToken: longestUtf8([tokens, source?.tokens ?? []], limits.maxTokenBytes),
      ...shape(embeddings, 'embeddings'),
      ...shape(source?.embeddings, 'sourceEmbeddings'),
      ...shape(weightMatrices?.wq, 'wq'),
      ...shape(weightMatrices?.wk, 'wk'),
      ...shape(weightMatrices?.wv, 'wv'),
      ...shape(weightMatrices?.wo, 'wo'),
      ...shape(customMask, 'customMask'),
      paddingLength: padding?.cols ?? 0,
      outputOnly,
      weightRowCount: 0,
      // set by the engine's flashTrace() and decode()
      trace: false,
      blockRows: 0,
      blockKeys: 0,
      decode: false,
      ...Object.fromEntries(BIAS_NAMES.map((name) => [`${name}Length`, biases[name]?.cols ?? -1])),
      ropePairing: oneOf(config.ropePairing, 'ropePairing', ROPE_PAIRING, 'adjacent'),
      ropeTheta,
    },
  };
}
