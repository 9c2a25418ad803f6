// The course's worked example as a config of the JavaScript API.
export const WORKED_EXAMPLE = Object.freeze({
  tokens: ['Your', 'journey', 'starts', 'with', 'one', 'step'],
  dModel: 3,
  heads: 1,
  weights: 'identity',
  mask: 'causal',
  scale: true,
  embeddings: [
    [0.43, 0.15, 0.89],
    [0.55, 0.87, 0.66],
    [0.57, 0.85, 0.64],
    [0.22, 0.58, 0.33],
    [0.77, 0.25, 0.1],
    [0.05, 0.8, 0.55],
  ],
});

export const row = ({ cols, data }, r) => Array.from(data.subarray(r * cols, (r + 1) * cols));
export const fixed3 = (values) => values.map((v) => (Object.is(Math.round(v * 1000) / 1000, -0) ? 0 : Math.round(v * 1000) / 1000));
