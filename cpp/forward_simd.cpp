// The xsimd implementation of the forward pass, used by default. Same passes as
// forward_reference.cpp; the differences are only in how the arithmetic is scheduled:
// register-blocked matrix products over `batch<float>` with scalar tails, a vectorised exp, and
// causal-aware loops. Tested against the reference for shapes that are not multiples of the
// batch width.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention.hpp"
#include "forward_common.hpp"

#if ATTN_HAVE_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace attn {

#if ATTN_HAVE_SIMD
namespace {

using batch = xsimd::batch<float>;
constexpr int W = static_cast<int>(batch::size);

// out (M, N) = a (M, K) · b (K, N), all row-major with leading dimensions lda, ldb, ldo.
// When `row_k_end` is given, a(i, k) is known to be 0 for k ≥ row_k_end[i] (attention weights of
// masked keys), so a row block stops at the largest of its rows' ends: with a causal mask, no
// work above the diagonal.
//
// The micro-kernel keeps a 4-row × 2-batch tile of `out` in registers and streams one row of b
// per k step: each b load is reused by four rows, each broadcast of a by two batches.
void gemm(const float* a, int lda, const float* b, int ldb, float* out, int ldo, int M, int K,
          int N, const int* row_k_end = nullptr) {
    constexpr int R = 4;
    int i = 0;
    for (; i + R <= M; i += R) {
        const int k_end = row_k_end ? *std::max_element(row_k_end + i, row_k_end + i + R) : K;
        const float* a0 = a + std::size_t(i) * lda;
        const float* a1 = a0 + lda;
        const float* a2 = a1 + lda;
        const float* a3 = a2 + lda;
        float* o0 = out + std::size_t(i) * ldo;
        float* o1 = o0 + ldo;
        float* o2 = o1 + ldo;
        float* o3 = o2 + ldo;
        int j = 0;
        for (; j + 2 * W <= N; j += 2 * W) {
            batch c00(0.0f), c01(0.0f), c10(0.0f), c11(0.0f);
            batch c20(0.0f), c21(0.0f), c30(0.0f), c31(0.0f);
            for (int k = 0; k < k_end; ++k) {
                const float* b_k = b + std::size_t(k) * ldb + j;
                const batch b0 = batch::load_unaligned(b_k);
                const batch b1 = batch::load_unaligned(b_k + W);
                const batch x0(a0[k]), x1(a1[k]), x2(a2[k]), x3(a3[k]);
                c00 = xsimd::fma(x0, b0, c00);
                c01 = xsimd::fma(x0, b1, c01);
                c10 = xsimd::fma(x1, b0, c10);
                c11 = xsimd::fma(x1, b1, c11);
                c20 = xsimd::fma(x2, b0, c20);
                c21 = xsimd::fma(x2, b1, c21);
                c30 = xsimd::fma(x3, b0, c30);
                c31 = xsimd::fma(x3, b1, c31);
            }
            c00.store_unaligned(o0 + j);
            c01.store_unaligned(o0 + j + W);
            c10.store_unaligned(o1 + j);
            c11.store_unaligned(o1 + j + W);
            c20.store_unaligned(o2 + j);
            c21.store_unaligned(o2 + j + W);
            c30.store_unaligned(o3 + j);
            c31.store_unaligned(o3 + j + W);
        }
        for (; j + W <= N; j += W) {
            batch c0(0.0f), c1(0.0f), c2(0.0f), c3(0.0f);
            for (int k = 0; k < k_end; ++k) {
                const batch b0 = batch::load_unaligned(b + std::size_t(k) * ldb + j);
                c0 = xsimd::fma(batch(a0[k]), b0, c0);
                c1 = xsimd::fma(batch(a1[k]), b0, c1);
                c2 = xsimd::fma(batch(a2[k]), b0, c2);
                c3 = xsimd::fma(batch(a3[k]), b0, c3);
            }
            c0.store_unaligned(o0 + j);
            c1.store_unaligned(o1 + j);
            c2.store_unaligned(o2 + j);
            c3.store_unaligned(o3 + j);
        }
        // scalar tail: the last N mod W columns
        for (; j < N; ++j) {
            float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
            for (int k = 0; k < k_end; ++k) {
                const float b_kj = b[std::size_t(k) * ldb + j];
                s0 += a0[k] * b_kj;
                s1 += a1[k] * b_kj;
                s2 += a2[k] * b_kj;
                s3 += a3[k] * b_kj;
            }
            o0[j] = s0;
            o1[j] = s1;
            o2[j] = s2;
            o3[j] = s3;
        }
    }
    // remaining rows (M mod 4), one at a time
    for (; i < M; ++i) {
        const int k_end = row_k_end ? row_k_end[i] : K;
        const float* a_i = a + std::size_t(i) * lda;
        float* o_i = out + std::size_t(i) * ldo;
        int j = 0;
        for (; j + W <= N; j += W) {
            batch c(0.0f);
            for (int k = 0; k < k_end; ++k) {
                c = xsimd::fma(batch(a_i[k]), batch::load_unaligned(b + std::size_t(k) * ldb + j), c);
            }
            c.store_unaligned(o_i + j);
        }
        for (; j < N; ++j) {
            float s = 0.0f;
            for (int k = 0; k < k_end; ++k) s += a_i[k] * b[std::size_t(k) * ldb + j];
            o_i[j] = s;
        }
    }
}

void matmul(const Matrix& a, const Matrix& b, Matrix& out, const int* row_k_end = nullptr) {
    gemm(a.data.data(), a.cols, b.data.data(), b.cols, out.data.data(), out.cols, a.rows, a.cols,
         b.cols, row_k_end);
}

void transpose(const Matrix& m, Matrix& out) {
    out.resize(m.cols, m.rows);
    for (int r = 0; r < m.rows; ++r) {
        for (int c = 0; c < m.cols; ++c) out(c, r) = m(r, c);
    }
}

// In place: row[0, n) ← row[0, n) · factor
void scale_row(float* row, int n, float factor) {
    const batch f(factor);
    int j = 0;
    for (; j + W <= n; j += W) (batch::load_unaligned(row + j) * f).store_unaligned(row + j);
    for (; j < n; ++j) row[j] *= factor;
}

float row_max(const float* row, int n) {
    float best = -std::numeric_limits<float>::infinity();
    int j = 0;
    if (n >= W) {
        batch m = batch::load_unaligned(row);
        for (j = W; j + W <= n; j += W) m = xsimd::max(m, batch::load_unaligned(row + j));
        alignas(64) float lanes[W];
        m.store_aligned(lanes);
        for (float lane : lanes) best = std::max(best, lane);
    }
    for (; j < n; ++j) best = std::max(best, row[j]);
    return best;
}

// out[0, n) ← exp(in[0, n) − max); returns their sum.
float exp_shifted(const float* in, float max, float* out, int n) {
    const batch shift(max);
    batch sums(0.0f);
    int j = 0;
    for (; j + W <= n; j += W) {
        const batch e = xsimd::exp(batch::load_unaligned(in + j) - shift);
        e.store_unaligned(out + j);
        sums += e;
    }
    float sum = xsimd::hadd(sums);
    for (; j < n; ++j) {
        out[j] = std::exp(in[j] - max);
        sum += out[j];
    }
    return sum;
}

}  // namespace

void forward_simd(const Problem& p, Result& r) {
    detail::shape_result(p, r);
    const int T = p.T, Tk = p.Tk, HS = p.HS();
    const float minus_infinity = -std::numeric_limits<float>::infinity();
    const float score_scale = p.scale ? 1.0f / std::sqrt(static_cast<float>(HS)) : 1.0f;
    const float inverse_temperature = 1.0f / p.temperature;
    const Matrix& xs = p.xs.rows > 0 ? p.xs : p.x;

    // pass 1: projections                                          (T, C), (Tk, KVH·HS) ×2
    matmul(p.x, p.wq, r.q);
    matmul(xs, p.wk, r.k);
    matmul(xs, p.wv, r.v);

    Matrix k_transposed;             // (HS, Tk): K_hᵀ, so that scores are one row-major product
    std::vector<int> row_k_end(T);   // per query row: one past its last non-zero weight
    for (int h = 0; h < p.NH; ++h) {
        HeadResult& head = r.heads[h];
        // pass 2: head slices
        const int g = p.kv_head_of(h);
        detail::copy_head_columns(r.q, h, head.q);
        detail::copy_head_columns(r.k, g, head.k);
        detail::copy_head_columns(r.v, g, head.v);

        // pass 3: QK_hᵀ for every pair (the page shows the unmasked scores too). `masked`
        // holds the raw dot products until pass 4 rewrites it row by row.
        transpose(head.k, k_transposed);
        matmul(head.q, k_transposed, head.masked);

        for (int i = 0; i < T; ++i) {
            float* s_i = head.scores.row(i);
            float* m_i = head.masked.row(i);
            float* a_i = head.weights.row(i);
            // pass 3 (end): scaled scores; pass 4: the mask, after or before the scaling
            std::copy(m_i, m_i + Tk, s_i);
            scale_row(s_i, Tk, score_scale);
            for (int j = 0; j < Tk; ++j) {
                const float m = detail::mask_term(p, i, j);
                m_i[j] = p.mask_before_scale ? (m_i[j] + m) * score_scale : s_i[j] + m;
            }
            // pass 5: softmax of z = masked / τ (stable unless naive was asked for)
            if (detail::row_fully_masked(p, i)) {
                std::fill(a_i, a_i + Tk, 0.0f);
                head.row_max[i] = minus_infinity;
                head.row_sum[i] = 0.0f;
                head.entropy[i] = 0.0f;
                row_k_end[i] = 0;
                continue;
            }
            std::copy(m_i, m_i + Tk, a_i);
            if (inverse_temperature != 1.0f) scale_row(a_i, Tk, inverse_temperature);
            const float z_max = row_max(a_i, Tk);
            const float sum = exp_shifted(a_i, p.naive_softmax ? 0.0f : z_max, a_i, Tk);
            scale_row(a_i, Tk, 1.0f / sum);
            head.row_max[i] = z_max;
            head.row_sum[i] = sum;
            head.entropy[i] = detail::entropy_of(a_i, Tk);
            int end = Tk;
            while (end > 0 && a_i[end - 1] == 0.0f) --end;
            row_k_end[i] = end;
        }
        // pass 6: O_h = A_h·V_h, skipping the zero weights of masked keys           (T, HS)
        matmul(head.weights, head.v, head.context, row_k_end.data());
        // pass 7: concat
        detail::paste_head_columns(head.context, h, r.concat);
    }
    // pass 8: output projection                                                  (T, C)
    matmul(r.concat, p.wo, r.output);
}

std::string simd_arch_name() { return xsimd::default_arch::name(); }

#else  // a build without SIMD: the reference is the only implementation

void forward_simd(const Problem& p, Result& r) { forward_reference(p, r); }

std::string simd_arch_name() { return "scalar"; }

#endif

}  // namespace attn
