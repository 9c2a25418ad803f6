// The building blocks of the trainable model, each a forward and a backward pass over N rows.
// Backward passes *add* into the gradients of parameters (they are zeroed once per step) and
// into the gradient of their input where noted; matrix products go through the core's xsimd
// kernels (scalar loops in the scalar build).
#pragma once

#include <cstdint>
#include <vector>

namespace attn::train {

// y (N, out) = x (N, in) · w (in, out) [+ b (out)]
void linear_forward(const float* x, const float* w, const float* b, float* y, int N, int in, int out);

// From dy (N, out): dx (N, in) = dy · wᵀ (written, or added when `add_dx`; skipped when dx is
// null), dw += xᵀ · dy, db += Σ_rows dy (when db is not null). `scratch` holds transposes.
void linear_backward(const float* x, const float* w, const float* dy, float* dx, bool add_dx,
                     float* dw, float* db, int N, int in, int out, std::vector<float>& scratch);

// y = (x − mean)/√(var + 1e-5)·g + b per row of C, with the population variance; keeps each
// row's mean and 1/√(var + 1e-5).
void layer_norm_forward(const float* x, const float* g, const float* b, float* y, float* mean,
                        float* rstd, int N, int C);

// dx += ∂loss/∂x, dg += Σ dy·x̂, db += Σ dy.
void layer_norm_backward(const float* dy, const float* x, const float* g, const float* mean,
                         const float* rstd, float* dx, float* dg, float* db, int N, int C);

// y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) elementwise.
void gelu_forward(const float* x, float* y, int n);

// dx = dy · gelu′(x) (written).
void gelu_backward(const float* x, const float* dy, float* dx, int n);

// Multi-head attention of B sequences of T tokens, heads as column blocks of q, k, v (N, C):
// per sequence and head, A = softmax(q_h·k_hᵀ/√d_k + M) and context_h = A·v_h. M is the causal
// mask, or `mask` (T×T, 1 = masked) when given; a row with every key masked gets weights 0 and
// a context of 0 (not NaN). `attention` receives A, (B, NH, T, T).
struct AttentionScratch {
    std::vector<float> q, k, v, kt, dq, dk, dv, dcontext, at;
};
void attention_forward(const float* q, const float* k, const float* v, float* attention,
                       float* context, int B, int T, int C, int NH, const std::uint8_t* mask,
                       AttentionScratch& scratch);

// dq, dk, dv (written) from dcontext, given the forward's q, k, v and attention.
void attention_backward(const float* dcontext, const float* q, const float* k, const float* v,
                        const float* attention, float* dq, float* dk, float* dv, int B, int T,
                        int C, int NH, AttentionScratch& scratch);

// probs = softmax(logits) per row of V; returns the mean of −log probs[target] over targets ≠ −1
// (0 when there are none).
float cross_entropy_forward(const float* logits, const int* targets, float* probs, int N, int V);

// dlogits (written) = (probs − onehot(target)) / count for rows with a target, 0 for the others.
void cross_entropy_backward(const float* probs, const int* targets, float* dlogits, int N, int V);

}  // namespace attn::train
