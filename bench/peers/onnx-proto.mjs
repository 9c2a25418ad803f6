// A minimal ONNX model writer: just the protobuf messages and fields that the two onnxruntime
// contenders need, encoded by hand so that the benchmark needs no protobuf library.
//
// Protobuf wire format in two lines: every field is a key varint (field_number << 3 | wire_type)
// followed by a varint (wire type 0), 4 little-endian bytes (type 5) or a length-prefixed byte
// string (type 2: strings, bytes, nested messages, packed repeated numbers).
// Field numbers are those of onnx/onnx.proto (IR version 8).

const te = new TextEncoder();

// Bytes of an unsigned varint. Values stay below 2^53 (dims, lengths), so plain arithmetic works.
function varint(value) {
  const out = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

// One field of each wire type. A message is the concatenation of its fields.
const int = (field, value) => Uint8Array.from([...varint(field << 3), ...varint(value)]);
const bytes = (field, payload) => concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(payload.length)]), payload]);
const str = (field, text) => bytes(field, te.encode(text));
const msg = (field, ...fields) => bytes(field, concat(fields));
const float32 = (field, value) => {
  const b = new Uint8Array(5);
  b[0] = (field << 3) | 5;
  new DataView(b.buffer).setFloat32(1, value, true);
  return b;
};
const packedInts = (field, values) => bytes(field, Uint8Array.from(values.flatMap(varint)));

const DATA_TYPE = { float: 1, int32: 6, int64: 7 };
const ATTR_TYPE = { float: 1, int: 2, ints: 7 };

/** AttributeProto fields of an int, a float and an int-list attribute. */
export const attrInt = (name, value) => [str(1, name), int(20, ATTR_TYPE.int), int(3, value)];
export const attrFloat = (name, value) => [str(1, name), int(20, ATTR_TYPE.float), float32(2, value)];
export const attrInts = (name, values) => [str(1, name), int(20, ATTR_TYPE.ints), packedInts(8, values)];

/** A NodeProto. attributes: arrays from attrInt/attrFloat/attrInts. */
export function node(opType, inputs, outputs, attributes = [], domain = '') {
  return concat([
    ...inputs.map((name) => str(1, name)), // input
    ...outputs.map((name) => str(2, name)), // output
    str(3, `${opType}_${outputs[0]}`), // name
    str(4, opType), // op_type
    ...attributes.map((a) => bytes(5, concat(a))), // attribute
    ...(domain ? [str(7, domain)] : []), // domain
  ]);
}

/** A TensorProto initializer: float32 (a Float32Array) or int64 (an array of numbers, −1 allowed). */
export function tensor(name, dims, values) {
  let raw;
  let type;
  if (values instanceof Float32Array) {
    type = DATA_TYPE.float;
    raw = new Uint8Array(values.buffer, values.byteOffset, values.byteLength); // little-endian on x86 and wasm
  } else {
    type = DATA_TYPE.int64;
    const b = new BigInt64Array(values.map(BigInt));
    raw = new Uint8Array(b.buffer);
  }
  return concat([packedInts(1, dims), int(2, type), str(8, name), bytes(9, raw)]); // dims, data_type, name, raw_data
}

/** A ValueInfoProto for a graph input or output with fixed dims, float32 (or `type`, e.g. 'int64'). */
export function valueInfo(name, dims, type = 'float') {
  const shape = concat(dims.map((d) => msg(1, int(1, d)))); // TensorShapeProto.dim[].dim_value
  const tensorType = concat([int(1, DATA_TYPE[type]), bytes(2, shape)]); // TypeProto.Tensor: elem_type, shape
  return concat([str(1, name), msg(2, bytes(1, tensorType))]); // name, type.tensor_type
}

/** The serialized ModelProto of one graph. opsets: { '': 17, 'com.microsoft': 1 }. */
export function model({ nodes, initializers, inputs, outputs, opsets }) {
  const graph = concat([
    ...nodes.map((n) => bytes(1, n)),
    str(2, 'bench'),
    ...initializers.map((t) => bytes(5, t)),
    ...inputs.map((v) => bytes(11, v)),
    ...outputs.map((v) => bytes(12, v)),
  ]);
  return concat([
    int(1, 8), // ir_version
    str(2, 'attention-playground bench'), // producer_name
    bytes(7, graph),
    ...Object.entries(opsets).map(([domain, version]) => msg(8, str(1, domain), int(2, version))),
  ]);
}
