// Finding each tensor the core expects among the files given: one model.safetensors, or the shards
// that model.safetensors.index.json lists. Names are Hugging Face's, GPT-2's with or without the
// `transformer.` prefix; buffers that are not weights (GPT-2's causal-mask `attn.bias` and
// `attn.masked_bias`, old Llama files' `rotary_emb.inv_freq`) are skipped. Everything is checked
// against the core's list before a byte of data is read: a tensor missing, misshapen, of a type the
// core does not read, or one the config does not know.
import { quoted } from './config.js';

/** The element types the core stores, by safetensors' names, with the core's codes. */
export const DTYPE_CODE = Object.freeze({ F32: 0, F16: 1, BF16: 2 });

function fail(message) {
  throw new Error(message);
}

const SKIPPED = {
  gpt2: /^h\.\d+\.attn\.(bias|masked_bias)$/,
  llama: /^model\.layers\.\d+\.self_attn\.rotary_emb\.inv_freq$/,
  qwen2: /^model\.layers\.\d+\.self_attn\.rotary_emb\.inv_freq$/,
};

/** A file's tensor name as the core names it (GPT-2's `transformer.` prefix dropped). */
export function canonicalName(name, architecture) {
  return architecture === 'gpt2' && name.startsWith('transformer.') ? name.slice('transformer.'.length) : name;
}

const shapeText = (shape) => `[${shape.join(', ')}]`;

/**
 * Checks the index against the shards and names each shard by its file name. Each shard is
 * recognised by what it holds (the index says which file holds which tensor), so the order in
 * which shards are given does not matter.
 */
export function nameShards(parts, index) {
  if (index === undefined || index === null) {
    if (parts.length > 1)
      fail(`${parts.length} weight files were given without index: a sharded model needs the parsed model.safetensors.index.json`);
    return;
  }
  if (typeof index !== 'object' || Array.isArray(index)) fail('index must be the parsed model.safetensors.index.json');
  const map = index.weight_map;
  if (map === null || typeof map !== 'object' || Array.isArray(map))
    fail('index has no weight_map: it must be the parsed model.safetensors.index.json');
  const byFile = new Map();
  const given = new Map(); // file → the label it was given under (weights[i])
  for (const part of parts) {
    const files = new Set();
    for (const name of part.tensors.keys()) {
      if (typeof map[name] !== 'string') fail(`${part.label} holds ${name}, which the index's weight_map does not list`);
      files.add(map[name]);
    }
    if (files.size !== 1) {
      fail(
        files.size === 0 ? `${part.label} holds no tensor` : `${part.label} holds tensors the index puts in ${[...files].map(quoted).join(' and ')}`,
      );
    }
    const [file] = files;
    if (byFile.has(file)) fail(`${file} was given twice (${given.get(file)} and ${part.label})`);
    byFile.set(file, part);
    given.set(file, part.label);
  }
  for (const [file, part] of byFile) part.label = file;
  for (const [name, file] of Object.entries(map)) {
    if (!byFile.has(file)) fail(`${quoted(file)} is missing: the index puts ${name} in it; give every file the index lists`);
    if (!byFile.get(file).tensors.has(name)) fail(`the index puts ${name} in ${file}, which does not hold it`);
  }
}

/**
 * For each tensor the core expects ({ name, shape } in the core's order), where it is: { part,
 * name (as the file spells it), dtype }. Refuses, naming the tensor and its shapes, anything that
 * does not match.
 */
export function locateTensors(parts, expected, architecture, { tied }) {
  const found = new Map();
  for (const part of parts) {
    for (const [name, info] of part.tensors) {
      const canonical = canonicalName(name, architecture);
      if (SKIPPED[architecture].test(canonical)) continue;
      // a tied model's lm_head, when a file keeps it, is the embedding again (transformers ties it)
      if (tied && canonical === 'lm_head.weight') continue;
      if (found.has(canonical))
        fail(`${canonical} is in the weights twice (${found.get(canonical).name} in ${found.get(canonical).part.label}, ${name} in ${part.label})`);
      found.set(canonical, { part, name, info });
    }
  }
  const located = expected.map(({ name, shape }) => {
    const entry = found.get(name);
    if (!entry) fail(`${name} is missing from the weights: the model config.json describes has it (do the two belong together?)`);
    const { info, part } = entry;
    if (info.shape.length !== shape.length || info.shape.some((d, i) => d !== shape[i])) {
      fail(`${name} is ${shapeText(info.shape)} in ${part.label}, but config.json makes it ${shapeText(shape)}`);
    }
    if (!Object.hasOwn(DTYPE_CODE, info.dtype)) fail(`${name} is ${info.dtype} in ${part.label}: the core reads F32, F16 and BF16`);
    found.delete(name);
    return { part, name: entry.name, dtype: info.dtype };
  });
  if (found.size > 0) {
    const [name, { part }] = found.entries().next().value;
    fail(`${part.label} holds ${name}, which the model config.json describes does not have (do the two belong together?)`);
  }
  return located;
}
