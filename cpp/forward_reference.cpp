// The scalar reference: the lesson, written as loops. Every other implementation is tested
// against this one, so it favours being obviously right over being fast.
#include <cmath>
#include <limits>

#include "attention.hpp"
#include "forward_common.hpp"

namespace attn {
namespace {

// out (M, N) = a (M, K) · b (K, N)
void matmul(const Matrix& a, const Matrix& b, Matrix& out) {
    for (int i = 0; i < a.rows; ++i) {
        for (int j = 0; j < b.cols; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < a.cols; ++k) sum += a(i, k) * b(k, j);
            out(i, j) = sum;
        }
    }
}

}  // namespace

void forward_reference(const Problem& p, Result& r) {
    detail::shape_result(p, r);
    const int T = p.T, HS = p.HS();
    const float minus_infinity = -std::numeric_limits<float>::infinity();
    const float score_scale = p.scale ? 1.0f / std::sqrt(static_cast<float>(HS)) : 1.0f;

    // pass 1: the projections Q = X·W_Q, K = X·W_K, V = X·W_V                    (T, C)
    matmul(p.x, p.wq, r.q);
    matmul(p.x, p.wk, r.k);
    matmul(p.x, p.wv, r.v);

    for (int h = 0; h < p.NH; ++h) {
        HeadResult& head = r.heads[h];
        // pass 2: head h sees columns [h·HS, (h+1)·HS) of Q, K and V            (T, HS)
        detail::copy_head_columns(r.q, h, head.q);
        detail::copy_head_columns(r.k, h, head.k);
        detail::copy_head_columns(r.v, h, head.v);

        for (int i = 0; i < T; ++i) {
            // pass 3: s_ij = q_i · k_j / √HS for every key, masked or not        (T, T)
            for (int j = 0; j < T; ++j) {
                float dot = 0.0f;
                for (int c = 0; c < HS; ++c) dot += head.q(i, c) * head.k(j, c);
                head.scores(i, j) = dot * score_scale;
            }
            // pass 4: add the mask, −∞ where token i may not look; track the row's max over
            // the keys it may see (the max of a softmax must ignore −∞ entries).
            float row_max = minus_infinity;
            for (int j = 0; j < T; ++j) {
                const bool masked = detail::is_masked(p.mask, i, j);
                head.masked(i, j) = masked ? minus_infinity : head.scores(i, j);
                if (!masked && head.scores(i, j) > row_max) row_max = head.scores(i, j);
            }
            // pass 5: softmax. Subtracting the max keeps every exponent ≤ 0, so exp cannot
            // overflow; exp(−∞) = 0 gives masked keys exactly zero weight. A row with no visible
            // key (row_max still −∞) is defined as all zeros rather than 0/0 = NaN.
            float sum = 0.0f;
            for (int j = 0; j < T; ++j) {
                const float e = row_max == minus_infinity
                                    ? 0.0f
                                    : std::exp(head.masked(i, j) - row_max);
                head.weights(i, j) = e;
                sum += e;
            }
            for (int j = 0; j < T; ++j) {
                if (sum > 0.0f) head.weights(i, j) /= sum;
            }
            // pass 6: the context o_i = Σ_j a_ij · v_j                            (T, HS)
            for (int c = 0; c < HS; ++c) {
                float acc = 0.0f;
                for (int j = 0; j < T; ++j) acc += head.weights(i, j) * head.v(j, c);
                head.context(i, c) = acc;
            }
        }
        // pass 7: Concat(head_1 … head_NH) puts head h back in its own columns      (T, C)
        detail::paste_head_columns(head.context, h, r.concat);
    }
    // pass 8: the output projection mixes the heads: output = concat · W_O          (T, C)
    matmul(r.concat, p.wo, r.output);
}

}  // namespace attn
