// The forward pass of a loaded model, written as numbered passes like the lesson's (see the block
// in model.hpp). Products with the weights go through model_gemm (the core's packed micro-kernel);
// each head's attention through the same kernels as the attention core's.
#include <algorithm>
#include <cmath>

#include "model/model.hpp"
#include "model/model_gemm.hpp"
#include "rotary.hpp"
#include "row_softmax.hpp"

#if ATTN_HAVE_SIMD
#include "simd_packed_gemm.hpp"
namespace kernels = attn::simd;
#else
#include "scalar_kernels.hpp"
namespace kernels = attn::scalar;
#endif

namespace attn::model {
namespace {

void sized(Matrix& m, int rows, int cols) {
    if (m.rows != rows || m.cols != cols) m.resize(rows, cols);
}

// y = LayerNorm (GPT-2: (x − mean)/√(var + ε)·g + b, population variance) or RMSNorm (x/√(mean(x²) + ε)·g)
// of each row of x (T, C). The row's statistics are summed in double.
void norm_rows(const Model& m, const Matrix& x, int gain, int bias, Matrix& y) {
    const bool layer_norm = m.config.architecture == Architecture::Gpt2;
    const int C = x.cols;
    const float* g = m.tensors[gain].f32.data();
    const float* b = bias >= 0 ? m.tensors[bias].f32.data() : nullptr;
    sized(y, x.rows, C);
    for (int t = 0; t < x.rows; ++t) {
        const float* xr = x.row(t);
        float* yr = y.row(t);
        double mean = 0.0;
        if (layer_norm) {
            for (int c = 0; c < C; ++c) mean += xr[c];
            mean /= C;
        }
        double square = 0.0;
        for (int c = 0; c < C; ++c) square += (xr[c] - mean) * (xr[c] - mean);
        const double scale = 1.0 / std::sqrt(square / C + m.config.norm_epsilon);
        for (int c = 0; c < C; ++c) yr[c] = static_cast<float>((xr[c] - mean) * scale) * g[c] + (b ? b[c] : 0.0f);
    }
}

// out (T, n) += the bias (n), when the model has it.
void add_bias(const Model& m, int bias, float* out, int T, int n, int ld) {
    if (bias < 0) return;
    const float* b = m.tensors[bias].f32.data();
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < n; ++j) out[std::size_t(t) * ld + j] += b[j];
}

// x ← x·σ(s·u(x)), the gate of both MLPs written with one exponential: GPT-2's gelu_new
// 0.5x(1 + tanh u) with u = √(2/π)(x + 0.044715x³) equals x·σ(2u); SiLU is x·σ(x).
// (exp(−s·u) overflows to ∞ for large negative x, and x/∞ gives the limit, 0.)
template <bool kGelu>
float gated(float x) {
    const float u = kGelu ? 0.7978845608028654f * (x + 0.044715f * x * x * x) : x;
    return x / (1.0f + std::exp((kGelu ? -2.0f : -1.0f) * u));
}

template <bool kGelu>
void gate_rows(float* x, std::size_t n) {
    std::size_t i = 0;
#if ATTN_HAVE_SIMD
    // (the core's exp: xsimd::exp is emulated lane by lane in WebAssembly, simd_kernels.hpp)
    using kernels::batch;
    const kernels::ExpConstants constants;
    const batch one(1.0f), scale(0.7978845608028654f), cubic(0.044715f), factor(kGelu ? -2.0f : -1.0f);
    for (; i + kernels::W <= n; i += kernels::W) {
        const batch v = batch::load_unaligned(x + i);
        const batch u = kGelu ? scale * xsimd::fma(cubic * v, v * v, v) : v;
        (v / (one + kernels::exp_batch(factor * u, constants))).store_unaligned(x + i);
    }
#endif
    for (; i < n; ++i) x[i] = gated<kGelu>(x[i]);
}

// One head: A = softmax(q·kᵀ/√HS + causal M) (T, T), written into `a` with zeros above the
// diagonal, and context = A·v (T, HS). q, k, v are (T, HS), contiguous.
void attention_head(const float* q, const float* k, const float* v, int T, int HS, float* a, float* context,
                    std::vector<float>& kt, std::vector<int>& row_end) {
    const float scale = 1.0f / std::sqrt(static_cast<float>(HS));
    // pass 4a: every score q_i·k_j (the half above the diagonal too: one plain product)
    kt.resize(std::size_t(HS) * T);
    for (int t = 0; t < T; ++t)
        for (int c = 0; c < HS; ++c) kt[std::size_t(c) * T + t] = k[std::size_t(t) * HS + c];
    kernels::gemm_auto(q, HS, kt.data(), T, a, T, T, HS, T);
    // pass 4b: scaled, masked, softmax over the keys j ≤ i (row_softmax.hpp, the stable form)
    row_end.resize(T);
    for (int i = 0; i < T; ++i) {
        float* row = a + std::size_t(i) * T;
        const int visible = i + 1;
        kernels::scale_row(row, visible, scale);
        kernels::softmax_row(row, row, visible);
        std::fill(row + visible, row + T, 0.0f);
        row_end[i] = visible;
    }
    // pass 4c: context = A·v, each row stopping at its last visible key
    kernels::gemm(a, T, v, HS, context, HS, T, T, HS, row_end.data());
}

// Columns [col0, col0 + heads·HS) of `from` (T, ld), cut into heads: to (heads, T, HS).
void split_heads(const float* from, int ld, int col0, int heads, int T, int HS, std::vector<float>& to) {
    to.resize(std::size_t(heads) * T * HS);
    for (int h = 0; h < heads; ++h)
        for (int t = 0; t < T; ++t) {
            const float* src = from + std::size_t(t) * ld + col0 + h * HS;
            std::copy(src, src + HS, to.data() + (std::size_t(h) * T + t) * HS);
        }
}

}  // namespace

void forward(const Model& m, const std::vector<int>& ids, Run& run) {
    const ModelConfig& c = m.config;
    const bool gpt2 = c.architecture == Architecture::Gpt2;
    const int T = static_cast<int>(ids.size()), C = c.C, NH = c.NH, KVH = c.KVH, HS = c.HS(), F = c.F;
    const int kv_width = KVH * HS, qkv_width = (NH + 2 * KVH) * HS;
    run.T = T;
    run.ids = ids;
    run.layers.resize(c.L);
    RunScratch& s = run.scratch;
    std::vector<float>& panel = s.panel;
    std::vector<int> row_end;
    Matrix context(T, HS);
    sized(s.x, T, C);
    sized(s.h, T, C);
    sized(s.concat, T, C);
    sized(s.projection, T, std::max(qkv_width, C));
    sized(s.hidden, T, F);
    if (!gpt2) sized(s.gate, T, F);

    // pass 1: x = the tokens' embeddings (+ GPT-2's learned positions)                    (T, C)
    for (int t = 0; t < T; ++t) {
        load_values(m.tensors[m.wte], std::size_t(ids[t]) * C, C, s.x.row(t));
        if (!gpt2) continue;
        load_values(m.tensors[m.wpe], std::size_t(t) * C, C, s.h.row(t));
        for (int j = 0; j < C; ++j) s.x(t, j) += s.h(t, j);
    }
    // Llama and Qwen2 turn q and k by position, Hugging Face's halves paired (rotary.hpp)
    const RotaryTable rotary = gpt2 ? RotaryTable{} : rotary_table(T, HS, 0, c.rope_theta, RopePairing::Half);

    for (int l = 0; l < c.L; ++l) {
        const LayerWeights& w = m.layers[l];
        LayerTrace& trace = run.layers[l];
        trace.input = s.x;
        // pass 2: h = norm₁(x), what the attention sees                                   (T, C)
        norm_rows(m, s.x, w.norm1_g, w.norm1_b, trace.normed);
        // pass 3: q | k | v = h·W + b side by side                              (T, (NH + 2·KVH)·HS)
        float* qkv = s.projection.data.data();
        const int ld = s.projection.cols;
        const float* h = trace.normed.data.data();
        if (gpt2) {
            weight_product(h, C, T, m.tensors[w.wqkv], qkv, ld, panel);
            add_bias(m, w.bqkv, qkv, T, qkv_width, ld);
        } else {
            weight_product(h, C, T, m.tensors[w.wq], qkv, ld, panel);
            weight_product(h, C, T, m.tensors[w.wk], qkv + C, ld, panel);
            weight_product(h, C, T, m.tensors[w.wv], qkv + C + kv_width, ld, panel);
            add_bias(m, w.bq, qkv, T, C, ld);
            add_bias(m, w.bk, qkv + C, T, kv_width, ld);
            add_bias(m, w.bv, qkv + C + kv_width, T, kv_width, ld);
        }
        // each head's columns, contiguous; q and k turned by RoPE                (heads, T, HS)
        split_heads(qkv, ld, 0, NH, T, HS, trace.q);
        split_heads(qkv, ld, C, KVH, T, HS, trace.k);
        split_heads(qkv, ld, C + kv_width, KVH, T, HS, trace.v);
        if (!gpt2) {
            for (int h_ = 0; h_ < NH; ++h_) rotate_rows(trace.q.data() + std::size_t(h_) * T * HS, T, HS, HS, rotary);
            for (int g = 0; g < KVH; ++g) rotate_rows(trace.k.data() + std::size_t(g) * T * HS, T, HS, HS, rotary);
        }
        // pass 4: per head, A = softmax(q_h·k_gᵀ/√HS + M) and o_h = A·v_g, into concat's columns
        trace.attention.resize(std::size_t(NH) * T * T);
        for (int head = 0; head < NH; ++head) {
            const int g = head / (NH / KVH);  // the key/value head this head reads
            const std::size_t kv = std::size_t(g) * T * HS;
            attention_head(trace.q.data() + std::size_t(head) * T * HS, trace.k.data() + kv, trace.v.data() + kv, T, HS,
                           trace.attention.data() + std::size_t(head) * T * T, context.data.data(), s.kt, row_end);
            for (int t = 0; t < T; ++t) std::copy(context.row(t), context.row(t) + HS, s.concat.row(t) + head * HS);
        }
        // pass 5: x = x + concat·W_o + b_o                                                 (T, C)
        weight_product(s.concat.data.data(), C, T, m.tensors[w.wo], s.h.data.data(), C, panel);
        add_bias(m, w.bo, s.h.data.data(), T, C, C);
        for (std::size_t i = 0; i < s.x.data.size(); ++i) s.x.data[i] += s.h.data[i];
        // pass 6: x = x + mlp(norm₂(x))
        norm_rows(m, s.x, w.norm2_g, w.norm2_b, s.h);
        float* hidden = s.hidden.data.data();
        weight_product(s.h.data.data(), C, T, m.tensors[w.fc], hidden, F, panel);
        add_bias(m, w.fc_b, hidden, T, F, F);
        if (gpt2) {
            gate_rows<true>(hidden, std::size_t(T) * F);  // gelu_new                       (T, F)
        } else {
            // SwiGLU: silu(h·W_gate) ⊙ (h·W_up)                                             (T, F)
            float* up = s.gate.data.data();
            weight_product(s.h.data.data(), C, T, m.tensors[w.up], up, F, panel);
            add_bias(m, w.up_b, up, T, F, F);
            gate_rows<false>(hidden, std::size_t(T) * F);
            for (std::size_t i = 0; i < std::size_t(T) * F; ++i) hidden[i] *= up[i];
        }
        weight_product(hidden, F, T, m.tensors[w.proj], s.concat.data.data(), C, panel);
        add_bias(m, w.proj_b, s.concat.data.data(), T, C, C);
        for (std::size_t i = 0; i < s.x.data.size(); ++i) s.x.data[i] += s.concat.data[i];
    }

    // pass 7: logits = norm_f(x)·W_unembedᵀ                                                 (T, V)
    norm_rows(m, s.x, m.norm_f_g, m.norm_f_b, s.h);
    sized(run.logits, T, c.V);
    weight_product(s.h.data.data(), C, T, m.tensors[m.unembed], run.logits.data.data(), c.V, panel);
}

}  // namespace attn::model
