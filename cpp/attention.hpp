// The attention core: causal / bidirectional multi-head self-attention in float32, keeping every
// intermediate matrix for display. No knowledge of the web lives here.
//
// Shape vocabulary, fixed once and used in every file (course notation in brackets):
//   T   tokens in the sequence                     [T]
//   C   model width                                [d_model]
//   NH  number of heads                            [h]
//   HS  head size, C / NH                          [d_k = d_v]
//
// The computation, as the course writes it:
//   Q = X·W_Q,  K = X·W_K,  V = X·W_V                              (T, C) each
//   per head h, Q_h / K_h / V_h are columns [h·HS, (h+1)·HS)        (T, HS)
//   S_h = Q_h·K_hᵀ / √HS                                           (T, T)
//   A_h = softmax(S_h + M)      M: 0 where allowed, −∞ where masked (T, T)
//   O_h = A_h·V_h                                                  (T, HS)
//   MultiHead(X) = Concat(O_1 … O_NH)·W_O                          (T, C)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace attn {

// Documented limits. They keep the full result (every T×T matrix of every head) within what a
// browser tab can hold: at the limits it is about 4·NH·T² + 10·T·C floats.
inline constexpr int kMaxTokens = 1024;
inline constexpr int kMaxModelWidth = 1024;

enum class MaskKind { None, Causal };
enum class WeightsKind { Identity, Random, Explicit };
// Which implementation runs the forward pass: the scalar reference that reads like the lesson, or
// the xsimd one (the default where the build has SIMD).
enum class Implementation { Reference, Simd };

// What the caller asks for. Anything not given explicitly is derived deterministically:
// embeddings from the token strings, weights from a seed.
struct Config {
    std::vector<std::string> tokens;     // T entries
    int C = 0;                           // d_model
    int NH = 1;                          // heads
    bool has_embeddings = false;         // true: `embeddings` is X; false: one vector per token string
    Matrix embeddings;                   // (T, C) when has_embeddings
    WeightsKind weights = WeightsKind::Random;
    std::uint32_t seed = 0;              // for WeightsKind::Random
    Matrix wq, wk, wv, wo;               // (C, C) each, for WeightsKind::Explicit
    MaskKind mask = MaskKind::Causal;
    bool scale = true;                   // divide scores by √HS
};

// Everything the forward pass needs, with X and the weights made concrete.
struct Problem {
    int T = 0, C = 0, NH = 1;
    Matrix x, wq, wk, wv, wo;
    MaskKind mask = MaskKind::Causal;
    bool scale = true;
    int HS() const { return C / NH; }
};

struct HeadResult {
    Matrix q, k, v;        // (T, HS) column slices of Q, K, V
    Matrix scores;         // (T, T)  Q_h·K_hᵀ, divided by √HS when scaling is on
    Matrix masked;         // (T, T)  scores + M: −∞ where masked
    Matrix weights;        // (T, T)  row-wise softmax of `masked`; exactly 0 where masked
    Matrix context;        // (T, HS) weights·V_h
};

struct Result {
    int T = 0, C = 0, NH = 1, HS = 0;
    Matrix x, q, k, v;             // (T, C)
    Matrix wq, wk, wv, wo;         // (C, C)  the weights used, as resolved from the config
    std::vector<HeadResult> heads; // NH entries
    Matrix concat;                 // (T, C)  Concat(context_1 … context_NH)
    Matrix output;                 // (T, C)  concat·W_O
};

// An empty string when `config` is acceptable, else a message naming the problem (for people:
// it is shown on the page and thrown as a JavaScript Error).
std::string validate(const Config& config);

// Makes X and the weights concrete. `config` must have passed `validate`.
Problem resolve(const Config& config);

// The two implementations of the same forward pass. `result` is resized as needed and reuses its
// storage between calls.
void forward_reference(const Problem& problem, Result& result);
void forward_simd(const Problem& problem, Result& result);

// validate → resolve → forward. Returns the validation message (empty on success); on failure
// `result` is left untouched.
std::string compute(const Config& config, Result& result,
                    Implementation implementation = Implementation::Simd);

// Names the SIMD instruction set the xsimd implementation was compiled for (e.g. "sse4.1",
// "fma3+avx2"), or "scalar" when the build has none and forward_simd is the reference.
std::string simd_arch_name();

}  // namespace attn
