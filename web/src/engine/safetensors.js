// Reading a .safetensors file (Hugging Face's format, github.com/huggingface/safetensors):
//
//   8 bytes   N, the header's length, an unsigned little-endian 64-bit integer
//   N bytes   the header: JSON, { name: { dtype, shape, data_offsets: [begin, end] }, "__metadata__": {…} }
//   the rest  the data; each tensor's bytes at [begin, end) counted from the data's start,
//             row-major, little-endian
//
// Only the header is read at first; a tensor's bytes are read when asked for, one tensor at a time
// (a Blob is sliced, never read whole), so that loading holds the model plus one tensor.

// Bytes per element of every type the format defines: offsets are checked for all of them, even
// for types the core does not read.
const ITEM_BYTES = {
  F64: 8,
  F32: 4,
  F16: 2,
  BF16: 2,
  I64: 8,
  I32: 4,
  I16: 2,
  I8: 1,
  U64: 8,
  U32: 4,
  U16: 2,
  U8: 1,
  BOOL: 1,
  F8_E5M2: 1,
  F8_E4M3: 1,
};
// A header larger than this is not a model's (the reference implementation's limit too).
const MAX_HEADER_BYTES = 100_000_000;

function fail(message) {
  throw new Error(message);
}

const isBlob = (source) => typeof Blob !== 'undefined' && source instanceof Blob;

/** Whether `source` is something a file's bytes can be given as: ArrayBuffer, Uint8Array or Blob. */
export function isByteSource(source) {
  return source instanceof ArrayBuffer || source instanceof Uint8Array || isBlob(source);
}

function byteLength(source) {
  return isBlob(source) ? source.size : source.byteLength;
}

// Bytes [from, to) of the source: a view of an ArrayBuffer or Uint8Array, a slice read from a Blob.
async function readRange(source, from, to) {
  if (isBlob(source)) return new Uint8Array(await source.slice(from, to).arrayBuffer());
  const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
  return bytes.subarray(from, to);
}

const shapeText = (shape) => `[${shape.join(', ')}]`;

// One header entry, checked: its dtype is a string, its shape whole numbers ≥ 0, its data_offsets
// a range inside the data whose length is what the dtype and shape take.
function checkedEntry(label, name, entry, dataBytes) {
  const where = `${label}: ${name}`;
  if (entry === null || typeof entry !== 'object') fail(`${where} is not a tensor entry ({ dtype, shape, data_offsets })`);
  const { dtype, shape, data_offsets: offsets } = entry;
  if (!Object.hasOwn(ITEM_BYTES, dtype)) fail(`${where} has an unknown dtype ${JSON.stringify(dtype)}`);
  if (!Array.isArray(shape) || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) fail(`${where} has a shape that is not a list of sizes`);
  if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0) || offsets[0] > offsets[1]) {
    fail(`${where} has data_offsets that are not [begin, end]`);
  }
  const [begin, end] = offsets;
  if (end > dataBytes) {
    fail(`${where} ends at byte ${end} of the data, past its end (${dataBytes} bytes): the file is truncated or its header is wrong`);
  }
  const expected = shape.reduce((n, d) => n * d, 1) * ITEM_BYTES[dtype];
  if (end - begin !== expected) {
    fail(`${where} holds ${end - begin} bytes, but a ${dtype} tensor of shape ${shapeText(shape)} takes ${expected}`);
  }
  return { dtype, shape, begin, end };
}

/**
 * Reads and checks the header of a safetensors file given as an ArrayBuffer, a Uint8Array or a Blob.
 * `label` names the file in messages. Returns { label, tensors: Map(name → { dtype, shape, begin,
 * end }), read(name) → Promise<Uint8Array> (the tensor's bytes, little-endian) }.
 */
export async function openSafetensors(source, label) {
  const size = byteLength(source);
  if (size < 8) fail(`${label} is ${size} bytes long: a safetensors file starts with its header's length in 8 bytes`);
  const head = await readRange(source, 0, 8);
  const headerBytes = new DataView(head.buffer, head.byteOffset, 8).getBigUint64(0, true);
  if (headerBytes > BigInt(size - 8)) {
    fail(
      `${label}: the header is ${headerBytes} bytes long by its first 8 bytes, past the end of the file (${size} bytes): it is truncated or not a safetensors file`,
    );
  }
  if (headerBytes > BigInt(MAX_HEADER_BYTES))
    fail(`${label}: the header is ${headerBytes} bytes long, more than a model's (at most ${MAX_HEADER_BYTES})`);
  const n = Number(headerBytes);
  let header;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(await readRange(source, 8, 8 + n)));
  } catch (error) {
    fail(`${label}: the header is not valid JSON (${error.message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) fail(`${label}: the header is not a JSON object`);
  const dataStart = 8 + n;
  const dataBytes = size - dataStart;
  const tensors = new Map();
  for (const [name, entry] of Object.entries(header)) {
    if (name !== '__metadata__') tensors.set(name, checkedEntry(label, name, entry, dataBytes));
  }
  // No two tensors may share bytes.
  const ranges = [...tensors].filter(([, t]) => t.end > t.begin).sort((a, b) => a[1].begin - b[1].begin);
  for (let i = 1; i < ranges.length; ++i) {
    if (ranges[i][1].begin < ranges[i - 1][1].end) fail(`${label}: ${ranges[i][0]} and ${ranges[i - 1][0]} overlap in the data`);
  }
  return {
    label,
    tensors,
    read(name) {
      const { begin, end } = tensors.get(name);
      return readRange(source, dataStart + begin, dataStart + end);
    },
  };
}
