// The trainer's random numbers: integer arithmetic only (splitmix64), so a seed gives the same
// initial weights and the same task sequences natively and in every browser.
#pragma once

#include <cstdint>

namespace attn::train {

class Random {
public:
    explicit Random(std::uint64_t seed)
        : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    // A whole number in [0, n), n ≥ 1 (the slight modulo bias is irrelevant at these sizes).
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

    // Uniform in [−bound, bound): 24 random bits, scaled exactly.
    float uniform(float bound) {
        const float unit = static_cast<float>(next() >> 40) * (1.0f / 16777216.0f);  // [0, 1)
        return (2.0f * unit - 1.0f) * bound;
    }

private:
    std::uint64_t state_;
};

}  // namespace attn::train
