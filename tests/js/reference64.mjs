// An independent float64 reference in JavaScript, for checking what the shipped WebAssembly
// module returns: the textbook formulas on plain numbers, nothing shared with the core.
const matrixOf = ({ rows, cols, data }) =>
  Array.from({ length: rows }, (_, r) => Array.from(data.subarray(r * cols, (r + 1) * cols), Number));

function mul(a, b) {
  return a.map((row) => b[0].map((_, j) => row.reduce((sum, a_ik, k) => sum + a_ik * b[k][j], 0)));
}

/** Forward pass in float64 from the inputs the core reports it used (x and the weights). */
export function forward64(result, { mask = 'causal', scale = true } = {}) {
  const { T, dModel, heads, dK } = result;
  const x = matrixOf(result.x);
  const [wq, wk, wv, wo] = ['wq', 'wk', 'wv', 'wo'].map((n) => matrixOf(result.weights[n]));
  const q = mul(x, wq);
  const k = mul(x, wk);
  const v = mul(x, wv);
  const concat = Array.from({ length: T }, () => new Array(dModel).fill(0));
  const perHead = [];
  for (let h = 0; h < heads; ++h) {
    const cols = (m) => m.map((row) => row.slice(h * dK, (h + 1) * dK));
    const [qh, kh, vh] = [cols(q), cols(k), cols(v)];
    const scores = qh.map((qi) => kh.map((kj) => {
      const dot = qi.reduce((s, qc, c) => s + qc * kj[c], 0);
      return scale ? dot / Math.sqrt(dK) : dot;
    }));
    const masked = scores.map((row, i) => row.map((s, j) => (mask === 'causal' && j > i ? -Infinity : s)));
    const weights = masked.map((row) => {
      const max = Math.max(...row);
      const e = row.map((s) => Math.exp(s - max));
      const sum = e.reduce((a, b) => a + b, 0);
      return e.map((value) => value / sum);
    });
    const context = mul(weights, vh);
    context.forEach((row, t) => row.forEach((value, c) => { concat[t][h * dK + c] = value; }));
    perHead.push({ q: qh, k: kh, v: vh, scores, masked, weights, context });
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
