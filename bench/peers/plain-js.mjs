// Causal multi-head attention as a plain JavaScript loop: Float32Array buffers and the
// straightforward triple loops a learner would write first, no blocking, no tricks.
export const name = 'plain JavaScript loops';

// out (n, m) = a (n, k) · b (k, m), all row-major.
function matmul(a, b, n, k, m) {
  const out = new Float32Array(n * m);
  for (let i = 0; i < n; ++i) {
    for (let j = 0; j < m; ++j) {
      let sum = 0;
      for (let p = 0; p < k; ++p) sum += a[i * k + p] * b[p * m + j];
      out[i * m + j] = sum;
    }
  }
  return out;
}

export function forward({ T, C, NH, HS, x, wq, wk, wv, wo }) {
  // pass 1: projections, each (T, C); head h owns columns h·HS … h·HS + HS − 1
  const q = matmul(x.data, wq.data, T, C, C);
  const k = matmul(x.data, wk.data, T, C, C);
  const v = matmul(x.data, wv.data, T, C, C);
  const concat = new Float32Array(T * C);
  const scale = 1 / Math.sqrt(HS);
  const row = new Float32Array(T);
  for (let h = 0; h < NH; ++h) {
    const o = h * HS;
    for (let t = 0; t < T; ++t) {
      // pass 2: scores of query t against keys 0…t (keys after t are masked, weight 0)
      let max = -Infinity;
      for (let t2 = 0; t2 <= t; ++t2) {
        let s = 0;
        for (let i = 0; i < HS; ++i) s += q[t * C + o + i] * k[t2 * C + o + i];
        row[t2] = s * scale;
        if (row[t2] > max) max = row[t2];
      }
      // pass 3: softmax, subtracting the row max for stability
      let sum = 0;
      for (let t2 = 0; t2 <= t; ++t2) {
        row[t2] = Math.exp(row[t2] - max);
        sum += row[t2];
      }
      // pass 4: weighted sum of values into this head's columns of concat
      for (let i = 0; i < HS; ++i) {
        let acc = 0;
        for (let t2 = 0; t2 <= t; ++t2) acc += row[t2] * v[t2 * C + o + i];
        concat[t * C + o + i] = acc / sum;
      }
    }
  }
  // pass 5: output projection
  return matmul(concat, wo.data, T, C, C);
}

export async function create(inputs) {
  return { runSync: () => forward(inputs), run: async () => forward(inputs), dispose() {} };
}
