// The page state in one table: every field's name in the state and in the link, its kind,
// default and limits, and how its value reads and writes as text. The link codec (url.js), the
// form's checks (validate.js), the presets and the views all read it. No DOM.
import { runSteps } from './lz-bounded.js';
import { longestToken, parseDecimal, tokenize } from './parse.js';
import { MODEL_SHAPES } from '../engine/memory-figures.js';

export const SCHEMA_VERSION = 1;

// The engine's limits (engine.info.limits; a test checks they agree) and the codec's own.
export const LIMITS = Object.freeze({
  maxTokens: 1024,
  maxDModel: 1024,
  maxTokenBytes: 1024, // UTF-8 bytes of one token
  maxSentence: 20000, // characters
  maxEntries: 1024 * 1024, // numbers in one matrix
  maxEntry: 1e6, // |a matrix entry| (the engine's bound: no intermediate overflows float32)
  maxCompressed: 16384, // characters of one '~' value
  maxHash: 4_000_000, // characters of the whole fragment
  maxParts: 256, // name=value parts read from one link (every field and every _hide is 100)
});

// The most characters one matrix entry takes as written (formatFloat32 within ±1e6:
// '-0.00000123456789', 17) and its separator: what bounds a '~' value's expansion.
export const MAX_ENTRY_CHARS = 18;
export const MAX_SEED = 4294967295; // the engine's seed is a uint32
export const MAX_SHUFFLE_SEED = 2147483647;
export const MAX_WIDTH = 100000; // window and prefix: any larger value means "everything" anyway

export const MASK_KINDS = Object.freeze(['causal', 'none', 'window', 'prefix', 'custom']);
export const SOFTMAX_AXES = Object.freeze(['keys', 'queries']);
export const FILL_VALUES = Object.freeze(['-inf', '-1e9', '0']);
export const WEIGHT_KEYS = Object.freeze(['wq', 'wk', 'wv', 'wo']);
/** Whether a state's weights are edited ones (all four given: a trained head's, or typed in the lesson). */
export const weightsEdited = (state) => WEIGHT_KEYS.every((key) => state[key]);
export const TOKENIZE_MODES = Object.freeze(['whitespace', 'char', 'word']);
export const POSITIONAL_KINDS = Object.freeze(['none', 'sinusoidal', 'rope']);
// The published model shapes the KV cache panel compares (engine/memory-figures.js), as links name them.
export const MODEL_IDS = Object.freeze(MODEL_SHAPES.map((shape) => shape.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')));
export const SPLIT_STAGES = Object.freeze(['columns', 'slice', 'maps', 'concat', 'mix']);
// The lesson's steps as links name them (lesson/steps.js has the same ids; a test checks).
export const STEP_IDS = Object.freeze(['all', 'x', 'qkv', 'dots', 'scale', 'mask', 'softmax', 'context', 'concat', 'output']);
// How many layers a trained model may have (TRAIN_RECIPE, and the lesson's `trainLayer`).
const TRAIN_LAYERS = Object.freeze([1, 4]);
/** The page's views, in the header's order (views/page-views.js). */
export const VIEW_IDS = Object.freeze(['attention', 'heads', 'modern', 'train', 'exercises', 'perf']);

/** The sentence's tokens under the state's tokenization (what the engine is given). */
export const sentenceTokens = (state) => tokenize(state.sentence ?? '', state.tokenization ?? 'whitespace');
/** The source sentence's tokens (cross-attention). */
export const sourceTokens = (state) => tokenize(state.source ?? '', state.tokenization ?? 'whitespace');
const tokenCount = (state) => sentenceTokens(state).length;

// A token longer than the engine takes, as a field's problem (or null).
const tokenBytesProblem = (tokens) => {
  const bytes = longestToken(tokens, LIMITS.maxTokenBytes);
  return bytes > LIMITS.maxTokenBytes ? { key: 'share.ignored.tokenBytes', params: { bytes, max: LIMITS.maxTokenBytes } } : null;
};

// After d_model changes: the heads if they still divide it, else the largest divisor below them.
export function snapHeads(dModel, heads) {
  if (!(dModel >= 1) || !(heads >= 1)) return 1;
  for (let h = Math.min(heads, dModel); h >= 1; h -= 1) if (dModel % h === 0) return h;
  return 1;
}

// The names that are not fields: the version, the preset, the language and the view.
export const RESERVED = new Set(['v', 'preset', 'lang', 'embed']);

// ---- the table -------------------------------------------------------------------------------
// A field: { key, param, kind, group, default, ... }
//   key    name in the state object          param  name in the link (never changes)
//   kind   'string' | 'int' | 'float' | 'enum' | 'bool'
//          | 'matrix'      rows joined by ';' of numbers joined by ','
//          | 'bools'       one '0'/'1' per entry: "00110"
//          | 'boolMatrix'  rows of '0'/'1' joined by '.': "011.001.000"
//   group  'core' (validate.js), 'lesson' (validateLesson) or 'structure' (validateStructure)
// optional:
//   values      enum: the allowed words
//   min, max    int, float: the range; values outside it are clamped (and reported);
//               matrix: the range of every entry (default ±LIMITS.maxEntry), clamped likewise
//   maxLength   string: longer values are ignored
//   compressible  string: may be written '~' + lz-string when that is clearly shorter, as the
//               structured kinds are (expanded at most to maxLength)
//   nullText    matrix, bools, boolMatrix: how null is written (default ''); '' always reads as null
//   shape(state) → [rows, cols]   matrix: the required shape, given earlier fields
//   check(value, state) → null | { key, params }   any other rule against earlier fields
//   repair(state, value) → value  what to use when both the link's and the preset's values fail
//   textLimit(state) → n  the most characters a matrix, bools or boolMatrix value can have given
//               earlier fields; a '~' value is decompressed no further
// Fields are read in table order, so a rule may look at the fields above it: `tokenization`
// comes first because it decides T for every check below.
const weightsText = (state) => state.dModel * state.dModel * MAX_ENTRY_CHARS;
const weight = (key) => ({ key, param: key, kind: 'matrix', group: 'lesson', default: null, textLimit: weightsText });

export const ALL_FIELDS = checkTable([
  { key: 'tokenization', param: 'tok', kind: 'enum', group: 'structure', values: TOKENIZE_MODES, default: 'whitespace' },
  {
    key: 'sentence',
    param: 's',
    kind: 'string',
    group: 'core',
    default: 'Your journey starts with one step',
    maxLength: LIMITS.maxSentence,
    check: (sentence, state) => {
      const tokens = sentenceTokens({ ...state, sentence });
      if (tokens.length === 0) return { key: 'share.ignored.noTokens', params: {} };
      if (tokens.length > LIMITS.maxTokens) return { key: 'share.ignored.tokens', params: { T: tokens.length, max: LIMITS.maxTokens } };
      return tokenBytesProblem(tokens);
    },
  },
  { key: 'dModel', param: 'd', kind: 'int', group: 'core', default: 6, min: 1, max: LIMITS.maxDModel },
  {
    key: 'heads',
    param: 'h',
    kind: 'int',
    group: 'core',
    default: 2,
    min: 1,
    max: LIMITS.maxDModel,
    check: (heads, state) => (state.dModel % heads === 0 ? null : { key: 'share.ignored.heads', params: { heads, dModel: state.dModel } }),
    repair: (state, heads) => snapHeads(state.dModel, heads),
  },
  { key: 'mask', param: 'mask', kind: 'enum', group: 'lesson', values: MASK_KINDS, default: 'causal' },
  { key: 'scale', param: 'scale', kind: 'bool', group: 'core', default: true },
  { key: 'weights', param: 'w', kind: 'enum', group: 'core', values: ['random', 'identity'], default: 'random' },
  { key: 'seed', param: 'seed', kind: 'int', group: 'core', default: 0, min: 0, max: MAX_SEED },
  // null = the engine's vector per token string ('token' in the link).
  {
    key: 'embeddings',
    param: 'x',
    kind: 'matrix',
    group: 'core',
    default: null,
    nullText: 'token',
    shape: (state) => [tokenCount(state), state.dModel],
    textLimit: (state) => tokenCount(state) * state.dModel * MAX_ENTRY_CHARS,
  },
  // `look`: where the reader looks (a step, a head, a row, a cell, a stage), which changes no number.
  { key: 'step', param: 'step', kind: 'enum', group: 'lesson', values: STEP_IDS, default: 'all', look: true },
  // head, row and cell are 1-based, like the course's notation (s₂₁ is row 2, column 1).
  { key: 'head', param: 'head', kind: 'int', group: 'lesson', default: 1, min: 1, max: LIMITS.maxDModel, look: true },
  { key: 'row', param: 'row', kind: 'int', group: 'lesson', default: 1, min: 1, max: LIMITS.maxTokens, look: true },
  { key: 'cell', param: 'cell', kind: 'string', group: 'lesson', default: '', maxLength: 64, look: true },
  { key: 'window', param: 'win', kind: 'int', group: 'lesson', default: 3, min: 1, max: MAX_WIDTH },
  { key: 'prefix', param: 'pre', kind: 'int', group: 'lesson', default: 2, min: 0, max: MAX_WIDTH },
  { key: 'padding', param: 'pad', kind: 'bools', group: 'lesson', default: null, textLimit: tokenCount },
  {
    key: 'customMask',
    param: 'cm',
    kind: 'boolMatrix',
    group: 'lesson',
    default: null,
    textLimit: (state) => tokenCount(state) * (tokenCount(state) + 1),
  },
  { key: 'maskFill', param: 'fill', kind: 'enum', group: 'lesson', values: FILL_VALUES, default: '-inf' },
  { key: 'maskBeforeScale', param: 'mbs', kind: 'bool', group: 'lesson', default: false },
  { key: 'temperature', param: 'tau', kind: 'float', group: 'lesson', default: 1, min: 0.01, max: 100 },
  { key: 'naive', param: 'naive', kind: 'bool', group: 'lesson', default: false },
  // The softmax's axis: 'queries' is the course's misconception (columns sum to 1, rows do not).
  { key: 'softmaxOver', param: 'smax', kind: 'enum', group: 'lesson', values: SOFTMAX_AXES, default: 'keys' },
  { key: 'compare', param: 'cmp', kind: 'bool', group: 'lesson', default: false },
  ...WEIGHT_KEYS.map(weight),
  // 0 = one key/value head per query head (the engine's default); otherwise it divides `heads`.
  { key: 'kvHeads', param: 'kvh', kind: 'int', group: 'structure', default: 0, min: 0, max: LIMITS.maxDModel },
  { key: 'positional', param: 'pos', kind: 'enum', group: 'structure', values: POSITIONAL_KINDS, default: 'none' },
  { key: 'cross', param: 'cross', kind: 'bool', group: 'structure', default: false },
  {
    key: 'source',
    param: 'src',
    kind: 'string',
    group: 'structure',
    default: 'I love natural language processing',
    maxLength: LIMITS.maxSentence,
    check: (source, state) => tokenBytesProblem(sourceTokens({ ...state, source })),
  },
  { key: 'sourcePadding', param: 'spad', kind: 'bools', group: 'structure', default: null, textLimit: (state) => sourceTokens(state).length },
  { key: 'crossCausal', param: 'xc', kind: 'bool', group: 'structure', default: false },
  // 0 = off; any other value is the seed of the shuffled token order.
  { key: 'shuffle', param: 'shuf', kind: 'int', group: 'structure', default: 0, min: 0, max: MAX_SHUFFLE_SEED },
  { key: 'split', param: 'split', kind: 'enum', group: 'structure', values: ['all', ...SPLIT_STAGES], default: 'all', look: true },
  // An exercise (exercise/exercise-text.js, within EXERCISE_LIMITS below): its questions, never their answers.
  { key: 'exercise', param: 'ex', kind: 'string', group: 'lesson', default: '', maxLength: 20000, compressible: true, look: true },
  // The Train panel's model: task, base (seed or checkpoint), config and steps (TRAIN_RECIPE below);
  // '' = none. It changes no number of the lesson's example (`look`).
  {
    key: 'train',
    param: 'train',
    kind: 'string',
    group: 'structure',
    default: '',
    maxLength: 16384,
    look: true,
    check: (text) => (text === '' ? null : (readTrainText(text).problem ?? null)),
  },
  // The trained model's layer (1-based) whose head the lesson shows, opened from the Train panel
  // with that layer's input and weights; 0 = none. It changes no number (`look`).
  { key: 'trainLayer', param: 'tl', kind: 'int', group: 'structure', default: 0, min: 0, max: TRAIN_LAYERS[1], look: true },
  // Today's attention (web/src/modern/): ALiBi's bias on the scores; the FlashAttention panel's
  // tile (Br × Bc) and the tile it shows; the KV cache's step and model; the RoPE pair shown
  // (token, pair and steps 1-based, like row and head).
  { key: 'alibi', param: 'alibi', kind: 'bool', group: 'structure', default: false },
  { key: 'flashRows', param: 'br', kind: 'int', group: 'structure', default: 2, min: 1, max: 64 },
  { key: 'flashKeys', param: 'bc', kind: 'int', group: 'structure', default: 2, min: 1, max: 64 },
  { key: 'flashTile', param: 'tile', kind: 'int', group: 'structure', default: 1, min: 1, max: 64 * 64, look: true },
  { key: 'kvStep', param: 'kvt', kind: 'int', group: 'structure', default: 1, min: 1, max: LIMITS.maxTokens, look: true },
  { key: 'kvModel', param: 'model', kind: 'enum', group: 'structure', values: MODEL_IDS, default: MODEL_IDS[2], look: true },
  { key: 'ropeToken', param: 'rtok', kind: 'int', group: 'structure', default: 3, min: 1, max: LIMITS.maxTokens, look: true },
  { key: 'ropePair', param: 'rpair', kind: 'int', group: 'structure', default: 1, min: 1, max: LIMITS.maxDModel, look: true },
  // The view the page shows (views/page-views.js). A link without `view` opens where its fields
  // point (VIEW_OF_PARAMS), as links did when everything was on one page; a link writes `view`
  // only when it differs from that.
  { key: 'view', param: 'view', kind: 'enum', group: 'lesson', values: VIEW_IDS, default: 'attention', look: true },
]);

// ---- the exercise (the `ex` field) ------------------------------------------------------------
export const EXERCISE_LIMITS = Object.freeze({
  questions: 20,
  textChars: 600, // one prompt, hint, option or title, per language
  options: 6,
  maxTolerance: 100,
  defaultTolerance: 0.01,
});

// ---- the Train panel's recipe (the `train` field) --------------------------------------------
// Items joined by '_': the task, the version, then 'ckpt' (the shipped checkpoint as base) or every
// config field, then s<steps>. Every field is written, so that a link never depends on a task's
// defaults staying what they are; version 1 (no version item) had no T, B and V: the task's
// defaults fill them. The core checks again (heads must divide d_model, the vocabulary must cover
// the task, …).
//   e.g. 'induction_v2_T24_B32_Va.b.c.d_L2_H2_C32_mlp0_ln0_poslearned_lr0.01_seed1_s1500', 'sort_v2_ckpt_s0'
export const TRAIN_RECIPE = Object.freeze({
  version: 2,
  tasks: Object.freeze(['previous', 'induction', 'reverse', 'sort', 'text']),
  // The tasks with a shipped checkpoint (web/src/presets/checkpoints/, tools/train-checkpoints.mjs).
  checkpointTasks: Object.freeze(['previous', 'induction', 'sort']),
  steps: Object.freeze([0, 100000]),
  // { prefix, key, kind, range | values, since (the first version that writes it) }, in order.
  items: Object.freeze(
    [
      { prefix: 'T', key: 'contextLength', kind: 'int', range: [2, 128], since: 2 },
      { prefix: 'B', key: 'batchSize', kind: 'int', range: [1, 256], since: 2 },
      // Tokens of 1 to 16 characters joined by '.', with '%', '.' and '_' written as %25, %2E, %5F.
      { prefix: 'V', key: 'vocab', kind: 'vocab', range: [2, 256], chars: 16, since: 2 },
      { prefix: 'L', key: 'layers', kind: 'int', range: TRAIN_LAYERS, since: 1 },
      { prefix: 'H', key: 'heads', kind: 'int', range: [1, 8], since: 1 },
      { prefix: 'C', key: 'dModel', kind: 'int', range: [4, 128], since: 1 },
      { prefix: 'mlp', key: 'mlp', kind: 'bool', since: 1 },
      { prefix: 'ln', key: 'layerNorm', kind: 'bool', since: 1 },
      { prefix: 'pos', key: 'positions', kind: 'enum', values: ['none', 'sinusoidal', 'learned'], since: 1 },
      { prefix: 'lr', key: 'learningRate', kind: 'rate', range: [1e-5, 1], since: 1 },
      { prefix: 'seed', key: 'seed', kind: 'int', range: [0, MAX_SEED], since: 1 },
    ].map(Object.freeze),
  ),
});
/** A recipe item's table entry by config key. */
export const recipeItem = (key) => TRAIN_RECIPE.items.find((item) => item.key === key);

const VOCAB_ESCAPES = [
  ['%', '%25'],
  ['.', '%2E'],
  ['_', '%5F'],
];
const writeVocabToken = (token) => VOCAB_ESCAPES.reduce((text, [c, code]) => text.replaceAll(c, code), token);
const readVocabToken = (text) => VOCAB_ESCAPES.reduceRight((token, [c, code]) => token.replaceAll(code, c), text);
const recipeText = {
  int: (value) => String(value),
  bool: (value) => (value ? '1' : '0'),
  enum: (value) => value,
  rate: (value) => String(value),
  vocab: (value) => value.map(writeVocabToken).join('.'),
};
const wholeIn = (text, [low, high]) => (/^\d{1,10}$/.test(text) && Number(text) >= low && Number(text) <= high ? Number(text) : null);
const recipeValue = {
  int: (text, item) => wholeIn(text, item.range),
  bool: (text) => (text === '1' ? true : text === '0' ? false : null),
  enum: (text, item) => (item.values.includes(text) ? text : null),
  rate: (text, item) => {
    const rate = /^\d*\.?\d+(e-?\d+)?$/.test(text) ? Number(text) : NaN;
    return rate >= item.range[0] && rate <= item.range[1] ? rate : null;
  },
  vocab: (text, item) => {
    const tokens = text.split('.').map(readVocabToken);
    const fits = tokens.length >= item.range[0] && tokens.length <= item.range[1] && new Set(tokens).size === tokens.length;
    return fits && tokens.every((token) => token.length >= 1 && token.length <= item.chars && token.isWellFormed()) ? tokens : null;
  },
};
const expectedOf = (item) =>
  item.values
    ? item.values.join(', ')
    : item.kind === 'bool'
      ? '0, 1'
      : item.kind === 'vocab'
        ? `${item.range[0]} … ${item.range[1]} tokens of 1 … ${item.chars} characters, joined by '.'`
        : `${item.range[0]} … ${item.range[1]}`;
const formOf = (version) =>
  TRAIN_RECIPE.items
    .filter((item) => item.since <= version)
    .map((item) => `${item.prefix}<${item.key}>`)
    .join('_');

/** { task, checkpoint, config (every item's key) | null, steps } → text (the current version). */
export function formatTrainText({ task, checkpoint = false, config = null, steps = 0 }) {
  const items = [task, `v${TRAIN_RECIPE.version}`];
  if (checkpoint) items.push('ckpt');
  else for (const item of TRAIN_RECIPE.items) items.push(item.prefix + recipeText[item.kind](config[item.key]));
  items.push(`s${steps}`);
  return items.join('_');
}

/**
 * The inverse of formatTrainText, of any version: { ok: true, value } or { ok: false, problem:
 * { key, params } }, the problem naming the item that is wrong and what was expected (keys
 * 'share.ignored.train.*'). A version-1 config has no contextLength, batchSize and vocab.
 */
export function readTrainText(text) {
  const problem = (kind, params) => ({ ok: false, problem: { key: `share.ignored.train.${kind}`, params } });
  const items = String(text ?? '').split('_');
  const task = items.shift();
  if (!TRAIN_RECIPE.tasks.includes(task)) return problem('task', { value: task, tasks: TRAIN_RECIPE.tasks.join(', ') });
  const version = /^v\d{1,3}$/.test(items[0] ?? '') ? Number(items.shift().slice(1)) : 1;
  if (version < 1 || version > TRAIN_RECIPE.version)
    return problem('form', { value: `v${version}`, form: `v${TRAIN_RECIPE.version}_${formOf(TRAIN_RECIPE.version)}` });
  const stepsItem = items.pop() ?? '';
  const steps = /^s/.test(stepsItem) ? wholeIn(stepsItem.slice(1), TRAIN_RECIPE.steps) : null;
  if (steps === null) return problem('steps', { value: stepsItem, max: TRAIN_RECIPE.steps[1] });
  if (items.length === 1 && items[0] === 'ckpt') {
    if (!TRAIN_RECIPE.checkpointTasks.includes(task)) return problem('checkpoint', { task, tasks: TRAIN_RECIPE.checkpointTasks.join(', ') });
    return { ok: true, value: { task, checkpoint: true, config: null, steps } };
  }
  const written = TRAIN_RECIPE.items.filter((item) => item.since <= version);
  if (items.length !== written.length || written.some((item, i) => !items[i].startsWith(item.prefix))) {
    return problem('form', { value: items.join('_'), form: formOf(version) });
  }
  const config = {};
  for (const [i, item] of written.entries()) {
    const value = recipeValue[item.kind](items[i].slice(item.prefix.length), item);
    if (value === null) return problem('item', { item: items[i], name: item.prefix, expected: expectedOf(item) });
    config[item.key] = value;
  }
  return { ok: true, value: { task, checkpoint: false, config, steps } };
}

/** The model of a train text, or null when it is not one ('' is no model: null too). */
export function parseTrainText(text) {
  const read = readTrainText(text);
  return read.ok ? read.value : null;
}

// ---- views ---------------------------------------------------------------------------------------

// A link's params that only a panel of another view reads: such a link opens in that view.
const VIEW_OF_PARAMS = Object.freeze({
  train: 'train',
  split: 'heads',
  tile: 'modern',
  kvt: 'modern',
  model: 'modern',
  rtok: 'modern',
  rpair: 'modern',
});

/** The view a link's params point to when it names none (`names`: the params it gives). */
export function impliedView(names) {
  for (const name of names) if (Object.hasOwn(VIEW_OF_PARAMS, name)) return VIEW_OF_PARAMS[name];
  return 'attention';
}

// Parts of the page that are not fields but can be hidden as well (`prose_hide=1`, …).
export const PAGE_PARTS = Object.freeze([
  'prose',
  'presets',
  'lang',
  'share',
  'export',
  'overview',
  'lesson',
  'inputs',
  'tokenView',
  'positionsView',
  'crossView',
  'perf',
  'flashView',
  'kvView',
  'ropeView',
]);

/** The table frozen, after checking that no param is used twice or reserved. */
export function checkTable(fields) {
  const params = fields.map((field) => field.param);
  const clash = params.find((param, i) => params.indexOf(param) !== i || RESERVED.has(param) || param.endsWith('_hide'));
  if (clash !== undefined) throw new Error(`link field param "${clash}" is used twice or reserved`);
  return Object.freeze(fields.map((field) => Object.freeze(field)));
}

/** A field of the table by its key in the state. */
export const fieldOf = (key) => ALL_FIELDS.find((field) => field.key === key);

const group = (name) => ALL_FIELDS.filter((field) => field.group === name);
const defaultsOf = (fields) => Object.freeze(Object.fromEntries(fields.map((field) => [field.key, field.default])));
// The views' short form of a group: { key, param, kind, values? }.
const brief = (fields) =>
  Object.freeze(fields.map(({ key, param, kind, values }) => Object.freeze(values ? { key, param, kind, values } : { key, param, kind })));

export const FIELDS = group('core');
/** The fields that change where the reader looks, no number (`look` in the table). */
export const LOOK_KEYS = Object.freeze(ALL_FIELDS.filter((field) => field.look).map((field) => field.key));
export const LESSON_FIELDS = brief(group('lesson'));
export const STRUCTURE_FIELDS = brief(group('structure'));
export const DEFAULTS = defaultsOf(ALL_FIELDS);
export const LESSON_DEFAULTS = defaultsOf(group('lesson'));
export const STRUCTURE_DEFAULTS = defaultsOf(group('structure'));

// ---- cell references (the `cell` field) ------------------------------------------------------

// Matrix names a cell reference may use; per-head ones carry a head number.
const MODEL_NAMES = new Set(['x', 'wq', 'wk', 'wv', 'wo', 'q', 'k', 'v', 'mask', 'concat', 'output']);
const HEAD_NAMES = new Set(['q', 'k', 'v', 'dots', 'scores', 'bias', 'masked', 'exps', 'weights', 'context', 'cmp-weights', 'cmp-context']);

/** A cell as text, 1-based like the course's notation: 'scores.1.2.1' (head 1, s₂₁), 'x.2.1'. */
export function formatCellRef({ name, head = null, row, col }) {
  return head === null ? `${name}.${row + 1}.${col + 1}` : `${name}.${head + 1}.${row + 1}.${col + 1}`;
}

/** The inverse of formatCellRef, 0-based: { name, head (null for model matrices), row, col } or null. */
export function parseCellRef(text) {
  const parts = String(text ?? '').split('.');
  const name = parts[0];
  const numbers = parts.slice(1).map((p) => (/^\d{1,6}$/.test(p) ? Number(p) - 1 : -1));
  if (numbers.some((n) => n < 0)) return null;
  if (numbers.length === 2 && MODEL_NAMES.has(name)) return { name, head: null, row: numbers[0], col: numbers[1] };
  if (numbers.length === 3 && HEAD_NAMES.has(name)) return { name, head: numbers[0], row: numbers[1], col: numbers[2] };
  return null;
}

/** Whether a parsed cell reference lies in the matrices of T tokens, d_model and heads. */
export function cellInRange(ref, { T, dModel, heads }) {
  if (!ref) return false;
  if (ref.head !== null && ref.head >= heads) return false;
  let rows = ['wq', 'wk', 'wv', 'wo'].includes(ref.name) ? dModel : T;
  let cols = ['x', 'q', 'k', 'v', 'concat', 'output', 'wq', 'wk', 'wv', 'wo'].includes(ref.name) ? dModel : T;
  if (ref.head !== null && ['q', 'k', 'v', 'context', 'cmp-context'].includes(ref.name)) cols = dModel / heads;
  // Keys (columns of T × T matrices, rows of K and V) may be a source's in cross-attention, whose
  // length this state does not know: those are checked against the result when shown.
  if (cols === T) cols = Infinity;
  if (['k', 'v'].includes(ref.name)) rows = Infinity;
  return ref.row < rows && ref.col < cols;
}

// ---- values as text --------------------------------------------------------------------------

// The shortest decimal that reads back as the same float32: the engine computes in float32, so
// this is exact for it, and typed numbers like 0.43 stay as typed.
export function formatFloat32(value) {
  const target = Math.fround(value);
  if (target === 0) return '0';
  for (let digits = 1; digits <= 9; digits += 1) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return String(candidate);
  }
  return String(target);
}

const bit = (value) => (value ? '1' : '0');
const toWellFormed = (text) => (typeof text.toWellFormed === 'function' ? text.toWellFormed() : text.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));

/** A value as text, unescaped (the link codec escapes it and writes long matrices by row). */
export function formatValue(field, value) {
  if (value === null && STRUCTURED.has(field.kind)) return field.nullText ?? '';
  switch (field.kind) {
    case 'bool':
      return bit(value);
    case 'matrix':
      return value.map((row) => row.map(formatFloat32).join(',')).join(';');
    case 'bools':
      return value.map(bit).join('');
    case 'boolMatrix':
      return value.map((row) => row.map(bit).join('')).join('.');
    case 'string':
      return toWellFormed(String(value));
    default:
      return String(value);
  }
}

// The kinds whose values may be megabytes: read in steps, and null allowed.
export const STRUCTURED = new Set(['matrix', 'bools', 'boolMatrix']);

// A matrix's entries parsed between two steps of the reader (a few milliseconds' worth).
const ENTRIES_PER_STEP = 1 << 15;
const fail = (key, params = {}) => ({ ok: false, key, params });

/**
 * A value's text read as the field's kind, range-checked (numbers are clamped), in steps (a
 * generator; see readValue). → { ok: true, value, clamped?, used? } | { ok: false, key, params }
 */
export function* readValueSteps(field, text) {
  switch (field.kind) {
    case 'string':
      if (text.length > (field.maxLength ?? LIMITS.maxSentence)) return fail('share.ignored.tooLong', { length: text.length });
      return { ok: true, value: text };
    case 'int':
      return /^[+-]?\d{1,20}$/.test(text) ? clampNumber(field, Number(text)) : fail('share.ignored.malformed');
    case 'float': {
      const value = parseDecimal(text);
      return value === null ? fail('share.ignored.malformed') : clampNumber(field, value);
    }
    case 'enum':
      return field.values.includes(text) ? { ok: true, value: text } : fail('share.ignored.malformed');
    case 'bool':
      if (text === '1' || text === 'true') return { ok: true, value: true };
      if (text === '0' || text === 'false') return { ok: true, value: false };
      return fail('share.ignored.malformed');
  }
  if (text === '' || text === field.nullText) return { ok: true, value: null };
  if (field.kind === 'bools') {
    if (!/^[01]{1,4096}$/.test(text)) return fail('share.ignored.malformed');
    return { ok: true, value: [...text].map((c) => c === '1') };
  }
  if (field.kind === 'boolMatrix') {
    const rowsText = text.split('.');
    if (!rowsText.every((row) => /^[01]{1,4096}$/.test(row))) return fail('share.ignored.malformed');
    if (rowsText.length > LIMITS.maxTokens || rowsText.some((row) => row.length !== rowsText[0].length)) return fail('share.ignored.malformed');
    return { ok: true, value: rowsText.map((row) => [...row].map((c) => c === '1')) };
  }
  // matrix
  const rows = [];
  const low = field.min ?? -LIMITS.maxEntry;
  const high = field.max ?? LIMITS.maxEntry;
  let clamped = false;
  let entries = 0;
  let nextStep = ENTRIES_PER_STEP;
  for (const rowText of text.split(';')) {
    const entriesText = rowText.split(',');
    entries += entriesText.length;
    if (entries > LIMITS.maxEntries) return fail('share.ignored.tooLong', { length: text.length });
    if (entries >= nextStep) {
      nextStep = entries + ENTRIES_PER_STEP;
      yield;
    }
    const row = [];
    for (const entry of entriesText) {
      const value = parseDecimal(entry.trim());
      // Finite, and finite as the float32 the engine will see.
      if (value === null || !Number.isFinite(Math.fround(value))) return fail('share.ignored.malformed');
      if (value < low || value > high) clamped = true;
      row.push(Math.min(high, Math.max(low, Object.is(value, -0) ? 0 : value)));
    }
    if (rows.length > 0 && row.length !== rows[0].length) return fail('share.ignored.malformed');
    rows.push(row);
  }
  return clamped ? { ok: true, value: rows, clamped: true, used: `±${high}` } : { ok: true, value: rows };
}

/** readValueSteps at once. */
export const readValue = (field, text) => runSteps(readValueSteps(field, text));

/** The value a text stands for, or undefined when it cannot be read. */
export function valueOfText(field, text) {
  const read = readValue(field, String(text));
  return read.ok ? read.value : undefined;
}

function clampNumber(field, value) {
  const min = field.min ?? -Infinity;
  const max = field.max ?? Infinity;
  if (value < min) return { ok: true, value: min, clamped: true };
  if (value > max) return { ok: true, value: max, clamped: true };
  return { ok: true, value: Object.is(value, -0) ? 0 : value };
}
