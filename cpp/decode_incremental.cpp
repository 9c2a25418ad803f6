// Generation with a KV cache: the causal self-attention of a decoder, one token per step. At step t
// only token t's q, k, v are computed; k and v are appended to the cache, and token t's attention
// row is computed against the t + 1 cached keys. Nothing of an earlier token is recomputed: that is
// the whole point of the cache, and the multiply-add counts say how much it saves. The full causal
// pass runs beside it, and each step's rows are compared with the full pass's.
#include <algorithm>
#include <cmath>

#include "alibi.hpp"
#include "attention.hpp"
#include "forward_common.hpp"
#include "row_softmax.hpp"

namespace attn {
namespace {

// out (n) = x (C) · W (C, n)
void project_row(const float* x, const Matrix& w, float* out) {
    std::fill(out, out + w.cols, 0.0f);
    for (int c = 0; c < w.rows; ++c) {
        const float* w_c = w.row(c);
        for (int j = 0; j < w.cols; ++j) out[j] += x[c] * w_c[j];
    }
}

}  // namespace

std::string decode_incremental(const Config& config, DecodeResult& d) {
    CallSizes sizes = sizes_of(config, /*output_only=*/false);
    sizes.decode = true;
    std::string problem = validate_sizes(sizes);
    if (problem.empty()) problem = validate(config);
    if (problem.empty()) problem = validate_decode(config);
    if (!problem.empty()) return problem;

    Result full;  // the full causal computation, to compare each step's rows with
    problem = compute(config, full);
    if (!problem.empty()) return problem;
    const Problem p = resolve(config, /*materialize_mask=*/false);  // borrows from config
    const int T = p.T, C = p.C, NH = p.NH, HS = p.HS(), kv_width = p.KVH * HS;
    const float score_scale = p.scale ? 1.0f / std::sqrt(static_cast<float>(HS)) : 1.0f;
    const float inverse_temperature = 1.0f / p.temperature;

    d = DecodeResult{};
    d.T = T;
    d.C = C;
    d.NH = NH;
    d.KVH = p.KVH;
    d.HS = HS;
    d.k_cache.resize(T, kv_width);
    d.v_cache.resize(T, kv_width);
    d.weights.assign(NH, Matrix(T, T));
    d.output.resize(T, C);
    d.difference.assign(T, 0.0f);
    d.madds_cached.resize(T);
    d.madds_uncached.resize(T);
    d.cache_bytes_per_token = 2.0 * kv_width * sizeof(float);

    std::vector<float> q(C), concat(C), logits(T);
    for (int t = 0; t < T; ++t) {
        // step t, pass 1: token t's projections only; its k and v go into the cache     (1, C)
        const float* x_t = p.x->row(t);
        project_row(x_t, *p.wq, q.data());
        project_row(x_t, *p.wk, d.k_cache.row(t));
        project_row(x_t, *p.wv, d.v_cache.row(t));
        detail::add_bias(q.data(), p.bq);
        detail::add_bias(d.k_cache.row(t), p.bk);
        detail::add_bias(d.v_cache.row(t), p.bv);
        // RoPE: q and k turned by token t's position; cached keys keep the turn they were given
        if (p.rope) {
            for (int h = 0; h < NH; ++h) rotate_rows(q.data() + h * HS, 1, C, HS, p.rotary, t);
            for (int g = 0; g < p.KVH; ++g)
                rotate_rows(d.k_cache.row(t) + g * HS, 1, kv_width, HS, p.rotary, t);
        }
        float difference = 0.0f;
        for (int h = 0; h < NH; ++h) {
            const int g = p.kv_head_of(h);
            const float* q_h = q.data() + h * HS;
            // pass 2: logits of token t against the cache, keys 0 … t (the future is not there)
            for (int j = 0; j <= t; ++j) {
                const float* k_j = d.k_cache.row(j) + g * HS;
                float dot = 0.0f;
                for (int c = 0; c < HS; ++c) dot += q_h[c] * k_j[c];
                float z = dot * score_scale;
                if (p.alibi) z += alibi_bias(p.alibi_slopes[h], t, j);
                logits[j] = z * inverse_temperature;
            }
            // pass 3: softmax of the row (stable unless naive was asked for, row_softmax.hpp)
            float* a = d.weights[h].row(t);
            softmax_row(logits.data(), a, t + 1, {.naive = p.naive_softmax});
            // pass 4: token t's context, Σ_j a_j·v_j over the cached values               (HS)
            float* o = concat.data() + h * HS;
            std::fill(o, o + HS, 0.0f);
            for (int j = 0; j <= t; ++j) {
                const float* v_j = d.v_cache.row(j) + g * HS;
                for (int c = 0; c < HS; ++c) o[c] += a[j] * v_j[c];
            }
            for (int j = 0; j < T; ++j)
                difference = std::max(difference, std::fabs(a[j] - full.heads[h].weights(t, j)));
        }
        // pass 5: token t's output row                                                   (1, C)
        project_row(concat.data(), *p.wo, d.output.row(t));
        detail::add_bias(d.output.row(t), p.bo);
        for (int c = 0; c < C; ++c)
            difference = std::max(difference, std::fabs(d.output(t, c) - full.output(t, c)));
        d.difference[t] = difference;

        // Multiply-adds: one token's projections and its row against t + 1 keys, against the full
        // causal pass over t + 1 tokens (projections of all, every visible pair's score and sum).
        const double n = t + 1.0, projections = 2.0 * C * C + 2.0 * C * kv_width;
        d.madds_cached[t] = projections + 2.0 * NH * HS * n;
        d.madds_uncached[t] = n * projections + 2.0 * NH * HS * n * (n + 1) / 2;
    }
    return {};
}

}  // namespace attn
