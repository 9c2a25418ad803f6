// A pretrained decoder-only transformer as Hugging Face publishes it: GPT-2, Llama and the models
// that share its layout (SmolLM), and Qwen2. The weights stay in the file's type (float32, float16
// or bfloat16), matrices arranged at load as the matrix kernel reads them (model_gemm.hpp); the
// forward pass runs on the core's kernels and keeps what the page shows: every layer's input, every
// head's attention map, q, k and v, and the logits.
//
// Shape vocabulary, as in attention.hpp:
//   T tokens, C = d_model, NH query heads, KVH key/value heads, HS = C/NH (d_k), L layers,
//   V vocabulary entries, F the MLP's hidden width.
//
// The block (pre-norm, residual), per layer:
//   h = norm₁(x);  q, k, v = h·W_q + b_q, …;  RoPE on q, k (Llama, Qwen2)
//   per head: A = softmax(q_h·k_gᵀ/√HS + causal M),  o_h = A·v_g   (g: the head's key/value head)
//   x = x + concat(o)·W_o + b_o
//   x = x + mlp(norm₂(x))      GPT-2: gelu_tanh(h·W_fc + b_fc)·W_proj + b_proj
//                              Llama, Qwen2: (silu(h·W_gate) ⊙ h·W_up)·W_down
// then logits = norm_f(x)·W_unembedᵀ, W_unembed the token embeddings when tied.
// norm is LayerNorm (GPT-2) or RMSNorm (Llama, Qwen2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace attn::model {

enum class Architecture {
    Gpt2,
    Llama,
    Qwen2
};

// What config.json says, in the core's words (web/src/engine/model.js reads Hugging Face's names).
struct ModelConfig {
    Architecture architecture = Architecture::Gpt2;
    int L = 0, C = 0, NH = 0, KVH = 0, V = 0, F = 0;
    int context = 0;              // positions the model knows (GPT-2's n_positions, Llama's max_position_embeddings)
    double norm_epsilon = 1e-5;   // layer_norm_epsilon, rms_norm_eps
    double rope_theta = 10000.0;  // Llama, Qwen2
    bool tied = true;             // the unembedding is the token embedding
    bool attention_bias = false;  // Llama's attention_bias: b_q, b_k, b_v and b_o (GPT-2 has all four,
                                  // Qwen2 b_q, b_k, b_v)
    bool mlp_bias = false;        // Llama's mlp_bias
    int HS() const { return C / NH; }
};

// Bounds that keep every index in int range and every message readable; memory is the real limit.
inline constexpr int kMaxLayers = 1024;
inline constexpr int kMaxWidth = 65536;  // C, and F up to 4× that
inline constexpr int kMaxVocabulary = 1 << 20;
inline constexpr int kMaxContext = 1 << 20;

// "" when the values are acceptable, else a message naming the field (by Hugging Face's name).
std::string validate(const ModelConfig& config);

// The element type of a stored tensor, as safetensors names them.
enum class DType {
    F32 = 0,
    F16 = 1,
    BF16 = 2
};
inline int bytes_of(DType d) {
    return d == DType::F32 ? 4 : 2;
}

// How a matrix's two dimensions map to a product y = x·W: GPT-2's Conv1D stores [in, out]; nn.Linear
// and the embedding tables (used as the unembedding) store [out, in].
enum class Layout {
    InOut,
    OutIn
};

// One tensor of the model, in its file's type. A right-hand side of products (`product`) is stored
// in the micro-kernel's strips (model_gemm.hpp); other tensors in the file's row-major order, and
// vectors (norm gains and biases) in float32 once committed.
struct Tensor {
    std::string name;        // Hugging Face's name without any prefix, e.g. "h.0.attn.c_attn.weight"
    std::vector<int> shape;  // what the config says it must be: [n] or [rows, cols]
    Layout layout = Layout::OutIn;
    bool product = false;
    DType dtype = DType::F32;
    std::vector<float> f32;           // the values, for F32 and for committed vectors
    std::vector<std::uint16_t> bits;  // the raw 16-bit values of an F16 or BF16 matrix
    std::size_t elements() const;
    int rows() const { return shape.size() == 2 ? shape[0] : 1; }
    int cols() const { return shape.back(); }
};

struct LayerWeights {
    int norm1_g = -1, norm1_b = -1, norm2_g = -1, norm2_b = -1;  // indices into Model::tensors
    int wqkv = -1, bqkv = -1;                                    // GPT-2: c_attn [C, 3C], [3C]
    int wq = -1, wk = -1, wv = -1, bq = -1, bk = -1, bv = -1;    // Llama, Qwen2
    int wo = -1, bo = -1;
    int fc = -1, fc_b = -1, proj = -1, proj_b = -1;  // GPT-2's c_fc, c_proj; Llama's gate, down
    int up = -1, up_b = -1;                          // Llama's up_proj
};

// What one layer of a run keeps for display.
struct LayerTrace {
    Matrix input;                  // (T, C)       the residual stream entering the block
    Matrix normed;                 // (T, C)       norm₁(input): what the attention sees
    std::vector<float> q;          // (NH, T, HS)  per head, after the bias and RoPE
    std::vector<float> k, v;       // (KVH, T, HS) per key/value head (k after RoPE)
    std::vector<float> attention;  // (NH, T, T)   softmax weights, 0 above the diagonal
};

// Buffers of the forward pass, kept between runs so that a run of the same length allocates nothing.
struct RunScratch {
    Matrix x, h, projection, concat, hidden, gate;
    std::vector<float> kt, panel;
};

struct Run {
    int T = 0;
    std::vector<int> ids;
    std::vector<LayerTrace> layers;
    Matrix logits;  // (T, V)
    RunScratch scratch;
};

struct Model {
    ModelConfig config;
    std::vector<Tensor> tensors;  // every tensor the file must hold, in a fixed order
    std::vector<LayerWeights> layers;
    int wte = -1, wpe = -1, norm_f_g = -1, norm_f_b = -1, unembed = -1;
};

// The model's tensors named and shaped from the config (nothing allocated): what the file must hold.
// `config` must have passed validate().
Model describe(const ModelConfig& config);

// Bytes of the weights as stored, with every tensor's dtype set.
double weight_bytes(const Model& model);

// Loading a tensor: storage in its dtype (zeros), then its values written in the file's order,
// chunk by chunk, from the file's bytes: "" or a message naming the entry that is ∞ or NaN; then
// committed (a vector becomes float32).
void allocate(Tensor& tensor);
std::string write(Tensor& tensor, std::size_t first, std::size_t n, const std::uint8_t* bytes);
void commit(Tensor& tensor);

// Bytes a run of T tokens holds at most (every layer's trace, the logits, the scratch).
double run_bytes(const ModelConfig& config, int T);

// "" when `ids` can run: 1 ≤ T ≤ the context length, each id in [0, V), and the run's memory fits
// in `available_bytes`; else a message.
std::string validate_run(const Model& model, const std::vector<int>& ids, double available_bytes);

// The forward pass over `ids` (validated), every tensor committed. Fills `run`.
void forward(const Model& model, const std::vector<int>& ids, Run& run);

// Layer l's attention as compute() takes it (attention.hpp): W_Q (C, C), W_K and W_V (C, KVH·HS),
// W_O (C, C), in [in, out] layout and float32, and the biases the layer has (1, n) (empty when not).
struct AttentionWeights {
    Matrix wq, wk, wv, wo, bq, bk, bv, bo;
};
AttentionWeights attention_weights(const Model& model, int layer);

}  // namespace attn::model
