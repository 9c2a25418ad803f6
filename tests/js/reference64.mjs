// An independent float64 reference in JavaScript, for checking what the shipped WebAssembly
// module returns: the textbook formulas on plain numbers, nothing shared with the core.
const matrixOf = ({ rows, cols, data }) => Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols), Number));

function mul(a, b) {
  return a.map((row) => b[0].map((_, j) => row.reduce((sum, a_ik, k) => sum + a_ik * b[k][j], 0)));
}

/**
 * ALiBi's slopes as the paper's reference code (ofirpress/attention_with_linear_biases) computes
 * them: start·start^i from start = 2^(−2^(−(log2 n − 3))) for a power of two n; otherwise the
 * closest smaller power of two's slopes, then every other slope of twice that.
 */
export function alibiSlopes64(n) {
  const powerOf2 = (m) => {
    const start = 2 ** -(2 ** -(Math.log2(m) - 3));
    return Array.from({ length: m }, (_, i) => start * start ** i);
  };
  if (Number.isInteger(Math.log2(n))) return powerOf2(n);
  const closest = 2 ** Math.floor(Math.log2(n));
  return [
    ...powerOf2(closest),
    ...alibiSlopes64(2 * closest)
      .filter((_, i) => i % 2 === 0)
      .slice(0, n - closest),
  ];
}

// RoPE on columns [first, first + dK) of a row at position pos: pairs turned by pos·θ^(−2p/dK),
// adjacent (2p, 2p + 1), where an odd dK's last column stays, or (half) the halves (p, p + dK/2).
function rotate(row, first, dK, pos, theta = 10000, half = false) {
  for (let p = 0; p < Math.floor(dK / 2); ++p) {
    const angle = pos * theta ** ((-2 * p) / dK);
    const i = half ? first + p : first + 2 * p;
    const j = half ? i + dK / 2 : i + 1;
    const x = row[i],
      y = row[j];
    row[i] = x * Math.cos(angle) - y * Math.sin(angle);
    row[j] = x * Math.sin(angle) + y * Math.cos(angle);
  }
}

// m + bias on every row (nothing without a bias).
const withBias = (m, bias) => (bias ? m.map((row) => row.map((value, c) => value + bias[c])) : m);

/**
 * Forward pass in float64 from the inputs the core reports it used (x, the source's x in
 * cross-attention, the weights and biases). rope: rotate q and k (positions from positionOffset;
 * ropeTheta, ropeHalf for the halves' pairing); alibi: add −m_h·|i − j| to the scores; padding
 * (one flag per key) and customMask (T × keys flags, instead of `mask`) hide keys with −∞. A row
 * that sees no key gets zero weights.
 */
export function forward64(
  result,
  {
    mask = 'causal',
    scale = true,
    rope = false,
    positionOffset = 0,
    alibi = false,
    ropeTheta = 10000,
    ropeHalf = false,
    padding = null,
    customMask = null,
  } = {},
) {
  const { T, dModel, heads, dK } = result;
  const kvHeads = result.kvHeads ?? heads;
  const x = matrixOf(result.x);
  const xs = result.source ? matrixOf(result.source.x) : x; // the keys' and values' input
  const [wq, wk, wv, wo] = ['wq', 'wk', 'wv', 'wo'].map((n) => matrixOf(result.weights[n]));
  const biases = result.biases ?? {};
  const q = withBias(mul(x, wq), biases.bq);
  const k = withBias(mul(xs, wk), biases.bk);
  const v = withBias(mul(xs, wv), biases.bv);
  const hidden = (i, j) => Boolean(padding?.[j]) || (customMask ? Boolean(customMask[i][j]) : mask === 'causal' && j > i);
  if (rope) {
    q.forEach((row, i) => {
      for (let h = 0; h < heads; ++h) rotate(row, h * dK, dK, positionOffset + i, ropeTheta, ropeHalf);
    });
    k.forEach((row, i) => {
      for (let g = 0; g < kvHeads; ++g) rotate(row, g * dK, dK, positionOffset + i, ropeTheta, ropeHalf);
    });
  }
  const slopes = alibiSlopes64(heads);
  const concat = Array.from({ length: T }, () => new Array(dModel).fill(0));
  const perHead = [];
  for (let h = 0; h < heads; ++h) {
    const cols = (m, head) => m.map((row) => row.slice(head * dK, (head + 1) * dK));
    const g = Math.floor(h / (heads / kvHeads)); // the key/value head of query head h
    const [qh, kh, vh] = [cols(q, h), cols(k, g), cols(v, g)];
    const scores = qh.map((qi) =>
      kh.map((kj) => {
        const dot = qi.reduce((s, qc, c) => s + qc * kj[c], 0);
        return scale ? dot / Math.sqrt(dK) : dot;
      }),
    );
    const bias = scores.map((row, i) => row.map((_, j) => (alibi ? -slopes[h] * Math.abs(i - j) : 0)));
    const masked = scores.map((row, i) => row.map((s, j) => (hidden(i, j) ? -Infinity : s + bias[i][j])));
    const weights = masked.map((row) => {
      const max = Math.max(...row);
      if (max === -Infinity) return row.map(() => 0);
      const e = row.map((s) => Math.exp(s - max));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((value) => value / sum);
    });
    const context = mul(weights, vh);
    context.forEach((row, t) =>
      row.forEach((value, c) => {
        concat[t][h * dK + c] = value;
      }),
    );
    perHead.push({ q: qh, k: kh, v: vh, scores, bias, masked, weights, context });
  }
  return { x, q, k, v, perHead, concat, output: withBias(mul(concat, wo), biases.bo) };
}

/**
 * Largest violation of the project's tolerance |a − ref| ≤ 1e-5·max(1, |ref|), in units of that
 * tolerance (≤ 1 passes). Infinities must match exactly; NaN never passes.
 */
export function worstError(got, ref) {
  let worst = 0;
  for (let r = 0; r < got.rows; ++r) {
    for (let c = 0; c < got.cols; ++c) {
      const a = got.data[r * got.cols + c];
      const b = ref[r][c];
      if (Number.isNaN(a)) return Infinity;
      if (!Number.isFinite(a) || !Number.isFinite(b)) {
        if (a !== b) return Infinity;
        continue;
      }
      worst = Math.max(worst, Math.abs(a - b) / (1e-5 * Math.max(1, Math.abs(b))));
    }
  }
  return worst;
}
