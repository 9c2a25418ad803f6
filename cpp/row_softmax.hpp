// The softmax of one row of logits, written once for the whole core:
//
//   a_j = e^(z_j − shift) / Σ_k e^(z_k − shift)     shift = max_k z_k (stable), or 0 (naive)
//
// Every softmax over a whole row calls it: the reference and SIMD forward passes (over keys, and
// over queries a column at a time), the incremental decode, the trainer's attention and
// cross-entropy, the loaded models. The forward-only path's online softmax meets a row a tile at
// a time with a running max and sum: a different algorithm, kept in forward_output_only.cpp.
//
// Two variants: the scalar one (std::exp, the sum in key order, a division per weight), and in
// SIMD builds attn::simd::softmax_row (the vectorised exp, a multiplication by 1/Σ). The trainer
// uses the scalar one in every build: its checkpoints are reproduced byte for byte.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

// What a row's softmax leaves besides its weights (the page shows both).
struct RowSoftmax {
    float max;  // max_j z_j; −∞ when every key is masked with −∞
    float sum;  // Σ_j e^(z_j − shift); 0 when every key is masked with −∞
};

struct SoftmaxOptions {
    bool naive = false;     // shift 0: e^z / Σ e^z, which overflows to ∞/∞ = NaN for large z
    float* exps = nullptr;  // when given (n floats): receives e^(z − shift), before the division
};

// weights[0, n) = softmax(z[0, n)); weights may be z itself. Masked keys hold z = −∞ and get
// weight exactly 0; a row whose every key is −∞ gets all-zero weights, not 0/0.
inline RowSoftmax softmax_row(const float* z, float* weights, int n, SoftmaxOptions options = {}) {
    constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();
    // pass 1: the row max, over the visible keys (−∞ never wins)
    float max = kMinusInfinity;
    for (int j = 0; j < n; ++j) max = std::max(max, z[j]);
    if (max == kMinusInfinity) {
        std::fill(weights, weights + n, 0.0f);
        if (options.exps) std::fill(options.exps, options.exps + n, 0.0f);
        return {max, 0.0f};
    }
    // pass 2: e^(z − shift), summed in key order; e^(−∞) = 0 without a call to exp
    const float shift = options.naive ? 0.0f : max;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
        weights[j] = z[j] == kMinusInfinity ? 0.0f : std::exp(z[j] - shift);
        sum += weights[j];
    }
    if (options.exps) std::copy(weights, weights + n, options.exps);
    // pass 3: normalise
    for (int j = 0; j < n; ++j) weights[j] /= sum;
    return {max, sum};
}

}  // namespace attn

#if ATTN_HAVE_SIMD
#include "simd_kernels.hpp"

namespace attn::simd {

// The same softmax over batches: the max and the exps of simd_kernels.hpp, then one
// multiplication by 1/Σ per weight.
inline RowSoftmax softmax_row(const float* z, float* weights, int n, SoftmaxOptions options = {}) {
    const float max = row_max(z, n);
    if (max == -std::numeric_limits<float>::infinity()) {
        std::fill(weights, weights + n, 0.0f);
        if (options.exps) std::fill(options.exps, options.exps + n, 0.0f);
        return {max, 0.0f};
    }
    // (the stable form's exponents are all ≤ 0: the faster exp applies)
    const float sum = options.naive ? exp_shifted(z, 0.0f, weights, n) : exp_shifted<true>(z, max, weights, n);
    if (options.exps) std::copy(weights, weights + n, options.exps);
    scale_row(weights, n, 1.0f / sum);
    return {max, sum};
}

}  // namespace attn::simd
#endif
