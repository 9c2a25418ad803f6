// Which (query, key) pairs are masked. Deciding that is bookkeeping, not arithmetic, so every
// forward implementation shares it; it has tests of its own ([mask]).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "attention.hpp"

namespace attn {

// The mask as a rule, evaluated on demand: the forward-only path never stores the T×Tk matrix.
struct MaskRule {
    MaskKind kind = MaskKind::Causal;
    int Tk = 0;
    int window = 1;
    int prefix = 0;
    std::vector<std::uint8_t> custom;   // (T, Tk) for Custom
    std::vector<std::uint8_t> padding;  // Tk entries or empty

    static MaskRule from(const Config& config, int Tk);

    bool masked(int i, int j) const {
        if (!padding.empty() && padding[j]) return true;
        switch (kind) {
            case MaskKind::None: return false;
            case MaskKind::Causal: return j > i;
            case MaskKind::Window: return j > i || j <= i - window;
            case MaskKind::Prefix: return j > std::max(i, prefix - 1);
            case MaskKind::Custom: return custom[std::size_t(i) * Tk + j] != 0;
        }
        return false;
    }

    // Keys outside [first_visible(i), last_visible(i)] are masked for query i; inside, `masked`
    // decides (custom masks and padding can hide more).
    int first_visible(int i) const { return kind == MaskKind::Window ? std::max(0, i - window + 1) : 0; }
    int last_visible(int i) const {
        switch (kind) {
            case MaskKind::Causal:
            case MaskKind::Window: return std::min(i, Tk - 1);
            case MaskKind::Prefix: return std::min(std::max(i, prefix - 1), Tk - 1);
            default: return Tk - 1;
        }
    }
    // True when [first_visible, last_visible] is the whole story (no per-entry check needed).
    bool is_band() const { return padding.empty() && kind != MaskKind::Custom; }

    // True when no query of [i0, i1) may see any key of [j0, j1), whatever hides them (band,
    // padding, custom cells). A band answers in a step per row; only visible-looking keys are read.
    bool hides_all(int i0, int i1, int j0, int j1) const {
        for (int i = i0; i < i1; ++i) {
            const int hi = std::min(j1, last_visible(i) + 1);
            for (int j = std::max(j0, first_visible(i)); j < hi; ++j)
                if (!masked(i, j)) return false;
        }
        return true;
    }
};

// (T, Tk), 1 = query i may not see key j. `config` must have passed `validate`.
std::vector<std::uint8_t> build_mask(const Config& config, int T, int Tk);

}  // namespace attn
