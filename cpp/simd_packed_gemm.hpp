// Matrix products over a *packed* right-hand side, for the large products of the forward passes.
//
// Why packing: the plain register-blocked kernel (simd_kernels.hpp) streams rows of b with stride
// ldb. When b is wider than the caches (C = 768: 2.4 MB) or its rows are 4 KiB apart (Kᵀ of a
// 1024-token sequence) every 4-row block of a re-reads b from L3, or the rows alias to the same
// L1 sets, and the kernel runs at half speed. Packed, b is cut into strips of kStrip columns,
// each strip stored k-major and contiguous (strip s, row k at s·strip_stride + k·kStrip), so the
// micro-kernel reads one sequential stream that stays in L1 while it is reused by every row.
// (Loads are unaligned: std::vector only promises 16 bytes, an AVX batch wants 32; on the CPUs we
// target an unaligned load of aligned data costs the same.)
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "packing.hpp"
#include "simd_kernels.hpp"

namespace attn::simd {

constexpr int kStrip = 2 * W;  // columns per strip (packing.hpp): the micro-kernel's two batches

namespace packed_detail {

// Stores the first `cols` (≤ kStrip) columns of one output row, from two batches.
inline void store_columns(float* o, batch c0, batch c1, int cols) {
    if (cols == kStrip) {
        c0.store_unaligned(o);
        c1.store_unaligned(o + W);
        return;
    }
    alignas(64) float lanes[kStrip];
    c0.store_aligned(lanes);
    c1.store_aligned(lanes + W);
    std::copy(lanes, lanes + cols, o);
}

template <bool Accumulate>
inline batch start(const float* o, int cols, int lane0) {
    if (!Accumulate) return batch(0.0f);
    if (cols >= lane0 + W) return batch::load_unaligned(o + lane0);
    alignas(64) float lanes[W] = {};
    for (int c = lane0; c < cols; ++c) lanes[c - lane0] = o[c];
    return batch::load_aligned(lanes);
}

}  // namespace packed_detail

// out (M, N) = a (M, K) · B — or += when Accumulate — with B packed in strips of kStrip (its rows
// [0, K) of each strip). A Block4x2 (4 rows × one strip) lives in registers: per k step, two
// contiguous loads of B and four broadcasts of a feed eight multiply-adds.
//
// Loop order: blocks of kRowBlock rows of a (64 × K floats, kept in L2), then strips (one strip,
// K × kStrip floats, kept in L1 while the block's rows pass over it), then 4-row groups.
constexpr int kRowBlock = 64;

template <bool Accumulate = false>
inline void gemm_packed(const float* a, int lda, const float* bp, std::size_t strip_stride,
                        float* out, int ldo, int M, int K, int N) {
    using packed_detail::start;
    using packed_detail::store_columns;
    for (int i0 = 0; i0 < M; i0 += kRowBlock) {
        const int i_end = std::min(M, i0 + kRowBlock);
        for (int j0 = 0, s = 0; j0 < N; j0 += kStrip, ++s) {
            const float* strip = bp + s * strip_stride;
            const int cols = std::min(kStrip, N - j0);
            int i = i0;
            for (; i + 4 <= i_end; i += 4) {
                const float* a0 = a + std::size_t(i) * lda;
                const float* a1 = a0 + lda;
                const float* a2 = a1 + lda;
                const float* a3 = a2 + lda;
                float* o0 = out + std::size_t(i) * ldo + j0;
                float* o1 = o0 + ldo;
                float* o2 = o1 + ldo;
                float* o3 = o2 + ldo;
                Block4x2 block{start<Accumulate>(o0, cols, 0), start<Accumulate>(o0, cols, W),
                               start<Accumulate>(o1, cols, 0), start<Accumulate>(o1, cols, W),
                               start<Accumulate>(o2, cols, 0), start<Accumulate>(o2, cols, W),
                               start<Accumulate>(o3, cols, 0), start<Accumulate>(o3, cols, W)};
                const float* b_k = strip;
                for (int k = 0; k < K; ++k, b_k += kStrip) {
                    block.update(a0[k], a1[k], a2[k], a3[k], batch::load_unaligned(b_k), batch::load_unaligned(b_k + W));
                }
                store_columns(o0, block.c00, block.c01, cols);
                store_columns(o1, block.c10, block.c11, cols);
                store_columns(o2, block.c20, block.c21, cols);
                store_columns(o3, block.c30, block.c31, cols);
            }
            for (; i < i_end; ++i) {  // the block's last rows, when fewer than 4
                const float* a_i = a + std::size_t(i) * lda;
                float* o_i = out + std::size_t(i) * ldo + j0;
                batch c0 = start<Accumulate>(o_i, cols, 0), c1 = start<Accumulate>(o_i, cols, W);
                const float* b_k = strip;
                for (int k = 0; k < K; ++k, b_k += kStrip) {
                    const batch x(a_i[k]);
                    c0 = xsimd::fma(x, batch::load_unaligned(b_k), c0);
                    c1 = xsimd::fma(x, batch::load_unaligned(b_k + W), c1);
                }
                store_columns(o_i, c0, c1, cols);
            }
        }
    }
}

// Floats of scratch space that gemm_blocked needs: one packed panel of b.
constexpr int kPanelK = 256;  // rows of b per panel
constexpr int kPanelN = 256;  // columns of b per panel: 256×256 floats = 256 KiB, within L2
constexpr std::size_t kPanelFloats = std::size_t(kPanelK) * kPanelN;

// out (M, N) = a (M, K) · b (K, N), or += when Accumulate, for products too large for the plain
// kernel to run from cache: b is packed panel by panel (kPanelK × kPanelN) into `panel`
// (kPanelFloats floats), and every row of a is multiplied with each panel while
// it is hot. Packing costs K·N copies against 2·M·K·N flops.
template <bool Accumulate = false>
inline void gemm_blocked(const float* a, int lda, const float* b, int ldb, float* out, int ldo,
                         int M, int K, int N, float* panel) {
    for (int n0 = 0; n0 < N; n0 += kPanelN) {
        const int n = std::min(kPanelN, N - n0);
        for (int k0 = 0; k0 < K; k0 += kPanelK) {
            const int k = std::min(kPanelK, K - k0);
            pack_strips<kStrip>(b + std::size_t(k0) * ldb + n0, ldb, k, n, panel, std::size_t(k) * kStrip);
            const float* a_k = a + k0;
            float* o = out + n0;
            if (Accumulate || k0 > 0) {
                gemm_packed<true>(a_k, lda, panel, std::size_t(k) * kStrip, o, ldo, M, k, n);
            } else {
                gemm_packed<false>(a_k, lda, panel, std::size_t(k) * kStrip, o, ldo, M, k, n);
            }
        }
    }
}

// The panel gemm_blocked packs into: one per thread, allocated on first use, reused after.
inline float* panel_scratch() {
    thread_local std::vector<float> panel(kPanelFloats);
    return panel.data();
}

// out = a · b (or += when Accumulate) with whichever kernel suits the size: the plain one while b
// is small enough to stay in cache or there are too few rows to pay for packing, else blocked.
template <bool Accumulate = false>
inline void gemm_auto(const float* a, int lda, const float* b, int ldb, float* out, int ldo, int M,
                      int K, int N) {
    if (M >= 64 && std::size_t(K) * N >= std::size_t(128) * 128) {
        gemm_blocked<Accumulate>(a, lda, b, ldb, out, ldo, M, K, N, panel_scratch());
    } else {
        gemm<Accumulate>(a, lda, b, ldb, out, ldo, M, K, N);
    }
}

inline void matmul_auto(const Matrix& a, const Matrix& b, Matrix& out) {
    gemm_auto(a.data.data(), a.cols, b.data.data(), b.cols, out.data.data(), out.cols, a.rows,
              a.cols, b.cols);
}

}  // namespace attn::simd
