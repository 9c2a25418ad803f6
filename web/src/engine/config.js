// Turns the documented JavaScript config into what the core takes, checking the things only
// JavaScript can get wrong (types, ragged rows, unknown names). Value checks — NaN, ∞, shapes
// against T and d_model, heads dividing d_model, limits — are the core's (cpp/validate.cpp), so
// native and browser builds give the same messages.
import { MASK_KIND, WEIGHTS_KIND } from './module-ids.js';

const WEIGHT_NAMES = ['wq', 'wk', 'wv', 'wo'];

function fail(message) {
  throw new Error(message);
}

function integer(value, name, fallback) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (!Number.isInteger(value)) fail(`${name} must be a whole number (got ${String(value)})`);
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
      fail(`${name} must have integer rows and cols and rows·cols entries in data`);
    }
    return { rows, cols, data: data instanceof Float32Array ? data : Float32Array.from(data) };
  }
  if (!Array.isArray(value)) fail(`${name} must be an array of rows (number[][])`);
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

/** The config with defaults applied and names turned into the core's codes. */
export function normaliseConfig(config) {
  if (!config || typeof config !== 'object') fail('compute() needs a config object');
  const { tokens } = config;
  if (!Array.isArray(tokens)) fail('tokens must be an array of strings');
  tokens.forEach((token, t) => {
    if (typeof token !== 'string') fail(`tokens[${t}] must be a string`);
  });

  const mask = config.mask ?? 'causal';
  if (!(mask in MASK_KIND)) fail(`unknown mask "${String(mask)}": use "causal" or "none"`);
  const scale = config.scale ?? true;
  if (typeof scale !== 'boolean') fail('scale must be true or false');

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
    fail(`unknown weights "${String(weights)}": use "identity", "random" or { wq, wk, wv, wo }`);
  }

  return {
    tokens,
    dModel: integer(config.dModel, 'dModel'),
    heads: integer(config.heads, 'heads', 1),
    embeddings: config.embeddings === undefined ? null : toMatrix(config.embeddings, 'embeddings'),
    weightsKind,
    weightMatrices,
    seed,
    maskKind: MASK_KIND[mask],
    scale,
  };
}
