// ALiBi (Press, Smith & Lewis, "Train Short, Test Long", 2022): no positions in X; instead each
// head adds a linear penalty for distance to its scores, bias_h(i, j) = −m_h·|i − j|.
// Under a causal mask (the paper's setting) every visible key has j ≤ i and this is the paper's
// −m_h·(i − j); for keys after the query (mask none, prefix, custom) the distance counts the same
// either way, as bidirectional ALiBi does, so that no key is favoured for lying in the future.
#pragma once

#include <cstdlib>
#include <vector>

namespace attn {

// The slopes m_h of the paper's reference code (ofirpress/attention_with_linear_biases):
// for NH a power of two, m_h = 2^(−8h/NH), h = 1 … NH (a geometric sequence starting at
// 2^(−8/NH)); otherwise the slopes of the closest smaller power of two, n, followed by every other
// slope of 2n (the odd-numbered ones: 2^(−8(2k−1)/(2n))) until there are NH.
std::vector<float> alibi_slopes(int NH);

// The bias of query i for key j with slope m (float32, as the scores are).
inline float alibi_bias(float slope, int i, int j) {
    return -slope * static_cast<float>(std::abs(i - j));
}

}  // namespace attn
