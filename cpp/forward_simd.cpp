// The xsimd implementation of the forward pass, used by default. Same passes as
// forward_reference.cpp; the differences are only in how the arithmetic is scheduled:
// register-blocked matrix products over `batch<float>` with scalar tails, a vectorised exp, and
// causal-aware loops. Tested against the reference for shapes that are not multiples of the
// batch width.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "attention.hpp"
#include "forward_common.hpp"

#if ATTN_HAVE_SIMD
#include "row_softmax.hpp"
#include "simd_packed_gemm.hpp"
#endif

namespace attn {

#if ATTN_HAVE_SIMD
using namespace simd;

bool forward_simd(const Problem& p, Result& r, const Progress& progress) {
    detail::shape_result(p, r);
    const int T = p.T, Tk = p.Tk, HS = p.HS();
    const float score_scale = p.scale ? 1.0f / std::sqrt(static_cast<float>(HS)) : 1.0f;
    const float inverse_temperature = 1.0f / p.temperature;

    // pass 1: projections                                          (T, C), (Tk, KVH·HS) ×2
    matmul_auto(*p.x, *p.wq, r.q);
    matmul_auto(*p.xs, *p.wk, r.k);
    matmul_auto(*p.xs, *p.wv, r.v);
    detail::add_bias(r.q, p.bq);
    detail::add_bias(r.k, p.bk);
    detail::add_bias(r.v, p.bv);

    Matrix k_transposed;            // (HS, Tk): K_hᵀ, so that scores are one row-major product
    std::vector<int> row_k_end(T);  // per query row: one past its last non-zero weight
    for (int h = 0; h < p.NH; ++h) {
        HeadResult& head = r.heads[h];
        // pass 2: head slices
        const int g = p.kv_head_of(h);
        detail::copy_head_columns(r.q, h, head.q);
        detail::copy_head_columns(r.k, g, head.k);
        detail::copy_head_columns(r.v, g, head.v);
        if (p.rope) {
            detail::rotate_head(p, head.q);
            detail::rotate_head(p, head.k);
        }
        if (p.alibi) detail::fill_alibi_bias(p, h, head.bias);

        // pass 3: QK_hᵀ for every pair (the page shows the unmasked scores too). `masked`
        // holds the raw dot products until pass 4 rewrites it row by row.
        transpose(head.k, k_transposed);
        matmul_auto(head.q, k_transposed, head.masked);

        for (int i = 0; i < T; ++i) {
            float* s_i = head.scores.row(i);
            float* m_i = head.masked.row(i);
            float* a_i = head.weights.row(i);
            // pass 3 (end): scaled scores; pass 4: the mask, after or before the scaling
            std::copy(m_i, m_i + Tk, s_i);
            scale_row(s_i, Tk, score_scale);
            if (p.alibi) {  // (a loop of its own: the common case keeps its shorter one)
                const float* b_i = head.bias.row(i);
                for (int j = 0; j < Tk; ++j) {
                    const float m = detail::mask_term(p, i, j);
                    m_i[j] = p.mask_before_scale ? (m_i[j] + m) * score_scale + b_i[j] : (s_i[j] + b_i[j]) + m;
                }
            } else {
                for (int j = 0; j < Tk; ++j) {
                    const float m = detail::mask_term(p, i, j);
                    m_i[j] = p.mask_before_scale ? (m_i[j] + m) * score_scale : s_i[j] + m;
                }
            }
            // pass 5: softmax of z = masked / τ (stable unless naive was asked for,
            // row_softmax.hpp); over queries it waits for every row (below)
            if (p.softmax_over == SoftmaxAxis::Queries) continue;
            std::copy(m_i, m_i + Tk, a_i);
            if (inverse_temperature != 1.0f) scale_row(a_i, Tk, inverse_temperature);
            const RowSoftmax softmax = simd::softmax_row(a_i, a_i, Tk, {.naive = p.naive_softmax, .exps = head.exps.row(i)});
            head.row_max[i] = softmax.max;
            head.row_sum[i] = softmax.sum;
            // H = −Σ a ln a = ln S − Σ a·(z − shift): one logarithm per row instead of per entry
            // (a row with no visible key has H = 0)
            const float shift = p.naive_softmax ? 0.0f : softmax.max;
            const bool no_key = softmax.max == -std::numeric_limits<float>::infinity();
            head.entropy[i] = no_key ? 0.0f : std::log(softmax.sum) - weighted_logit_sum(a_i, m_i, inverse_temperature, shift, Tk);
            int end = Tk;
            while (end > 0 && a_i[end - 1] == 0.0f) --end;
            row_k_end[i] = end;
        }
        // pass 5 over queries: a teaching view, scalar (columns are strided); no key is skipped
        if (p.softmax_over == SoftmaxAxis::Queries) {
            detail::softmax_over_queries(p, head);
            std::fill(row_k_end.begin(), row_k_end.end(), Tk);
        }
        detail::fill_weight_sums(head);
        // pass 6: O_h = A_h·V_h, skipping the zero weights of masked keys           (T, HS)
        matmul(head.weights, head.v, head.context, row_k_end.data());
        // pass 7: concat
        detail::paste_head_columns(head.context, h, r.concat);
        if (progress && !progress(double(h + 1) / (p.NH + 1))) return false;
    }
    // pass 8: output projection                                                  (T, C)
    matmul_auto(r.concat, *p.wo, r.output);
    detail::add_bias(r.output, p.bo);
    return true;
}

std::string simd_arch_name() {
    return xsimd::default_arch::name();
}

#else  // a build without SIMD: the reference is the only implementation

bool forward_simd(const Problem& p, Result& r, const Progress& progress) {
    forward_reference(p, r);
    return !progress || progress(1.0);
}

std::string simd_arch_name() {
    return "scalar";
}

#endif

}  // namespace attn
