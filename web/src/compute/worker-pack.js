// A config's matrices as one Float32Array each, for the worker: posting nested arrays costs the
// page ten times as much (docs/performance.md, "Figures behind the code"). Packed row
// by row from the rows that changed since the last time (rows are never changed in place), into
// an array with room for the most tokens (a typed word is one row more, not a new array). The
// worker's message copies it as it is posted, so the next change may write into it.
import { THRESHOLDS } from '../render/thresholds.js';
import { LIMITS } from '../state/schema.js';

const packs = new Map(); // name → { rows: the rows packed, cols, data }

function packMatrix(name, rows) {
  const cols = rows[0]?.length ?? 0;
  if (rows.length * cols < THRESHOLDS.packFromEntries || !rows.every((row) => Array.isArray(row) && row.length === cols)) return rows;
  let pack = packs.get(name);
  if (!pack || pack.cols !== cols || pack.data.length < rows.length * cols) {
    pack = { rows: [], cols, data: new Float32Array(Math.max(rows.length, LIMITS.maxTokens) * cols) };
    packs.set(name, pack);
  }
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r];
    if (pack.rows[r] === row) continue;
    pack.data.set(row, r * cols);
    for (let k = r * cols; k < (r + 1) * cols; k += 1) {
      if (!Number.isFinite(pack.data[k])) {
        packs.delete(name);
        return rows; // (as given: the engine names the entry, and says "too large" for 1e39)
      }
    }
    pack.rows[r] = row;
  }
  pack.rows.length = rows.length;
  return { rows: rows.length, cols, data: pack.data.subarray(0, rows.length * cols) };
}

/** `config` with its X and weights packed for posting to the worker. */
export function packedForWorker(config) {
  const packed = { ...config };
  if (Array.isArray(config.embeddings)) packed.embeddings = packMatrix('x', config.embeddings);
  if (config.weights && typeof config.weights === 'object') {
    packed.weights = Object.fromEntries(
      Object.entries(config.weights).map(([name, rows]) => [name, Array.isArray(rows) ? packMatrix(name, rows) : rows]),
    );
  }
  return packed;
}
