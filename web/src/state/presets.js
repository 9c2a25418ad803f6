// Named starting points, opened by the address (#preset=journey) or the example links.
// Each holds a complete state; the address stores only what differs from its preset.
// The lesson's and the head views' fields start from their defaults (web/src/state/schema.js).
import { LESSON_DEFAULTS, STRUCTURE_DEFAULTS } from './schema.js';

const SENTENCE = 'Your journey starts with one step';

export const PRESETS = Object.freeze({
  // The first page a visitor sees: enough width and heads to show multi-head attention, and
  // narrow enough for Q, K and V to sit side by side at 1280 px.
  default: {
    labelKey: 'preset.default',
    state: {
      ...LESSON_DEFAULTS,
      ...STRUCTURE_DEFAULTS,
      sentence: SENTENCE,
      dModel: 6,
      heads: 2,
      mask: 'causal',
      scale: true,
      weights: 'random',
      seed: 0,
      embeddings: null,
    },
  },
  // The course's worked example (attention-worked-example.zh.txt, section 6): six tokens,
  // d_model = 3, one head, identity weights, causal mask, scores divided by √3. Its printed
  // scores, weights and outputs check out to 3 decimals (tests/browser/page.test.mjs).
  journey: {
    labelKey: 'preset.journey',
    noteKey: 'preset.journey.note',
    state: {
      ...LESSON_DEFAULTS,
      ...STRUCTURE_DEFAULTS,
      sentence: SENTENCE,
      dModel: 3,
      heads: 1,
      mask: 'causal',
      scale: true,
      weights: 'identity',
      seed: 0,
      embeddings: [
        [0.43, 0.15, 0.89], // Your     x⁽¹⁾
        [0.55, 0.87, 0.66], // journey  x⁽²⁾
        [0.57, 0.85, 0.64], // starts   x⁽³⁾
        [0.22, 0.58, 0.33], // with     x⁽⁴⁾
        [0.77, 0.25, 0.1], //  one      x⁽⁵⁾
        [0.05, 0.8, 0.55], //  step     x⁽⁶⁾
      ],
    },
  },
  // The single-query example of the self-test material ("The cat sat", d_k = 4): with identity
  // weights Q = K = X, so the rows of X are the keys k₁ = [1,1,0,0], k₂ = [1,0,1,0],
  // k₃ = [0,1,1,0], and cat's query q = k₂ = [1,0,1,0]. No mask: cat also sees "sat".
  // q·k = [1, 2, 1], divided by √4 = 2: softmax([0.5, 1, 0.5]) ≈ [0.274, 0.452, 0.274]; the
  // material prints [0.27, 0.46, 0.27] (remarks.js says so on the page).
  cat: {
    labelKey: 'preset.cat',
    noteKey: 'preset.cat.note',
    state: {
      ...LESSON_DEFAULTS,
      ...STRUCTURE_DEFAULTS,
      sentence: 'The cat sat',
      dModel: 4,
      heads: 1,
      mask: 'none',
      scale: true,
      weights: 'identity',
      seed: 0,
      embeddings: [
        [1, 1, 0, 0], // The  k₁
        [1, 0, 1, 0], // cat  k₂ = q
        [0, 1, 1, 0], // sat  k₃
      ],
      step: 'softmax',
      row: 2,
      cell: 'weights.1.2.2',
    },
  },
  // Self-test question 2: d_k = 8, scores [2, 4, 2] before scaling. With identity weights and
  // x_b = [2,0,…], x_a = [1,1,0,…], x_c = [1,−1,0,…], row b of QKᵀ is [2, 4, 2]; ÷√8 and
  // softmax give ≈ [0.248, 0.503, 0.248] — not the [0.09, 0.82, 0.09] the material's hint says.
  selftest: {
    labelKey: 'preset.selftest',
    noteKey: 'preset.selftest.note',
    state: {
      ...LESSON_DEFAULTS,
      ...STRUCTURE_DEFAULTS,
      sentence: 'a b c',
      dModel: 8,
      heads: 1,
      mask: 'none',
      scale: true,
      weights: 'identity',
      seed: 0,
      embeddings: [
        [1, 1, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 0, 0, 0],
        [1, -1, 0, 0, 0, 0, 0, 0],
      ],
      step: 'softmax',
      row: 2,
      cell: 'weights.1.2.2',
    },
  },
  // Bidirectional vs causal: the worked example without a mask, next to the causal one.
  compare: {
    labelKey: 'preset.compare',
    noteKey: 'preset.compare.note',
    state: {
      ...LESSON_DEFAULTS,
      ...STRUCTURE_DEFAULTS,
      sentence: SENTENCE,
      dModel: 3,
      heads: 1,
      mask: 'none',
      scale: true,
      weights: 'identity',
      seed: 0,
      embeddings: [
        [0.43, 0.15, 0.89],
        [0.55, 0.87, 0.66],
        [0.57, 0.85, 0.64],
        [0.22, 0.58, 0.33],
        [0.77, 0.25, 0.1],
        [0.05, 0.8, 0.55],
      ],
      compare: true,
      step: 'softmax',
      row: 1,
    },
  },
  // Padding: a batch padded on the left to length 5, causal. The padding keys are masked in
  // every row, so the two padding rows see no key at all: their weights are defined as 0.
  padding: {
    labelKey: 'preset.padding',
    noteKey: 'preset.padding.note',
    state: {
      ...LESSON_DEFAULTS,
      ...STRUCTURE_DEFAULTS,
      sentence: '[PAD] [PAD] The cat sat',
      dModel: 4,
      heads: 1,
      mask: 'causal',
      scale: true,
      weights: 'identity',
      seed: 0,
      embeddings: [
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [1, 1, 0, 0],
        [1, 0, 1, 0],
        [0, 1, 1, 0],
      ],
      padding: [true, true, false, false, false],
      step: 'mask',
      row: 1,
    },
  },
});

export const DEFAULT_PRESET = 'default';

// The default page as it opens for a reader of another language (no link): a sentence of that
// language (Chinese split into words), what differs from the default preset.
export const DEFAULT_IN_LANGUAGE = Object.freeze({
  'zh-CN': Object.freeze({ sentence: '注意力让每个词都能看到相关的词', tokenization: 'word' }),
});
