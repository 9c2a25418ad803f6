// Plain-loop versions of the building blocks in simd_kernels.hpp, with the same names and
// signatures, for builds without SIMD (the wasm scalar build): the tiled forward-only pass is
// written once against either set.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "packing.hpp"
#include "row_softmax.hpp"

namespace attn::scalar {

template <bool Accumulate = false>
inline void gemm(const float* a, int lda, const float* b, int ldb, float* out, int ldo, int M,
                 int K, int N, const int* row_k_end = nullptr) {
    for (int i = 0; i < M; ++i) {
        const int k_end = row_k_end ? row_k_end[i] : K;
        float* o_i = out + std::size_t(i) * ldo;
        if (!Accumulate) std::fill(o_i, o_i + N, 0.0f);
        for (int k = 0; k < k_end; ++k) {
            const float a_ik = a[std::size_t(i) * lda + k];
            const float* b_k = b + std::size_t(k) * ldb;
            for (int j = 0; j < N; ++j) o_i[j] += a_ik * b_k[j];
        }
    }
}

inline void scale_row(float* row, int n, float factor) {
    for (int j = 0; j < n; ++j) row[j] *= factor;
}

inline float row_max(const float* row, int n) {
    float best = -std::numeric_limits<float>::infinity();
    for (int j = 0; j < n; ++j) best = std::max(best, row[j]);
    return best;
}

template <bool kMaxOfInputs = false>  // (only the SIMD version makes use of it)
inline float exp_shifted(const float* in, float max, float* out, int n) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
        out[j] = std::exp(in[j] - max);
        sum += out[j];
    }
    return sum;
}

// The one scalar softmax, under the name the SIMD build's kernels give theirs.
using attn::softmax_row;

constexpr int kStrip = 4;

// out (M, N) = a · B (or +=), B packed in strips of kStrip columns (packing.hpp).
template <bool Accumulate = false>
inline void gemm_packed(const float* a, int lda, const float* bp, std::size_t strip_stride,
                        float* out, int ldo, int M, int K, int N) {
    for (int i = 0; i < M; ++i) {
        const float* a_i = a + std::size_t(i) * lda;
        for (int j = 0; j < N; ++j) {
            const float* b_j = bp + (j / kStrip) * strip_stride + j % kStrip;
            float s = Accumulate ? out[std::size_t(i) * ldo + j] : 0.0f;
            for (int k = 0; k < K; ++k) s += a_i[k] * b_j[std::size_t(k) * kStrip];
            out[std::size_t(i) * ldo + j] = s;
        }
    }
}

// Without SIMD, packing would not pay: the plain loop is the only kernel.
template <bool Accumulate = false>
inline void gemm_auto(const float* a, int lda, const float* b, int ldb, float* out, int ldo, int M,
                      int K, int N) {
    gemm<Accumulate>(a, lda, b, ldb, out, ldo, M, K, N);
}

}  // namespace attn::scalar
