#include "weights.hpp"

#include <cmath>

namespace attn {
namespace {

// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose output depends only on integer
// arithmetic, hence identical on every platform.
struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [−1, 1) on a grid of 2⁻²³: the top 24 bits scaled by a power of two, then
    // shifted by an exact subtraction. No rounding happens, so every platform agrees.
    float next_signed_unit() {
        const auto top24 = static_cast<std::uint32_t>(next() >> 40);
        return static_cast<float>(top24) * (1.0f / 8388608.0f) - 1.0f;
    }
};

// FNV-1a over the token's UTF-8 bytes: a stable 64-bit name for a string.
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t hash = 0xCBF29CE484222325ull;
    for (unsigned char byte : text) {
        hash ^= byte;
        hash *= 0x100000001B3ull;
    }
    return hash;
}

}  // namespace

Matrix identity(int n) {
    return identity_columns(n, n);
}

Matrix identity_columns(int rows, int cols) {
    Matrix m(rows, cols);
    for (int i = 0; i < rows && i < cols; ++i) m(i, i) = 1.0f;
    return m;
}

Matrix random_weights(int rows, int cols, std::uint32_t seed, WeightRole role) {
    // One stream per (seed, role); the odd multiplier spreads neighbouring seeds apart.
    SplitMix64 rng{(std::uint64_t(seed) << 2 | std::uint64_t(role)) * 0xD1B54A32D192ED03ull};
    // sqrt and division are exactly rounded in IEEE 754, so `bound` is the same everywhere.
    const float bound = 1.0f / std::sqrt(static_cast<float>(rows));
    // Drawn row by row over the full square width and cut, so that W_K of a grouped-query
    // model is the left part of W_K of the same model with all heads.
    Matrix m(rows, cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < rows; ++c) {
            const float w = rng.next_signed_unit() * bound;
            if (c < cols) m(r, c) = w;
        }
    }
    return m;
}

Matrix token_embeddings(const std::vector<std::string>& tokens, int C) {
    Matrix x(static_cast<int>(tokens.size()), C);
    for (int t = 0; t < x.rows; ++t) {
        SplitMix64 rng{fnv1a(tokens[t])};
        float* x_t = x.row(t);
        for (int c = 0; c < C; ++c) x_t[c] = rng.next_signed_unit();
    }
    return x;
}

}  // namespace attn
