// A tiny decoder-only transformer, trained by the same core that shows attention: forward and
// backward passes written as numbered passes, as in the lesson (and as in Karpathy's llm.c).
//
// Shapes (N = B·T rows, one per token of the batch):
//   x₀ = wte[token] + position                                   (N, C)
//   per layer l:  h = LN₁(x) or x;  x += MHA(h)                   causal, ÷√d_k, heads as column
//                 h = LN₂(x) or x;  x += fc₂(gelu(fc₁(h)))        blocks, then W_O (when mlp)
//   logits = (LN_f(x) or x) · unembed                             (N, V)
//   loss = mean over targets ≠ −1 of −log softmax(logits)[target]
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"
#include "train/layers.hpp"

namespace attn::train {

enum class Positions {
    None,
    Sinusoidal,
    Learned
};

struct ModelConfig {
    int V = 0;     // vocabulary size
    int Tmax = 0;  // context length
    int C = 0;     // d_model
    int NH = 1;    // heads, dividing C
    int L = 1;     // layers
    bool mlp = false;
    bool layer_norm = false;
    Positions positions = Positions::Learned;
    int HS() const { return C / NH; }
};

// Vectors are 1×n matrices. A tensor the config does not use stays 0×0.
struct LayerParameters {
    Matrix ln1_g, ln1_b;    // (1, C)   when layer_norm
    Matrix wq, wk, wv, wo;  // (C, C)
    Matrix ln2_g, ln2_b;    // (1, C)   when mlp and layer_norm
    Matrix fc1_w, fc1_b;    // (C, 4C), (1, 4C) when mlp
    Matrix fc2_w, fc2_b;    // (4C, C), (1, C)  when mlp
};

struct Parameters {
    Matrix wte;  // (V, C)
    Matrix wpe;  // (Tmax, C) when positions are learned
    std::vector<LayerParameters> layers;
    Matrix lnf_g, lnf_b;  // (1, C)   when layer_norm
    Matrix unembed;       // (C, V)
};

// One tensor of the model by its public name ("wte", "layers.0.wq", "lnf.g"…). `decays`: AdamW's
// weight decay applies to it (the matrices of products; not embeddings, LN gains, biases).
struct NamedTensor {
    std::string name;
    Matrix* tensor;
    bool decays;
};

// Every tensor the config uses, in a fixed order (the order of the list).
std::vector<NamedTensor> named_tensors(const ModelConfig& config, Parameters& parameters);

// Calls fn(Matrix&, bool decays) for every tensor of `p`, those the config leaves 0×0 included, in
// a fixed order, without allocating (for zeroing gradients and updating in every step).
template <typename Fn>
void for_each_tensor(Parameters& p, Fn&& fn) {
    fn(p.wte, false);
    fn(p.wpe, false);
    for (LayerParameters& l : p.layers) {
        for (Matrix* m : {&l.ln1_g, &l.ln1_b}) fn(*m, false);
        for (Matrix* m : {&l.wq, &l.wk, &l.wv, &l.wo}) fn(*m, true);
        for (Matrix* m : {&l.ln2_g, &l.ln2_b, &l.fc1_b, &l.fc2_b}) fn(*m, false);
        for (Matrix* m : {&l.fc1_w, &l.fc2_w}) fn(*m, true);
    }
    fn(p.lnf_g, false);
    fn(p.lnf_b, false);
    fn(p.unembed, true);
}

// Gives every tensor of the config its shape, filled with zeros.
void shape_parameters(const ModelConfig& config, Parameters& parameters);

// Deterministic initialisation from `seed` (integer arithmetic only: the same bits natively and in
// every browser). Matrices and embeddings: uniform with standard deviation 0.02 (GPT-2's), the
// projections into the residual stream (wo, fc2.w) scaled by 1/√(2L); LN gains 1; biases 0.
void initialise(const ModelConfig& config, std::uint32_t seed, Parameters& parameters);

// What the forward pass keeps for the backward pass and for display, per layer.
struct LayerActivations {
    Matrix h1;  // (N, C)  what MHA sees: LN₁(x) or x
    std::vector<float> ln1_mean, ln1_rstd;
    Matrix q, k, v;                // (N, C)
    std::vector<float> attention;  // (B, NH, T, T) softmax weights, 0 where masked
    Matrix context;                // (N, C)  Concat of the heads' A·V
    Matrix mid;                    // (N, C)  x + context·W_O
    Matrix h2;                     // (N, C)  LN₂(mid) or mid            (mlp)
    std::vector<float> ln2_mean, ln2_rstd;
    Matrix fc1;   // (N, 4C) before gelu                 (mlp)
    Matrix gelu;  // (N, 4C)                             (mlp)
    Matrix out;   // (N, C)  the layer's output, the next layer's x
};

struct Activations {
    int B = 0, T = 0;
    Matrix x0;        // (N, C)  embeddings with positions
    Matrix sinusoid;  // (T, C)  the sinusoidal table, when positions are sinusoidal
    std::vector<LayerActivations> layers;
    Matrix hf;  // (N, C)  LN_f(x) or x
    std::vector<float> lnf_mean, lnf_rstd;
    Matrix logits;  // (N, V)
    Matrix probs;   // (N, V)  softmax(logits)
    // scratch of the passes, kept so that a step at the same size allocates nothing
    std::vector<float> scratch;
    AttentionScratch attention_scratch;
    Matrix d_x, d_h, d_big, d_q, d_k, d_v, d_context, d_logits;
};

// The forward pass over B sequences of T token ids (row-major, T ≤ Tmax). Returns the mean loss
// over the targets that are not −1 (0 when there are none), or skips the loss when `targets` is
// null. Ids must be in [0, V).
float forward(const ModelConfig& config, const Parameters& parameters, const int* inputs,
              const int* targets, int B, int T, Activations& activations);

// The backward pass of the last forward (same inputs and targets): writes every gradient of the
// mean loss into `gradients`, which must have been shaped by shape_parameters.
void backward(const ModelConfig& config, const Parameters& parameters, const int* inputs,
              const int* targets, Activations& activations, Parameters& gradients);

// What a model costs, from its shapes alone (nothing is allocated): the floats of its parameters
// (gradients and each AdamW moment hold as many), the floats its Activations hold after a forward
// and backward pass over B sequences of T tokens (scratch included), and the operations of one
// forward pass: 2 per multiply-add of every matrix product, and for each attention weight the
// softmax's exponential and bookkeeping and the head's copies, about 50 (measured: with one
// dimension per head they are most of the time; docs/performance.md).
std::size_t parameter_floats(const ModelConfig& config);
std::size_t activation_floats(const ModelConfig& config, int B, int T);
double forward_operations(const ModelConfig& config, int B, int T);

}  // namespace attn::train
