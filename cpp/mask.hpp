// Which (query, key) pairs are masked. Building the mask is bookkeeping, not arithmetic, so both
// forward implementations share it; it has tests of its own ([mask]).
#pragma once

#include <cstdint>
#include <vector>

#include "attention.hpp"

namespace attn {

// (T, Tk), 1 = query i may not see key j. `config` must have passed `validate`.
std::vector<std::uint8_t> build_mask(const Config& config, int T, int Tk);

}  // namespace attn
