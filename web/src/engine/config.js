// Turns the documented JavaScript config into what the core takes, checking the things only
// JavaScript can get wrong (types, ragged rows, unknown names). Value checks — NaN, ∞, shapes
// against T and d_model, heads dividing d_model, limits — are the core's (cpp/validate.cpp), so
// native and browser builds give the same messages.
import { MASK_KIND, POSITIONAL, WEIGHTS_KIND } from './module-ids.js';

const WEIGHT_NAMES = ['wq', 'wk', 'wv', 'wo'];

function fail(message) {
  throw new Error(message);
}

const quoted = (value) => (typeof value === 'string' ? `"${value}"` : String(value));

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

function oneOf(value, name, table, fallback) {
  const chosen = value ?? fallback;
  if (!Object.hasOwn(table, chosen)) {
    fail(`unknown ${name} ${quoted(chosen)}: use ${Object.keys(table).map((k) => `"${k}"`).join(', ')}`);
  }
  return table[chosen];
}

function stringList(value, name) {
  if (!Array.isArray(value)) fail(`${name} must be an array of strings`);
  value.forEach((token, t) => {
    if (typeof token !== 'string') fail(`${name}[${t}] must be a string`);
  });
  return value;
}

/**
 * A number[][] or a { rows, cols, data } matrix, as { rows, cols, data: Float32Array }.
 * Entries must be numbers; whether they are finite is checked by the core.
 */
export function toMatrix(value, name) {
  if (value && typeof value === 'object' && ArrayBuffer.isView(value.data)) {
    const { rows, cols, data } = value;
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0 || data.length !== rows * cols) {
      fail(`${name} must have whole-number rows and cols and rows·cols entries in data`);
    }
    return { rows, cols, data: data instanceof Float32Array ? data : Float32Array.from(data) };
  }
  if (!Array.isArray(value)) fail(`${name} must be an array of rows (number[][]) or { rows, cols, data }`);
  const rows = value.length;
  const cols = rows > 0 && Array.isArray(value[0]) ? value[0].length : 0;
  const data = new Float32Array(rows * cols);
  value.forEach((row, r) => {
    if (!Array.isArray(row)) fail(`${name}[${r}] must be an array of numbers`);
    if (row.length !== cols) fail(`${name}[${r}] has ${row.length} numbers, but ${name}[0] has ${cols}`);
    row.forEach((entry, c) => {
      if (typeof entry !== 'number') fail(`${name}[${r}][${c}] is not a number (got ${JSON.stringify(entry) ?? String(entry)})`);
      data[r * cols + c] = entry;
    });
  });
  return { rows, cols, data };
}

// boolean[] or boolean[][] (true = masked / padding) as bytes, row-major.
function toBytes(value, name, nested) {
  const rows = nested ? value : [value];
  if (!Array.isArray(value) || (nested && !value.every(Array.isArray))) {
    fail(`${name} must be ${nested ? 'an array of rows of true/false' : 'an array of true/false'}`);
  }
  const out = [];
  rows.forEach((row, r) => row.forEach((entry, c) => {
    if (typeof entry !== 'boolean' && entry !== 0 && entry !== 1) {
      fail(`${name}${nested ? `[${r}]` : ''}[${c}] must be true or false`);
    }
    out.push(entry ? 1 : 0);
  }));
  if (nested && rows.some((row) => row.length !== rows[0].length)) fail(`${name} rows must all have the same length`);
  return Uint8Array.from(out);
}

function maskFillValue(value) {
  if (value === undefined || value === '-inf' || value === -Infinity) return -Infinity;
  if (typeof value !== 'number') fail(`maskFill must be "-inf" or a number (got ${quoted(value)})`);
  return value;  // the core checks the range
}

/**
 * The config with defaults applied and names turned into the core's codes. With
 * `tokensOptional` (the forward-only path), tokens may be left out when embeddings are given:
 * T is then the number of embedding rows.
 */
export function normaliseConfig(config, { tokensOptional = false } = {}) {
  if (!config || typeof config !== 'object') fail('compute() needs a config object');
  const anonymous = tokensOptional && config.tokens === undefined;
  if (anonymous && config.embeddings === undefined) fail('tokens may only be left out when embeddings are given');
  const tokens = anonymous ? [] : stringList(config.tokens, 'tokens');
  const embeddings = config.embeddings === undefined ? null : toMatrix(config.embeddings, 'embeddings');

  let source = null;
  if (config.source !== undefined) {
    if (!config.source || typeof config.source !== 'object') fail('source must be { tokens, embeddings? }');
    source = {
      tokens: stringList(config.source.tokens, 'source.tokens'),
      embeddings: config.source.embeddings === undefined ? null : toMatrix(config.source.embeddings, 'source.embeddings'),
    };
  }

  const seed = integer(config.seed, 'seed', 0);
  if (seed < 0 || seed > 0xffffffff) fail(`seed must be between 0 and 4294967295 (got ${seed})`);

  const weights = config.weights ?? 'random';
  let weightsKind;
  let weightMatrices = null;
  if (weights === 'identity' || weights === 'random') {
    weightsKind = WEIGHTS_KIND[weights];
  } else if (weights && typeof weights === 'object' && !Array.isArray(weights)) {
    weightsKind = WEIGHTS_KIND.explicit;
    weightMatrices = {};
    for (const name of WEIGHT_NAMES) {
      if (weights[name] === undefined) fail(`weights.${name} is missing: give wq, wk, wv and wo`);
      weightMatrices[name] = toMatrix(weights[name], name);
    }
  } else {
    fail(`unknown weights ${quoted(weights)}: use "identity", "random" or { wq, wk, wv, wo }`);
  }

  const mask = oneOf(config.mask, 'mask', MASK_KIND, 'causal');
  if (mask === MASK_KIND.custom && config.customMask === undefined) fail('mask "custom" needs customMask (boolean[][], true = masked)');
  const temperature = config.temperature ?? 1;
  if (typeof temperature !== 'number') fail(`temperature must be a number (got ${quoted(temperature)})`);

  return {
    tokens,
    source,
    embeddings,
    T: anonymous ? embeddings.rows : tokens.length,
    weightMatrices,
    customMask: mask === MASK_KIND.custom ? toBytes(config.customMask, 'customMask', true) : null,
    padding: config.padding === undefined ? null : toBytes(config.padding, 'padding', false),
    options: {
      anonymousTokens: anonymous ? Math.max(1, embeddings.rows) : 0,
      dModel: integer(config.dModel, 'dModel'),
      heads: integer(config.heads, 'heads', 1),
      kvHeads: integer(config.kvHeads, 'kvHeads', 0),
      hasEmbeddings: config.embeddings !== undefined,
      weightsKind,
      seed: seed >>> 0,
      positional: oneOf(config.positional, 'positional', POSITIONAL, 'none'),
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
      useReference: false,
    },
  };
}
