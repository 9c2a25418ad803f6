// The scalar reference: the lesson, written as loops. Every other implementation is tested
// against this one, so it favours being obviously right over being fast.
#include <cmath>

#include "attention.hpp"
#include "forward_common.hpp"
#include "row_softmax.hpp"

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
    const int T = p.T, Tk = p.Tk, HS = p.HS();
    const float score_scale = p.scale ? 1.0f / std::sqrt(static_cast<float>(HS)) : 1.0f;

    // pass 1: the projections Q = X·W_Q (T, C); K = X_s·W_K, V = X_s·W_V (Tk, KVH·HS)
    // (keys and values come from the source, which is X itself in self-attention)
    matmul(*p.x, *p.wq, r.q);
    matmul(*p.xs, *p.wk, r.k);
    matmul(*p.xs, *p.wv, r.v);
    // (+ the biases b_q, b_k, b_v of a loaded model's projections, when given)
    detail::add_bias(r.q, p.bq);
    detail::add_bias(r.k, p.bk);
    detail::add_bias(r.v, p.bv);

    for (int h = 0; h < p.NH; ++h) {
        HeadResult& head = r.heads[h];
        // pass 2: query head h sees columns [h·HS, (h+1)·HS) of Q; its key/value head g those
        // of K and V (g = h when every head has its own keys and values)
        const int g = p.kv_head_of(h);
        detail::copy_head_columns(r.q, h, head.q);
        detail::copy_head_columns(r.k, g, head.k);
        detail::copy_head_columns(r.v, g, head.v);
        // RoPE turns q and k of each position (rotary.hpp); ALiBi's bias depends on i − j only
        if (p.rope) {
            detail::rotate_head(p, head.q);
            detail::rotate_head(p, head.k);
        }
        if (p.alibi) detail::fill_alibi_bias(p, h, head.bias);

        for (int i = 0; i < T; ++i) {
            // pass 3: s_ij = q_i · k_j / √HS for every key, masked or not            (T, Tk)
            // pass 4: add ALiBi's bias B and the mask M — after the scaling, QKᵀ/√d_k + B + M,
            //         or M before it, (QKᵀ + M)/√d_k + B; with M = −∞ both give −∞.
            for (int j = 0; j < Tk; ++j) {
                float dot = 0.0f;
                for (int c = 0; c < HS; ++c) dot += head.q(i, c) * head.k(j, c);
                const float m = detail::mask_term(p, i, j);
                const float b = p.alibi ? head.bias(i, j) : 0.0f;
                head.scores(i, j) = dot * score_scale;
                head.masked(i, j) = p.mask_before_scale ? (dot + m) * score_scale + b
                                                        : (dot * score_scale + b) + m;
            }
            // pass 5: softmax of z = masked / τ (row_softmax.hpp). The stable form subtracts the
            // row max, so every exponent is ≤ 0 and exp cannot overflow; exp(−∞) = 0 gives masked
            // keys exactly zero weight. The naive form, e^z / Σ e^z, is kept to show why: it
            // overflows to ∞ and ∞/∞ = NaN for large scores. A row with no visible key is all
            // zeros, not 0/0. (Over queries, pass 5 waits for every row: it normalises columns.)
            if (p.softmax_over == SoftmaxAxis::Queries) continue;
            float* a_i = head.weights.row(i);
            for (int j = 0; j < Tk; ++j) a_i[j] = head.masked(i, j) / p.temperature;
            const RowSoftmax softmax = softmax_row(a_i, a_i, Tk, {.naive = p.naive_softmax, .exps = head.exps.row(i)});
            head.row_max[i] = softmax.max;
            head.row_sum[i] = softmax.sum;
            head.entropy[i] = detail::entropy_of(a_i, Tk);
        }
        // pass 5 over queries: each key column normalised instead of each query row
        if (p.softmax_over == SoftmaxAxis::Queries) detail::softmax_over_queries(p, head);
        detail::fill_weight_sums(head);
        // pass 6: the context o_i = Σ_j a_ij · v_j                                  (T, HS)
        for (int i = 0; i < T; ++i) {
            for (int c = 0; c < HS; ++c) {
                float acc = 0.0f;
                for (int j = 0; j < Tk; ++j) acc += head.weights(i, j) * head.v(j, c);
                head.context(i, c) = acc;
            }
        }
        // pass 7: Concat(head_1 … head_NH) puts head h back in its own columns        (T, C)
        detail::paste_head_columns(head.context, h, r.concat);
    }
    // pass 8: the output projection mixes the heads: output = concat · W_O            (T, C)
    matmul(r.concat, *p.wo, r.output);
    detail::add_bias(r.output, p.bo);
}

}  // namespace attn
