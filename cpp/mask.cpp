#include "mask.hpp"

namespace attn {

MaskRule MaskRule::from(const Config& c, int Tk) {
    MaskRule rule;
    rule.kind = c.mask;
    rule.Tk = Tk;
    rule.window = c.window;
    rule.prefix = c.prefix;
    if (c.mask == MaskKind::Custom) rule.custom = c.custom_mask;
    rule.padding = c.padding;
    return rule;
}

std::vector<std::uint8_t> build_mask(const Config& c, int T, int Tk) {
    const MaskRule rule = MaskRule::from(c, Tk);
    std::vector<std::uint8_t> mask(std::size_t(T) * Tk);
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < Tk; ++j) mask[std::size_t(i) * Tk + j] = rule.masked(i, j);
    return mask;
}

}  // namespace attn
