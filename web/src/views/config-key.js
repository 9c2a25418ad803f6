// A config as a short key for "has this changed?": its JSON, with every matrix (number or
// boolean rows, or a typed array) replaced by its shape and a 32-bit FNV-1a hash of its bits.
// (The JSON of a large X is megabytes, and a hundred milliseconds on every result.)
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);

function mix(hash, value) {
  bits[0] = +value;
  return Math.imul(Math.imul(hash ^ words[0], 16777619) ^ words[1], 16777619);
}

function hashedRows(rows) {
  let hash = 2166136261;
  for (let r = 0; r < rows.length; ++r) {
    const row = rows[r];
    for (let c = 0; c < row.length; ++c) hash = mix(hash, row[c]);
    hash = mix(hash, row.length); // [[1, 2], [3]] and [[1], [2, 3]] differ
  }
  return `#${rows.length}x${rows[0].length}:${hash >>> 0}`;
}

function hashedArray(values) {
  let hash = 2166136261;
  for (let n = 0; n < values.length; ++n) hash = mix(hash, values[n]);
  return `#${values.length}:${hash >>> 0}`;
}

export function configKey(config) {
  return JSON.stringify(config, (_, value) => {
    if (ArrayBuffer.isView(value)) return hashedArray(value);
    if (Array.isArray(value) && value.length > 0 && Array.isArray(value[0])) return hashedRows(value);
    return value;
  });
}
