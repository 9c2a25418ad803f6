// Pieces both forward implementations share: sizing the result, moving head slices in and out of
// the wide matrices, and the per-row softmax statistics. None of them is the arithmetic under
// test, so sharing them keeps the two implementations independent where it matters.
#pragma once

#include "attention.hpp"

namespace attn::detail {

// Sizes every matrix of `result` for `problem` (reusing storage) and copies in X, the source, the
// weights and the mask.
void shape_result(const Problem& problem, Result& result);

// Adds a projection's bias (1, n) to each row of m (rows, n), or to one row of n values; nothing
// when the bias is absent (null).
void add_bias(Matrix& m, const Matrix* bias);
void add_bias(float* row, const Matrix* bias);

// dst (rows, HS) = src[:, h·HS : (h+1)·HS]   with HS = dst.cols
void copy_head_columns(const Matrix& src, int h, Matrix& dst);

// dst[:, h·HS : (h+1)·HS] = src (rows, HS)    — the "concat" of multi-head attention
void paste_head_columns(const Matrix& src, int h, Matrix& dst);

// The value M adds to a score: 0 where allowed, the fill value where masked.
inline float mask_term(const Problem& p, int i, int j) {
    return p.mask[std::size_t(i) * p.Tk + j] ? p.mask_fill : 0.0f;
}

// Head h's ALiBi bias matrix, bias(i, j) = −m_h·|i − j|        (T, Tk)
void fill_alibi_bias(const Problem& problem, int h, Matrix& bias);

// Rotates the rows of a head's q or k by RoPE (row t at position t).
void rotate_head(const Problem& problem, Matrix& q_or_k);

// −Σ a·ln a over a row of weights (0·ln 0 = 0), in nats.
float entropy_of(const float* weights, int n);

// The softmax over queries (SoftmaxAxis::Queries) of a head whose `masked` is filled: each key
// column of z = masked/τ is normalised (its max subtracted unless naive); a column every query
// masks with −∞ is all zeros. Fills exps, weights and the row statistics.
void softmax_over_queries(const Problem& p, HeadResult& head);

// weight_sum(i) = Σ_j a_ij and later_weight(i) = Σ_{j>i} a_ij, for every row.
void fill_weight_sums(HeadResult& head);

}  // namespace attn::detail
