#include "mask.hpp"

#include <algorithm>

namespace attn {
namespace {

bool masked_by_kind(const Config& c, int i, int j, int Tk) {
    switch (c.mask) {
        case MaskKind::None: return false;
        case MaskKind::Causal: return j > i;
        case MaskKind::Window: return j > i || j <= i - c.window;
        case MaskKind::Prefix: return j > std::max(i, c.prefix - 1);
        case MaskKind::Custom: return c.custom_mask[std::size_t(i) * Tk + j] != 0;
    }
    return false;
}

}  // namespace

std::vector<std::uint8_t> build_mask(const Config& c, int T, int Tk) {
    std::vector<std::uint8_t> mask(std::size_t(T) * Tk);
    for (int i = 0; i < T; ++i) {
        for (int j = 0; j < Tk; ++j) {
            const bool padding = !c.padding.empty() && c.padding[j] != 0;
            mask[std::size_t(i) * Tk + j] = masked_by_kind(c, i, j, Tk) || padding;
        }
    }
    return mask;
}

}  // namespace attn
