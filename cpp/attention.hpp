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
//   A_h = softmax((S_h + M)/τ)  M: 0 where allowed, −∞ where masked (T, T)
//   O_h = A_h·V_h                                                  (T, HS)
//   MultiHead(X) = Concat(O_1 … O_NH)·W_O                          (T, C)
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <list>
#include <optional>
#include <string>
#include <vector>

#include "matrix.hpp"
#include "rotary.hpp"

namespace attn {

// Documented limits. They keep the full result (every T×T matrix of every head) within what a
// browser tab can hold: at the limits it is about 4·NH·T² + 10·T·C floats.
inline constexpr int kMaxTokens = 1024;
// The forward-only path keeps no T×T matrix, so it takes longer sequences.
inline constexpr int kMaxTokensOutputOnly = 8192;
inline constexpr int kMaxModelWidth = 1024;
// Entries are bounded so that no intermediate can overflow float32: with |entries| ≤ 1e6 and
// C ≤ 1024, |Q| ≤ 1e15 and |scores| ≤ 1e33 < 3.4e38. Hence no ∞ and no NaN downstream.
inline constexpr float kMaxEntry = 1e6f;
// What the engine may hold for one call: inputs, every intermediate and the copy handed to
// JavaScript. The wasm module stops at 2 GiB; the rest is headroom for the allocator and the
// strings, so a call that passes this check cannot run out of memory.
inline constexpr double kMemoryBudgetBytes = 1536.0 * 1024 * 1024;
// A token's string is hashed into its vector; longer strings are refused before they are copied.
inline constexpr int kMaxTokenBytes = 1024;
// Temperature range: outside it softmax(S/τ) is a one-hot or uniform row anyway, and the bounds
// keep S/τ finite for every accepted input.
inline constexpr float kMinTemperature = 0.01f;
inline constexpr float kMaxTemperature = 100.0f;
// Positions may start past 0 (positionOffset), to show that RoPE scores depend only on distance.
// Up to 10⁶ the angles, computed in double, are exact to float32.
inline constexpr int kMaxPositionOffset = 1000000;
// RoPE's base θ (a model's `rope_theta`): above 1, or the frequencies would not fall with p; the
// largest published bases are about 10⁸.
inline constexpr double kMinRopeTheta = 1.0;
inline constexpr double kMaxRopeTheta = 1e10;
// The FlashAttention trace records every tile of every head: O(NH·T²·(1 + HS/Bc)) floats, for
// learning on small inputs only. Tile sizes run from 1 to this limit too.
inline constexpr int kMaxTokensTrace = 64;
// The incremental decode keeps a T×T row table per head and runs the full path beside it.
inline constexpr int kMaxTokensDecode = 256;
// Tiles one FlashAttention trace may record (heads × query blocks × key tiles): each becomes a
// JavaScript object with its arrays, about 0.5 KB and a few microseconds each.
inline constexpr int kMaxTraceTiles = 65536;

// Which keys a query may see (query i, key j):
//   None    every key                              (bidirectional, as in BERT)
//   Causal  j ≤ i                                  (as in GPT)
//   Window  i − w < j ≤ i                          (causal, the last w tokens)
//   Prefix  j ≤ max(i, p − 1)                      (the first p tokens see each other, the rest
//                                                   is causal: prefix-LM)
//   Custom  custom_mask[i][j] == 0
// Padding tokens are masked as keys on top of any kind.
enum class MaskKind {
    None,
    Causal,
    Window,
    Prefix,
    Custom
};
enum class WeightsKind {
    Identity,
    Random,
    Explicit
};
// Sinusoidal positions are added to X; rotary positions (RoPE) rotate q and k inside each head
// (rotary.hpp). Both count from `position_offset`.
enum class Positional {
    None,
    Sinusoidal,
    Rope
};
// Which implementation runs the forward pass: the scalar reference that reads like the lesson, or
// the xsimd one (the default where the build has SIMD).
enum class Implementation {
    Reference,
    Simd
};
// Which axis the softmax normalises: over the keys of each query row (attention as defined), or
// over the queries of each key column — the course's misconception, kept to show why it is wrong.
enum class SoftmaxAxis {
    Keys,
    Queries
};

// What the caller asks for. Anything not given explicitly is derived deterministically:
// embeddings from the token strings, weights from a seed.
struct Config {
    std::vector<std::string> tokens;  // T entries: the queries (and keys/values in self-attention)
    int C = 0;                        // d_model
    int NH = 1;                       // query heads
    int KVH = 0;                      // key/value heads, dividing NH (0: as many as NH).
                                      // 1 = multi-query, between = grouped-query attention
    bool has_embeddings = false;      // true: `embeddings` is X; false: one vector per token string
    Matrix embeddings;                // (T, C) when has_embeddings
    WeightsKind weights = WeightsKind::Random;
    std::uint32_t seed = 0;                            // for WeightsKind::Random
    Matrix wq, wo;                                     // (C, C), for WeightsKind::Explicit
    Matrix wk, wv;                                     // (C, KVH·HS), for WeightsKind::Explicit
    Positional positional = Positional::None;          // added to X (and to the source), or RoPE
    int position_offset = 0;                           // the first token's position, 0 … kMaxPositionOffset
    bool alibi = false;                                // add ALiBi's −m_h·|i − j| to the scores (alibi.hpp)
    RopePairing rope_pairing = RopePairing::Adjacent;  // which dimensions RoPE turns together
    double rope_theta = 10000.0;                       // θ_p = θ^(−2p/HS)
    // Biases of the projections, as loaded models have them (Q = X·W_Q + b_q … output =
    // concat·W_O + b_o): each one absent, or (1, C) for bq and bo, (1, KVH·HS) for bk and bv.
    std::optional<Matrix> bq, bk, bv, bo;

    // Cross-attention: present = queries from `tokens`, keys and values from the source.
    bool cross = false;
    std::vector<std::string> source_tokens;  // S entries
    bool has_source_embeddings = false;
    Matrix source_embeddings;  // (S, C)

    MaskKind mask = MaskKind::Causal;
    int window = 1;                                             // for MaskKind::Window, ≥ 1
    int prefix = 0;                                             // for MaskKind::Prefix, ≥ 0
    std::vector<std::uint8_t> custom_mask;                      // (T, Tk) for MaskKind::Custom, 1 = masked
    std::vector<std::uint8_t> padding;                          // empty, or Tk entries: 1 = this key is padding
    float mask_fill = -std::numeric_limits<float>::infinity();  // M where masked: −∞ or finite ≤ 0
    bool mask_before_scale = false;                             // (QKᵀ + M)/√d_k instead of QKᵀ/√d_k + M
    bool scale = true;                                          // divide scores by √HS
    float temperature = 1.0f;                                   // softmax(logits / τ)
    bool naive_softmax = false;                                 // e^s without subtracting the row max (overflows)
    SoftmaxAxis softmax_over = SoftmaxAxis::Keys;               // Queries: each column sums to 1, rows do not
                                                                // (full forward pass only)
};

// Everything the forward pass needs, with X, the source and the weights made concrete.
// The inputs are borrowed: where the config gives a matrix as is, the Problem points at the
// config's own (a large input is not copied again on every call), so a Problem must not outlive
// the Config it was resolved from. What resolve makes (embeddings from tokens, positions added,
// generated weights) lives in `made`, whose elements keep their addresses when the Problem moves.
struct Problem {
    int T = 0, Tk = 0, C = 0, NH = 1, KVH = 1;
    const Matrix* x = nullptr;   // (T, C)  queries' input, positions included
    const Matrix* xs = nullptr;  // (Tk, C) keys' and values' input (= x in self-attention)
    bool cross = false;          // xs is a source of its own
    const Matrix *wq = nullptr, *wk = nullptr, *wv = nullptr, *wo = nullptr;
    const Matrix *bq = nullptr, *bk = nullptr, *bv = nullptr, *bo = nullptr;  // (1, n) or none
    std::list<Matrix> made;
    std::vector<std::uint8_t> mask;  // (T, Tk) 1 = masked
    float mask_fill = -std::numeric_limits<float>::infinity();
    bool mask_before_scale = false;
    bool scale = true;
    float temperature = 1.0f;
    bool naive_softmax = false;
    SoftmaxAxis softmax_over = SoftmaxAxis::Keys;
    bool rope = false;
    RotaryTable rotary;  // (T, ⌊HS/2⌋) with rope (self-attention: keys share it)
    bool alibi = false;
    std::vector<float> alibi_slopes;  // (NH) with alibi
    int HS() const { return C / NH; }
    // The key/value head that query head h reads: heads are grouped NH/KVH to a key/value head.
    int kv_head_of(int h) const { return h / (NH / KVH); }

    Problem() = default;
    Problem(Problem&&) = default;
    Problem& operator=(Problem&&) = default;
    Problem(const Problem&) = delete;  // a copy would point into the original's `made`
    Problem& operator=(const Problem&) = delete;
};

struct HeadResult {
    Matrix q;                         // (T, HS)  column slice of Q, rotated by RoPE when it is on
    Matrix k, v;                      // (Tk, HS) column slices of K and V (of this head's key/value head);
                                      //          k rotated by RoPE when it is on
    Matrix scores;                    // (T, Tk)  Q_h·K_hᵀ, divided by √HS when scaling is on
    Matrix bias;                      // (T, Tk)  ALiBi's −m_h·|i − j| (empty without ALiBi)
    Matrix masked;                    // (T, Tk)  the logits before temperature: scores + bias + M
                                      //          (or (QKᵀ + M)/√HS + bias)
    Matrix exps;                      // (T, Tk)  e^(z − max) of z = masked/τ (naive softmax: e^z); with
                                      //          softmax over queries, max is the column's
    Matrix weights;                   // (T, Tk)  softmax(masked / τ) = exps / row_sum; 0 where masked with −∞
                                      //          (over queries: exps / the column's Σ)
    Matrix context;                   // (T, HS)  weights·V_h
    std::vector<float> row_max;       // (T) max of masked/τ over the row (over unmasked keys for −∞)
    std::vector<float> row_sum;       // (T) Σ_j exps(i, j): Σ e^(s − max) (naive softmax: Σ e^s)
    std::vector<float> entropy;       // (T) −Σ a·ln a of the weights, in nats
    std::vector<float> weight_sum;    // (T) Σ_j a_ij: 1 for a visible row when softmax runs over
                                      //     keys; anything when it runs over queries
    std::vector<float> later_weight;  // (T) Σ_{j>i} a_ij: what row i takes from the keys after it
                                      //     (the future, in self-attention without a mask)
};

struct Result {
    int T = 0, Tk = 0, C = 0, NH = 1, KVH = 1, HS = 0;
    Matrix x;                         // (T, C)   X as attention sees it (positions added)
    Matrix xs;                        // (Tk, C)  the source, in cross-attention (else empty)
    Matrix embeddings;                // (T, C)   X before positions (empty without positions)
    Matrix positions;                 // (T, C)   the positional encoding added (empty without)
    Matrix rope_angles;               // (T, ⌊HS/2⌋) RoPE's angle of pair p at each position (or empty)
    std::vector<float> alibi_slopes;  // (NH) ALiBi's m_h (or empty)
    Matrix q;                         // (T, C)
    Matrix k, v;                      // (Tk, KVH·HS)
    Matrix wq, wk, wv, wo;            // the weights used, as resolved from the config
    Matrix bq, bk, bv, bo;            // (1, n) the biases given (empty when absent)
    Matrix mask;                      // (T, Tk)  1 where masked, else 0 (the same for every head)
    std::vector<HeadResult> heads;    // NH entries
    Matrix concat;                    // (T, C)   Concat(context_1 … context_NH)
    Matrix output;                    // (T, C)   concat·W_O
};

// What the forward-only path keeps: the output, and the attention weights of the rows asked for.
// Memory grows as O(T·C + rows·Tk), never O(NH·T²). The other members are scratch space, reused
// between calls so that a recomputation at the same size allocates nothing.
struct OutputOnlyResult {
    int T = 0, Tk = 0, C = 0, NH = 1, KVH = 1, HS = 0;
    Matrix output;                    // (T, C)
    std::vector<int> weight_rows;     // the query rows whose weights were asked for
    std::vector<Matrix> row_weights;  // per head: (weight_rows.size(), Tk)

    Matrix q, k, v, concat;                       // scratch: projections and the concatenated heads
    std::vector<float> k_packed;                  // scratch: K_gᵀ (HS, Tk) of one key/value head, packed
    std::vector<float> v_packed;                  // scratch: V_g (Tk, HS) of one key/value head, packed
    Matrix tile;                                  // scratch: a tile of logits
    Matrix head_out;                              // scratch: (T, HS) head h's weighted sums so far
    std::vector<float> running_max, running_sum;  // scratch: (T) per head
};

// Called now and then during a long computation with the fraction done, in [0, 1]. It lets a
// caller show progress; returning false stops the computation. It must not call back into the core.
using Progress = std::function<bool(double fraction)>;

// What compute() and compute_output_only() return when the progress callback stopped them.
inline constexpr const char* kStoppedMessage = "stopped: the progress callback asked to stop";

// The sizes of a call as the caller gave them: everything that decides how much memory the call
// takes, checked before any input is copied or any storage allocated. Doubles, because a number
// from JavaScript is checked as given, so that a message quotes it exactly (2³¹ stays 2147483648).
struct CallSizes {
    struct Shape {
        double rows = 0, cols = 0;
    };
    bool output_only = false;
    double T = 0;  // query tokens
    bool cross = false;
    double S = 0;                   // source tokens, in cross-attention
    double longest_token = 0;       // UTF-8 bytes of the longest token string
    double C = 0, NH = 1, KVH = 0;  // KVH 0: as many as NH
    bool positional = false;        // sinusoidal positions added to X
    bool rope = false;
    bool alibi = false;
    double position_offset = 0;
    bool has_embeddings = false;
    Shape embeddings;
    bool has_source_embeddings = false;
    Shape source_embeddings;
    bool explicit_weights = false;
    Shape wq, wk, wv, wo;
    double bq = -1, bk = -1, bv = -1, bo = -1;  // entries of each bias given, −1 when absent
    bool rope_half = false;                     // RoPE pairs the halves (p, p + HS/2)
    double rope_theta = 10000.0;
    MaskKind mask = MaskKind::Causal;
    double window = 1, prefix = 0;
    Shape custom_mask;  // MaskKind::Custom
    bool has_padding = false;
    double padding = 0;                     // entries
    double weight_rows = 0;                 // output_only: query rows whose weights are kept
    bool trace = false;                     // trace_output_only (implies output_only)
    double block_rows = 0, block_keys = 0;  // the trace's tile, Br × Bc
    bool decode = false;                    // decode_incremental
};

// The sizes of a native Config (for validate).
CallSizes sizes_of(const Config& config, bool output_only, double weight_rows = 0);

// An empty string when the sizes are acceptable and fit kMemoryBudgetBytes, else a message naming
// the problem; over the budget it says how much would fit.
std::string validate_sizes(const CallSizes& sizes);

// The bytes the engine holds at most during a call of these sizes (inputs, intermediates, result
// and the result's copy for JavaScript). `sizes` must have passed every check but the budget.
double bytes_needed(const CallSizes& sizes);

// The tiles a FlashAttention trace of these sizes records (sizes.trace).
double trace_tiles(const CallSizes& sizes);

// An empty string when `config` is acceptable, else a message naming the problem (for people:
// it is shown on the page and thrown as a JavaScript Error). validate_sizes, then the entries.
std::string validate(const Config& config, bool output_only = false, double weight_rows = 0);

// An empty string when every entry of `rows` (from a caller, as given) is a query row in [0, T).
std::string validate_weight_rows(const std::vector<double>& rows, int T);

// Numbers in messages: whole numbers in full (1000001, 2147483648), others to 9 digits.
std::string number_text(double value);

// Sizes and durations in messages: "513 MiB" (rounded up), "0.25 s", "40 s", "7 min", "5.5 h".
std::string mebibytes(double bytes);
std::string duration_text(double seconds);

// Makes X and the weights concrete, borrowing the config's matrices (see Problem). `config` must
// have passed `validate`. The T×Tk mask matrix is built unless `materialize_mask` is false (the
// forward-only path evaluates the rule instead).
Problem resolve(const Config& config, bool materialize_mask = true);

// The two implementations of the same forward pass. `result` is resized as needed and reuses its
// storage between calls.
void forward_reference(const Problem& problem, Result& result);
// forward_simd returns false when `progress` stopped it (`result` is then incomplete).
bool forward_simd(const Problem& problem, Result& result, const Progress& progress = {});

// The forward-only path: the same output as the full forward pass (to 1e-5), computed in tiles
// of queries × keys with an online softmax (running max and running sum, as in FlashAttention),
// skipping tiles that the mask hides entirely. Also returns the weights of `weight_rows`.
std::string compute_output_only(const Config& config, const std::vector<int>& weight_rows,
                                OutputOnlyResult& result, const Progress& progress = {});

// A recording of the forward-only path's tiles (FlashAttention's forward pass, tile by tile), for
// T ≤ kMaxTokensTrace and a tile of Br queries × Bc keys chosen by the caller. Tiles are listed in
// the order the path visits them: head by head, block of queries by block, tile of keys by tile.
// For a tile of `rows` × `keys` that is not skipped, the flat arrays hold, in that order:
//   logits   rows·keys  z = (scaled score + bias + M)/τ, −∞ where masked with −∞
//   max, sum rows       the running max m and running sum ℓ of each row after the tile
//   rescale  rows       e^(m_old − m_new), the factor applied to the row's partial output
//                       (and to ℓ) before this tile's keys were added; 1 while m is unchanged
//   partial  rows·HS    the un-normalised output o = Σ e^(z − m)·v of each row after the tile
// A skipped tile (hidden entirely by a −∞ mask) is listed and has no entries.
struct FlashTrace {
    int T = 0, Tk = 0, C = 0, NH = 1, KVH = 1, HS = 0, block_rows = 0, block_keys = 0;
    Matrix tiles;  // (n, 6): head, first row, rows, first key, keys, skipped (1 or 0)
    std::vector<float> logits, max, sum, rescale, partial;
    std::vector<Matrix> context;  // per head (T, HS): o / ℓ, the head's output
    Matrix output;                // (T, C) the same output as compute_output_only's
};

// Runs the forward-only path with Br × Bc tiles and records every step (see FlashTrace).
std::string trace_output_only(const Config& config, int block_rows, int block_keys, FlashTrace& trace);

// Generation as a decoder runs it, one token per step with a KV cache: at step t only token t's
// q, k and v are computed (k rotated at position t with RoPE), k and v are appended to the cache,
// and token t's attention row is computed against the cache (t + 1 keys). Causal self-attention
// only, T ≤ kMaxTokensDecode. The full causal forward pass runs beside it for the comparison.
struct DecodeResult {
    int T = 0, C = 0, NH = 1, KVH = 1, HS = 0;
    Matrix k_cache, v_cache;        // (T, KVH·HS) the cache after the last step; after step t
                                    //             it holds rows 0 … t
    std::vector<Matrix> weights;    // per head (T, T): row t computed at step t (0 after t)
    Matrix output;                  // (T, C) row t computed at step t
    std::vector<float> difference;  // (T) largest |incremental − full| over step t's weight rows
                                    //     (every head) and its output row
    // Multiply-adds of step t (doubles: exact up to 2⁵³). With the cache: token t's projections
    // (q, k, v and the output), its scores and weighted sum against t + 1 keys. Without: the full
    // causal pass over tokens 0 … t again (every projection, and the visible pairs only).
    std::vector<double> madds_cached, madds_uncached;
    double cache_bytes_per_token = 0;  // per layer: K and V, KVH·HS floats each, 4 bytes a float
};

std::string decode_incremental(const Config& config, DecodeResult& result);

// What only the incremental decode refuses among a config's values (validate_sizes has checked
// its sizes with CallSizes::decode): "" when acceptable.
std::string validate_decode(const Config& config);

// validate → resolve → forward. Returns the validation message (empty on success); on a refusal
// `result` is left untouched; when `progress` stops the computation, `result` is emptied (its
// storage freed) and kStoppedMessage returned. compute_output_only does the same.
std::string compute(const Config& config, Result& result,
                    Implementation implementation = Implementation::Simd,
                    const Progress& progress = {});

// The sinusoidal positional encoding of "Attention Is All You Need", (T, C), for positions
// offset … offset + T − 1: P[t][2i] = sin(pos / 10000^(2i/C)), P[t][2i+1] = cos(pos / 10000^(2i/C)).
Matrix sinusoidal_positions(int T, int C, int offset = 0);

// Names the SIMD instruction set the xsimd implementation was compiled for (e.g. "sse4.1",
// "fma3+avx2"), or "scalar" when the build has none and forward_simd is the reference.
std::string simd_arch_name();

}  // namespace attn
