// The address codec. One table of state fields; reading and writing the hash derive from it.
// The hash names a preset and holds only the values that differ from it, e.g.
//   #preset=journey                      the course example as is
//   #preset=journey&v=1&mask=none        the same without the causal mask
//   #v=1&s=The+cat+sat&d=4&h=2&lang=zh-CN
// `v` is the schema version of the field table; bump it when a field changes meaning.
import { PRESETS, DEFAULT_PRESET } from '../presets/index.js';
import { stateToDraft } from './draft.js';
import { formatNumber } from './parse.js';

export const SCHEMA_VERSION = 1;

// key: field of the state; param: its name in the address; kind: how it is written.
export const FIELDS = Object.freeze([
  { key: 'sentence', param: 's', kind: 'string' },
  { key: 'dModel', param: 'd', kind: 'int' },
  { key: 'heads', param: 'h', kind: 'int' },
  { key: 'mask', param: 'mask', kind: 'enum', values: ['causal', 'none'] },
  { key: 'scale', param: 'scale', kind: 'bool' },
  { key: 'weights', param: 'w', kind: 'enum', values: ['random', 'identity'] },
  { key: 'seed', param: 'seed', kind: 'int' },
  { key: 'embeddings', param: 'x', kind: 'matrix' }, // rows split by ';', entries by ','; 'token' = per-token
]);

const PER_TOKEN = 'token';

function encodeValue(field, value) {
  switch (field.kind) {
    case 'bool':
      return value ? '1' : '0';
    case 'matrix':
      return value ? value.map((row) => row.map(formatNumber).join(',')).join(';') : PER_TOKEN;
    default:
      return String(value);
  }
}

function sameValue(field, a, b) {
  if (field.kind !== 'matrix') return a === b;
  if (!a || !b) return a === b;
  return encodeValue(field, a) === encodeValue(field, b);
}

// Writes one address value into a draft (control values as strings); values that cannot be read
// are left to validation, which reports them.
function applyParam(draft, field, text) {
  switch (field.key) {
    case 'scale':
      draft.scale = !(text === '0' || text === 'false');
      break;
    case 'mask':
    case 'weights':
      if (field.values.includes(text)) draft[field.key] = text;
      break;
    case 'embeddings':
      if (text === PER_TOKEN) {
        draft.embeddingsMode = 'token';
        draft.embeddingsText = '';
      } else {
        draft.embeddingsMode = 'edit';
        draft.embeddingsText = text.split(';').map((row) => row.split(',').join(' ')).join('\n');
      }
      break;
    default:
      draft[field.key] = text;
  }
}

// hash: location.hash ('#...' or '') → { presetId, draft, lang, known }
// `known` is false when the hash names a preset that does not exist.
export function decodeHash(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const asked = params.get('preset');
  const known = asked === null || Object.hasOwn(PRESETS, asked);
  const presetId = asked !== null && known ? asked : DEFAULT_PRESET;
  const draft = stateToDraft(PRESETS[presetId].state);
  for (const field of FIELDS) {
    const text = params.get(field.param);
    if (text !== null) applyParam(draft, field, text);
  }
  const lang = params.get('lang');
  return { presetId, draft, lang, known };
}

// → '#preset=…&v=1&…' with only the values that differ from the preset, or '' for the plain
// default page. `lang` is written when not null (the reader chose a language).
export function encodeHash({ presetId, state, lang = null }) {
  const params = [];
  const base = PRESETS[presetId] ?? PRESETS[DEFAULT_PRESET];
  if (presetId !== DEFAULT_PRESET && PRESETS[presetId]) params.push(['preset', presetId]);
  const changed = FIELDS.filter((field) => !sameValue(field, state[field.key], base.state[field.key]));
  if (changed.length > 0) params.push(['v', String(SCHEMA_VERSION)]);
  for (const field of changed) params.push([field.param, encodeValue(field, state[field.key])]);
  if (lang) params.push(['lang', lang]);
  return params.length ? `#${params.map(([name, value]) => `${name}=${encodeParam(value)}`).join('&')}` : '';
}

// Like URLSearchParams, which reads it back, but leaves ',' and ';' readable in matrices.
function encodeParam(value) {
  return encodeURIComponent(value).replace(/%20/g, '+').replace(/%2C/gi, ',').replace(/%3B/gi, ';');
}
