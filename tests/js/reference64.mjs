// An independent float64 reference in JavaScript, for checking what the shipped WebAssembly
// module returns: the textbook formulas on plain numbers, nothing shared with the core.
const matrixOf = ({ rows, cols, data }) =>
  Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols), Number));

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
  return [...powerOf2(closest), ...alibiSlopes64(2 * closest).filter((_, i) => i % 2 === 0).slice(0, n - closest)];
}

// RoPE on columns [first, first + dK) of a row at position pos: adjacent pairs (2p, 2p + 1) turned
// by pos·10000^(−2p/dK); an odd dK's last column stays.
function rotate(row, first, dK, pos) {
  for (let p = 0; 2 * p + 1 < dK; ++p) {
    const angle = pos * 10000 ** (-2 * p / dK);
    const x = row[first + 2 * p], y = row[first + 2 * p + 1];
    row[first + 2 * p] = x * Math.cos(angle) - y * Math.sin(angle);
    row[first + 2 * p + 1] = x * Math.sin(angle) + y * Math.cos(angle);
  }
}

/**
 * Forward pass in float64 from the inputs the core reports it used (x and the weights).
 * rope: rotate q and k (positions from positionOffset); alibi: add −m_h·|i − j| to the scores.
 */
export function forward64(result, { mask = 'causal', scale = true, rope = false, positionOffset = 0, alibi = false } = {}) {
  const { T, dModel, heads, dK } = result;
  const kvHeads = result.kvHeads ?? heads;
  const x = matrixOf(result.x);
  const [wq, wk, wv, wo] = ['wq', 'wk', 'wv', 'wo'].map((n) => matrixOf(result.weights[n]));
  const q = mul(x, wq);
  const k = mul(x, wk);
  const v = mul(x, wv);
  if (rope) {
    q.forEach((row, i) => { for (let h = 0; h < heads; ++h) rotate(row, h * dK, dK, positionOffset + i); });
    k.forEach((row, i) => { for (let g = 0; g < kvHeads; ++g) rotate(row, g * dK, dK, positionOffset + i); });
  }
  const slopes = alibiSlopes64(heads);
  const concat = Array.from({ length: T }, () => new Array(dModel).fill(0));
  const perHead = [];
  for (let h = 0; h < heads; ++h) {
    const cols = (m, head) => m.map((row) => row.slice(head * dK, (head + 1) * dK));
    const g = Math.floor(h / (heads / kvHeads));  // the key/value head of query head h
    const [qh, kh, vh] = [cols(q, h), cols(k, g), cols(v, g)];
    const scores = qh.map((qi) => kh.map((kj) => {
      const dot = qi.reduce((s, qc, c) => s + qc * kj[c], 0);
      return scale ? dot / Math.sqrt(dK) : dot;
    }));
    const bias = scores.map((row, i) => row.map((_, j) => (alibi ? -slopes[h] * Math.abs(i - j) : 0)));
    const masked = scores.map((row, i) => row.map((s, j) => (mask === 'causal' && j > i ? -Infinity : s + bias[i][j])));
    const weights = masked.map((row) => {
      const max = Math.max(...row);
      const e = row.map((s) => Math.exp(s - max));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((value) => value / sum);
    });
    const context = mul(weights, vh);
    context.forEach((row, t) => row.forEach((value, c) => { concat[t][h * dK + c] = value; }));
    perHead.push({ q: qh, k: kh, v: vh, scores, bias, masked, weights, context });
  }
  return { x, q, k, v, perHead, concat, output: mul(concat, wo) };
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
