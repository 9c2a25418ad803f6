// Pieces both forward implementations share: sizing the result and moving head slices in and out
// of the (T, C) matrices. Neither does arithmetic, so sharing them keeps the two implementations
// independent where it matters.
#pragma once

#include "attention.hpp"

namespace attn::detail {

// Sizes every matrix of `result` for `problem` (reusing storage) and copies X and the weights in.
void shape_result(const Problem& problem, Result& result);

// dst (T, HS) = src[:, h·HS : (h+1)·HS]
void copy_head_columns(const Matrix& src, int h, Matrix& dst);

// dst[:, h·HS : (h+1)·HS] = src (T, HS)    — the "concat" of multi-head attention
void paste_head_columns(const Matrix& src, int h, Matrix& dst);

// True where token i may not attend to token j.
inline bool is_masked(MaskKind mask, int i, int j) { return mask == MaskKind::Causal && j > i; }

}  // namespace attn::detail
