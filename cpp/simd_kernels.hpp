// The xsimd building blocks of the SIMD forward passes: a register-blocked matrix product, and
// vectorised row operations (scale, max, exp). Each has a full-batch loop and a scalar tail, so
// any size works. Only compiled where the build has SIMD (ATTN_HAVE_SIMD).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <xsimd/xsimd.hpp>

#include "matrix.hpp"

namespace attn::simd {

using batch = xsimd::batch<float>;
constexpr int W = static_cast<int>(batch::size);

// The register block of the matrix products (here and in simd_packed_gemm.hpp): 4 rows × 2
// batches of `out`. At each k it takes one row (b0, b1) of the right-hand side and one element of
// each of the block's four rows of a: each b load is reused by four rows, each broadcast of a by
// two batches.
struct Block4x2 {
    batch c00, c01, c10, c11, c20, c21, c30, c31;
    void update(float a0, float a1, float a2, float a3, batch b0, batch b1) {
        const batch x0(a0), x1(a1), x2(a2), x3(a3);
        c00 = xsimd::fma(x0, b0, c00);
        c01 = xsimd::fma(x0, b1, c01);
        c10 = xsimd::fma(x1, b0, c10);
        c11 = xsimd::fma(x1, b1, c11);
        c20 = xsimd::fma(x2, b0, c20);
        c21 = xsimd::fma(x2, b1, c21);
        c30 = xsimd::fma(x3, b0, c30);
        c31 = xsimd::fma(x3, b1, c31);
    }
};

// out (M, N) = a (M, K) · b (K, N) — or out += a · b when Accumulate — all row-major with leading dimensions lda, ldb, ldo.
// When `row_k_end` is given, a(i, k) is known to be 0 for k ≥ row_k_end[i] (attention weights of
// masked keys), so a row block stops at the largest of its rows' ends: with a causal mask, no
// work above the diagonal.
//
// The micro-kernel keeps a Block4x2 of `out` in registers and streams one row of b per k step.
template <bool Accumulate = false>
inline void gemm(const float* a, int lda, const float* b, int ldb, float* out, int ldo, int M,
                 int K, int N, const int* row_k_end = nullptr) {
    constexpr int R = 4;
    // The accumulators start from zero, or from what `out` holds when accumulating.
    auto start = [](const float* o) { return Accumulate ? batch::load_unaligned(o) : batch(0.0f); };
    auto start_scalar = [](float o) { return Accumulate ? o : 0.0f; };
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
            Block4x2 block{start(o0 + j), start(o0 + j + W), start(o1 + j), start(o1 + j + W),
                           start(o2 + j), start(o2 + j + W), start(o3 + j), start(o3 + j + W)};
            for (int k = 0; k < k_end; ++k) {
                const float* b_k = b + std::size_t(k) * ldb + j;
                block.update(a0[k], a1[k], a2[k], a3[k], batch::load_unaligned(b_k), batch::load_unaligned(b_k + W));
            }
            block.c00.store_unaligned(o0 + j);
            block.c01.store_unaligned(o0 + j + W);
            block.c10.store_unaligned(o1 + j);
            block.c11.store_unaligned(o1 + j + W);
            block.c20.store_unaligned(o2 + j);
            block.c21.store_unaligned(o2 + j + W);
            block.c30.store_unaligned(o3 + j);
            block.c31.store_unaligned(o3 + j + W);
        }
        for (; j + W <= N; j += W) {
            batch c0 = start(o0 + j), c1 = start(o1 + j), c2 = start(o2 + j), c3 = start(o3 + j);
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
            float s0 = start_scalar(o0[j]), s1 = start_scalar(o1[j]), s2 = start_scalar(o2[j]),
                  s3 = start_scalar(o3[j]);
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
            batch c = start(o_i + j);
            for (int k = 0; k < k_end; ++k) {
                c = xsimd::fma(batch(a_i[k]), batch::load_unaligned(b + std::size_t(k) * ldb + j), c);
            }
            c.store_unaligned(o_i + j);
        }
        for (; j < N; ++j) {
            float s = start_scalar(o_i[j]);
            for (int k = 0; k < k_end; ++k) s += a_i[k] * b[std::size_t(k) * ldb + j];
            o_i[j] = s;
        }
    }
}

inline void matmul(const Matrix& a, const Matrix& b, Matrix& out, const int* row_k_end = nullptr) {
    gemm(a.data.data(), a.cols, b.data.data(), b.cols, out.data.data(), out.cols, a.rows, a.cols,
         b.cols, row_k_end);
}

inline void transpose(const Matrix& m, Matrix& out) {
    out.resize(m.cols, m.rows);
    for (int r = 0; r < m.rows; ++r) {
        for (int c = 0; c < m.cols; ++c) out(c, r) = m(r, c);
    }
}

// In place: row[0, n) ← row[0, n) · factor
inline void scale_row(float* row, int n, float factor) {
    const batch f(factor);
    int j = 0;
    for (; j + W <= n; j += W) (batch::load_unaligned(row + j) * f).store_unaligned(row + j);
    for (; j < n; ++j) row[j] *= factor;
}

inline float row_max(const float* row, int n) {
    float best = -std::numeric_limits<float>::infinity();
    int j = 0;
    if (n >= W) {
        // Two running maxima: one would make every step wait for the previous max (a dependency
        // chain as long as the row), two halve it.
        batch m = batch::load_unaligned(row), m2 = m;
        for (j = W; j + 2 * W <= n; j += 2 * W) {
            m = xsimd::max(m, batch::load_unaligned(row + j));
            m2 = xsimd::max(m2, batch::load_unaligned(row + j + W));
        }
        for (; j + W <= n; j += W) m = xsimd::max(m, batch::load_unaligned(row + j));
        m = xsimd::max(m, m2);
        alignas(64) float lanes[W];
        m.store_aligned(lanes);
        for (float lane : lanes) best = std::max(best, lane);
    }
    for (; j < n; ++j) best = std::max(best, row[j]);
    return best;
}

// e^x for batches, in float32 to about 2 ulp (Cephes expf: x = n·ln 2 + r, |r| ≤ ln 2 / 2, e^r by
// a degree-7 polynomial, then the exponent n added to the bits).
//
// Why not xsimd::exp: compiled for WebAssembly through SSE, it rounds with _mm_cvtps_epi32, which
// Emscripten can only emulate lane by lane — about 30 cycles per element, more than the matrix
// products of a softmax row. Here n is rounded with the 1.5·2²³ trick and 2ⁿ is built with integer
// shifts, all single wasm SIMD instructions. 2ⁿ is applied as two factors 2^⌊n/2⌋·2^(n−⌊n/2⌋), so
// results overflow to +∞ and underflow through denormals to 0 exactly where float32 does (the
// naive softmax shows that overflow). e^−∞ = 0, e^+∞ = +∞, NaN stays NaN.
//
// The constants are read from a (non-const) table into registers once per row, not written as
// literals: V8 builds each v128 literal with about four instructions, and LLVM re-creates
// literals inside the loop instead of keeping them, which doubled the cost of the loop.
inline float exp_table[13] = {
    -104.0f, 89.0f,                 // e^−104 rounds to 0, e^89 overflows: clamping there is exact
    -87.0f,                         // below this e^x is near float32's smallest normal (x ≤ 0 case)
    12582912.0f,                    // 1.5·2²³: adding it rounds to an integer
    1.44269504088896341f,           // log2 e
    -0.693359375f, 2.12194440e-4f,  // −ln 2, split so that n·ln2_hi is exact
    1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f,
    1.6666665459e-1f, 5.0000001201e-1f};

struct ExpConstants {
    batch lo, hi, lo_normal, magic, log2e, ln2_hi, ln2_lo, p0, p1, p2, p3, p4, p5;
    ExpConstants()
        : lo(exp_table[0]), hi(exp_table[1]), lo_normal(exp_table[2]), magic(exp_table[3]),
          log2e(exp_table[4]), ln2_hi(exp_table[5]), ln2_lo(exp_table[6]), p0(exp_table[7]),
          p1(exp_table[8]), p2(exp_table[9]), p3(exp_table[10]), p4(exp_table[11]),
          p5(exp_table[12]) {}
};

// kNonPositive: the softmax's case, x = z − (row max) ≤ 0 (or NaN). Only the low end needs care
// then, and e^x below e^−87 (where float32 turns denormal) is taken as 0 — an absolute error under
// 2e-38 in weights that are divided by a sum ≥ 1 — so 2ⁿ is one factor: a fifth fewer operations.
template <bool kNonPositive = false>
inline batch exp_batch(batch x, const ExpConstants& c) {
    using ints = xsimd::batch<std::int32_t>;
    const batch lo = kNonPositive ? c.lo_normal : c.lo;
    const batch xc = kNonPositive ? xsimd::select(x < lo, lo, x)
                                  : xsimd::select(x < lo, lo, xsimd::select(x > c.hi, c.hi, x));
    const batch t = xsimd::fma(xc, c.log2e, c.magic);
    const batch n = t - c.magic;
    batch r = xsimd::fma(n, c.ln2_hi, xc);  // r = x − n·ln 2
    r = xsimd::fma(n, c.ln2_lo, r);
    batch p = xsimd::fma(c.p0, r, c.p1);
    p = xsimd::fma(p, r, c.p2);
    p = xsimd::fma(p, r, c.p3);
    p = xsimd::fma(p, r, c.p4);
    p = xsimd::fma(p, r, c.p5);
    p = xsimd::fma(p, r * r, r + batch(1.0f));
    const ints n_int = xsimd::bitwise_cast<ints>(t) - xsimd::bitwise_cast<ints>(c.magic);
    batch scaled;
    if constexpr (kNonPositive) {
        scaled = p * xsimd::bitwise_cast<batch>((n_int + ints(127)) << 23);  // n in [−126, 0]
    } else {
        const ints half = n_int >> 1;
        const batch scale_a = xsimd::bitwise_cast<batch>((half + ints(127)) << 23);
        const batch scale_b = xsimd::bitwise_cast<batch>((n_int - half + ints(127)) << 23);
        scaled = p * scale_a * scale_b;
    }
    return xsimd::select(x < lo, batch(0.0f), scaled);
}

inline batch exp_batch(batch x) {
    return exp_batch(x, ExpConstants());
}

// out[0, n) ← exp(in[0, n) − max); returns their sum. kMaxOfInputs: `max` is the largest of the
// inputs (the stable softmax), so the faster exp_batch<true> applies.
template <bool kMaxOfInputs = false>
inline float exp_shifted(const float* in, float max, float* out, int n) {
    const ExpConstants constants;
    const batch shift(max);
    batch sums(0.0f), sums2(0.0f);
    int j = 0;
    // Two independent batches per step: each exp is a long dependency chain, and V8 schedules
    // instructions little, so the interleaving is written out here.
    for (; j + 2 * W <= n; j += 2 * W) {
        const batch e = exp_batch<kMaxOfInputs>(batch::load_unaligned(in + j) - shift, constants);
        const batch e2 = exp_batch<kMaxOfInputs>(batch::load_unaligned(in + j + W) - shift, constants);
        e.store_unaligned(out + j);
        e2.store_unaligned(out + j + W);
        sums += e;
        sums2 += e2;
    }
    sums += sums2;
    for (; j + W <= n; j += W) {
        const batch e = exp_batch<kMaxOfInputs>(batch::load_unaligned(in + j) - shift, constants);
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

// Σ_j a_j·(z_j·z_scale − shift) over the entries with a_j > 0 (masked logits are −∞ with a = 0,
// and must not turn the sum into NaN). With a = softmax(z·z_scale) this gives the entropy without
// a logarithm per entry: ln a_j = z_j·z_scale − shift − ln S, so H = ln S − this sum.
inline float weighted_logit_sum(const float* a, const float* z, float z_scale, float shift, int n) {
    const batch scale(z_scale), offset(shift), zero(0.0f);
    batch sums(0.0f);
    int j = 0;
    for (; j + W <= n; j += W) {
        const batch a_j = batch::load_unaligned(a + j);
        const batch term = a_j * (batch::load_unaligned(z + j) * scale - offset);
        sums += xsimd::select(a_j > zero, term, zero);
    }
    float sum = xsimd::hadd(sums);
    for (; j < n; ++j) {
        if (a[j] > 0.0f) sum += a[j] * (z[j] * z_scale - shift);
    }
    return sum;
}

}  // namespace attn::simd
