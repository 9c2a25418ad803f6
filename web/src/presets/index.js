// Named starting points, opened by the address (#preset=journey) or the example links.
// Each holds a complete state; the address stores only what differs from its preset.

const SENTENCE = 'Your journey starts with one step';

export const PRESETS = Object.freeze({
  // The first page a visitor sees: enough width and heads to show multi-head attention, and
  // narrow enough for Q, K and V to sit side by side at 1280 px.
  default: {
    labelKey: 'preset.default',
    state: {
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
});

export const DEFAULT_PRESET = 'default';
