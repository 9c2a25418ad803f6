// Packing a matrix into strips of columns, the layout the packed matrix products read
// (simd_packed_gemm.hpp, and its plain-loop twin in scalar_kernels.hpp). Bookkeeping only: the
// same code serves every build.
//
// Layout of B (K rows × N columns) packed with strip width S: strip s holds columns
// [s·S, s·S + S), k-major, S floats per row: B(k, s·S + c) lives at dst[s·strip_stride + k·S + c].
// Columns past N are zeros, so a kernel can always compute S columns and keep the ones it needs.
#pragma once

#include <algorithm>
#include <cstddef>

namespace attn {

// dst ← b, with b (K, N) row-major with leading dimension ldb; strip_stride ≥ K·S.
template <int S>
inline void pack_strips(const float* b, int ldb, int K, int N, float* dst, std::size_t strip_stride) {
    for (int j0 = 0, s = 0; j0 < N; j0 += S, ++s) {
        float* strip = dst + s * strip_stride;
        const int cols = std::min(S, N - j0);
        for (int k = 0; k < K; ++k) {
            const float* src = b + std::size_t(k) * ldb + j0;
            float* row = strip + std::size_t(k) * S;
            if (cols == S) {
                // A copy of constant length compiles to a few vector moves; std::copy of `cols`
                // floats was a call to memcpy (and std::fill one to memset) per row of a strip:
                // in WebAssembly, some 200 000 calls per forward at (1024, 512, 8).
                for (int c = 0; c < S; ++c) row[c] = src[c];
            } else {
                std::copy(src, src + cols, row);
                std::fill(row + cols, row + S, 0.0f);
            }
        }
    }
}

// dst ← bᵀ packed (K rows × N columns, strip_stride = K·S), from b (N, K) row-major with leading
// dimension ldb: Kᵀ of one head is packed straight from the rows of K.
template <int S>
inline void pack_transposed_strips(const float* b, int ldb, int N, int K, float* dst) {
    for (int j0 = 0, s = 0; j0 < N; j0 += S, ++s) {
        float* strip = dst + std::size_t(s) * K * S;
        const int cols = std::min(S, N - j0);
        for (int c = 0; c < S; ++c) {
            const float* src = b + std::size_t(j0 + c) * ldb;
            for (int k = 0; k < K; ++k) strip[std::size_t(k) * S + c] = c < cols ? src[k] : 0.0f;
        }
    }
}

// Floats needed to pack a (K, N) matrix with strip width S.
template <int S>
inline std::size_t packed_size(int K, int N) {
    return std::size_t(K) * S * ((N + S - 1) / S);
}

}  // namespace attn
