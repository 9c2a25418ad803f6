#include "train/layers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "row_softmax.hpp"

#if ATTN_HAVE_SIMD
#include "simd_packed_gemm.hpp"
namespace kernels = attn::simd;
#else
#include "scalar_kernels.hpp"
namespace kernels = attn::scalar;
#endif

namespace attn::train {
namespace {

// out (cols, rows) = inᵀ, for in (rows, cols) with row stride `ld`.
void transpose(const float* in, int rows, int cols, int ld, float* out) {
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) out[std::size_t(c) * rows + r] = in[std::size_t(r) * ld + c];
    }
}

float* sized(std::vector<float>& buffer, std::size_t n) {
    if (buffer.size() < n) buffer.resize(n);
    return buffer.data();
}

constexpr float kLayerNormEpsilon = 1e-5f;
constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

}  // namespace

void linear_forward(const float* x, const float* w, const float* b, float* y, int N, int in, int out) {
    kernels::gemm_auto(x, in, w, out, y, out, N, in, out);
    if (!b) return;
    for (int r = 0; r < N; ++r) {
        float* row = y + std::size_t(r) * out;
        for (int c = 0; c < out; ++c) row[c] += b[c];
    }
}

void linear_backward(const float* x, const float* w, const float* dy, float* dx, bool add_dx,
                     float* dw, float* db, int N, int in, int out, std::vector<float>& scratch) {
    // dx = dy · wᵀ: wᵀ is (out, in)
    if (dx) {
        float* wt = sized(scratch, std::size_t(out) * in);
        transpose(w, in, out, out, wt);
        if (add_dx) kernels::gemm_auto<true>(dy, out, wt, in, dx, in, N, out, in);
        else kernels::gemm_auto(dy, out, wt, in, dx, in, N, out, in);
    }
    // dw += xᵀ · dy: xᵀ is (in, N)
    float* xt = sized(scratch, std::size_t(in) * N);
    transpose(x, N, in, in, xt);
    kernels::gemm_auto<true>(xt, N, dy, out, dw, out, in, N, out);
    if (!db) return;
    for (int r = 0; r < N; ++r) {
        const float* row = dy + std::size_t(r) * out;
        for (int c = 0; c < out; ++c) db[c] += row[c];
    }
}

void layer_norm_forward(const float* x, const float* g, const float* b, float* y, float* mean,
                        float* rstd, int N, int C) {
    for (int r = 0; r < N; ++r) {
        const float* xr = x + std::size_t(r) * C;
        float* yr = y + std::size_t(r) * C;
        float m = 0.0f;
        for (int c = 0; c < C; ++c) m += xr[c];
        m /= C;
        float var = 0.0f;
        for (int c = 0; c < C; ++c) var += (xr[c] - m) * (xr[c] - m);
        var /= C;
        const float s = 1.0f / std::sqrt(var + kLayerNormEpsilon);
        for (int c = 0; c < C; ++c) yr[c] = (xr[c] - m) * s * g[c] + b[c];
        mean[r] = m;
        rstd[r] = s;
    }
}

void layer_norm_backward(const float* dy, const float* x, const float* g, const float* mean,
                         const float* rstd, float* dx, float* dg, float* db, int N, int C) {
    for (int r = 0; r < N; ++r) {
        const float* dyr = dy + std::size_t(r) * C;
        const float* xr = x + std::size_t(r) * C;
        float* dxr = dx + std::size_t(r) * C;
        // With x̂ = (x − mean)·rstd and d = dy·g: dx = rstd·(d − mean(d) − x̂·mean(d·x̂)).
        float d_mean = 0.0f, d_xhat_mean = 0.0f;
        for (int c = 0; c < C; ++c) {
            const float xhat = (xr[c] - mean[r]) * rstd[r];
            const float d = dyr[c] * g[c];
            d_mean += d;
            d_xhat_mean += d * xhat;
            dg[c] += dyr[c] * xhat;
            db[c] += dyr[c];
        }
        d_mean /= C;
        d_xhat_mean /= C;
        for (int c = 0; c < C; ++c) {
            const float xhat = (xr[c] - mean[r]) * rstd[r];
            dxr[c] += rstd[r] * (dyr[c] * g[c] - d_mean - xhat * d_xhat_mean);
        }
    }
}

namespace {
constexpr float kGeluScale = 0.7978845608028654f;  // √(2/π)
constexpr float kGeluCubic = 0.044715f;
}  // namespace

void gelu_forward(const float* x, float* y, int n) {
    for (int i = 0; i < n; ++i) {
        const float u = kGeluScale * (x[i] + kGeluCubic * x[i] * x[i] * x[i]);
        y[i] = 0.5f * x[i] * (1.0f + std::tanh(u));
    }
}

void gelu_backward(const float* x, const float* dy, float* dx, int n) {
    for (int i = 0; i < n; ++i) {
        const float u = kGeluScale * (x[i] + kGeluCubic * x[i] * x[i] * x[i]);
        const float t = std::tanh(u);
        const float du = kGeluScale * (1.0f + 3.0f * kGeluCubic * x[i] * x[i]);
        dx[i] = dy[i] * (0.5f * (1.0f + t) + 0.5f * x[i] * (1.0f - t * t) * du);
    }
}

namespace {

// The columns of head h of sequence b, (T, HS), from a (B·T, C) matrix; and back.
void gather_head(const float* m, int b, int h, int T, int C, int HS, float* out) {
    for (int t = 0; t < T; ++t) {
        std::copy_n(m + (std::size_t(b) * T + t) * C + std::size_t(h) * HS, HS, out + std::size_t(t) * HS);
    }
}
void scatter_head(const float* in, int b, int h, int T, int C, int HS, float* m) {
    for (int t = 0; t < T; ++t) {
        std::copy_n(in + std::size_t(t) * HS, HS, m + (std::size_t(b) * T + t) * C + std::size_t(h) * HS);
    }
}

}  // namespace

void attention_forward(const float* q, const float* k, const float* v, float* attention,
                       float* context, int B, int T, int C, int NH, const std::uint8_t* mask,
                       AttentionScratch& s) {
    const int HS = C / NH;
    const float scale = 1.0f / std::sqrt(static_cast<float>(HS));
    float* qh = sized(s.q, std::size_t(T) * HS);
    float* kh = sized(s.k, std::size_t(T) * HS);
    float* vh = sized(s.v, std::size_t(T) * HS);
    float* kt = sized(s.kt, std::size_t(HS) * T);
    float* ctx = sized(s.dcontext, std::size_t(T) * HS);
    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < NH; ++h) {
            float* a = attention + (std::size_t(b) * NH + h) * T * T;
            // pass 1: the head's slices
            gather_head(q, b, h, T, C, HS, qh);
            gather_head(k, b, h, T, C, HS, kh);
            gather_head(v, b, h, T, C, HS, vh);
            // pass 2: scores S = q_h·k_hᵀ
            transpose(kh, T, HS, HS, kt);
            kernels::gemm_auto(qh, HS, kt, T, a, T, T, HS, T);
            // pass 3: ÷√d_k, mask, softmax by rows (row_softmax.hpp: weights exactly 0 where
            // masked). The scalar softmax in every build: the checkpoints depend on its bits.
            for (int i = 0; i < T; ++i) {
                float* row = a + std::size_t(i) * T;
                if (mask) {  // masked keys −∞
                    const std::uint8_t* m = mask + std::size_t(i) * T;
                    for (int j = 0; j < T; ++j) row[j] = m[j] ? kMinusInfinity : row[j] * scale;
                    softmax_row(row, row, T);
                } else {  // causal: keys 0 … i only, the rest 0 (no pass over the masked half)
                    for (int j = 0; j <= i; ++j) row[j] *= scale;
                    softmax_row(row, row, i + 1);
                    std::fill(row + i + 1, row + T, 0.0f);
                }
            }
            // pass 4: context_h = A·v_h, into the head's columns
            kernels::gemm_auto(a, T, vh, HS, ctx, HS, T, T, HS);
            scatter_head(ctx, b, h, T, C, HS, context);
        }
    }
}

void attention_backward(const float* dcontext, const float* q, const float* k, const float* v,
                        const float* attention, float* dq, float* dk, float* dv, int B, int T,
                        int C, int NH, AttentionScratch& s) {
    const int HS = C / NH;
    const float scale = 1.0f / std::sqrt(static_cast<float>(HS));
    float* qh = sized(s.q, std::size_t(T) * HS);
    float* kh = sized(s.k, std::size_t(T) * HS);
    float* vht = sized(s.kt, std::size_t(HS) * T);
    float* dctx = sized(s.dcontext, std::size_t(T) * HS);
    float* dqh = sized(s.dq, std::size_t(T) * HS);
    float* dkh = sized(s.dk, std::size_t(T) * HS);
    float* dvh = sized(s.dv, std::size_t(T) * HS);
    float* at = sized(s.at, std::size_t(T) * T);  // Aᵀ, then dSᵀ
    std::vector<float>& ds_buffer = s.v;          // dA, then dS (T×T)
    float* ds = sized(ds_buffer, std::size_t(T) * std::max(T, HS));
    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < NH; ++h) {
            const float* a = attention + (std::size_t(b) * NH + h) * T * T;
            gather_head(dcontext, b, h, T, C, HS, dctx);
            gather_head(q, b, h, T, C, HS, qh);
            gather_head(k, b, h, T, C, HS, kh);
            // pass 4 back: dv_h = Aᵀ·dcontext_h, dA = dcontext_h·v_hᵀ
            transpose(a, T, T, T, at);
            kernels::gemm_auto(at, T, dctx, HS, dvh, HS, T, T, HS);
            gather_head(v, b, h, T, C, HS, dqh);  // (v_h, borrowing dqh's storage)
            transpose(dqh, T, HS, HS, vht);
            kernels::gemm_auto(dctx, HS, vht, T, ds, T, T, HS, T);
            // pass 3 back: dS = A ⊙ (dA − Σ_j dA·A) · (1/√d_k); 0 where masked (A = 0)
            for (int i = 0; i < T; ++i) {
                const float* ar = a + std::size_t(i) * T;
                float* dr = ds + std::size_t(i) * T;
                float dot = 0.0f;
                for (int j = 0; j < T; ++j) dot += dr[j] * ar[j];
                for (int j = 0; j < T; ++j) dr[j] = ar[j] * (dr[j] - dot) * scale;
            }
            // pass 2 back: dq_h = dS·k_h, dk_h = dSᵀ·q_h
            kernels::gemm_auto(ds, T, kh, HS, dqh, HS, T, T, HS);
            transpose(ds, T, T, T, at);
            kernels::gemm_auto(at, T, qh, HS, dkh, HS, T, T, HS);
            scatter_head(dqh, b, h, T, C, HS, dq);
            scatter_head(dkh, b, h, T, C, HS, dk);
            scatter_head(dvh, b, h, T, C, HS, dv);
        }
    }
}

float cross_entropy_forward(const float* logits, const int* targets, float* probs, int N, int V) {
    double total = 0.0;
    int count = 0;
    for (int r = 0; r < N; ++r) {
        const float* lr = logits + std::size_t(r) * V;
        float* pr = probs + std::size_t(r) * V;
        const RowSoftmax softmax = softmax_row(lr, pr, V);
        if (targets && targets[r] >= 0) {
            // −log p = log Σ e^(l − max) − (l_target − max): exact even where p underflows
            total += std::log(softmax.sum) - (lr[targets[r]] - softmax.max);
            ++count;
        }
    }
    return count > 0 ? static_cast<float>(total / count) : 0.0f;
}

void cross_entropy_backward(const float* probs, const int* targets, float* dlogits, int N, int V) {
    int count = 0;
    for (int r = 0; r < N; ++r) count += targets[r] >= 0;
    const float weight = count > 0 ? 1.0f / count : 0.0f;
    for (int r = 0; r < N; ++r) {
        float* dr = dlogits + std::size_t(r) * V;
        if (targets[r] < 0) {
            std::fill(dr, dr + V, 0.0f);
            continue;
        }
        const float* pr = probs + std::size_t(r) * V;
        for (int c = 0; c < V; ++c) dr[c] = pr[c] * weight;
        dr[targets[r]] -= weight;
    }
}

}  // namespace attn::train
