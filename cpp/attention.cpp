// validate → resolve → forward: the one entry point callers use.
#include "attention.hpp"

#include <cmath>

#include "alibi.hpp"
#include "mask.hpp"
#include "weights.hpp"

namespace attn {

Matrix sinusoidal_positions(int T, int C, int offset) {
    // Computed in double and rounded once, so every platform's libm gives the same float (or
    // at worst one ulp apart).
    Matrix p(T, C);
    for (int t = 0; t < T; ++t) {
        for (int c = 0; c < C; ++c) {
            const int pair = c / 2;
            const double angle = (double(offset) + t) / std::pow(10000.0, 2.0 * pair / C);
            p(t, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return p;
}

namespace {

void add_in_place(Matrix& m, const Matrix& addend) {
    for (std::size_t n = 0; n < m.data.size(); ++n) m.data[n] += addend.data[n];
}

// A sequence's input as attention sees it: the given embeddings (borrowed as they are) or the
// tokens' own, with the positions added (a matrix of its own, kept in `made`).
const Matrix* sequence_input(const Config& config, bool has_embeddings, const Matrix& embeddings,
                             const std::vector<std::string>& tokens, std::list<Matrix>& made) {
    const bool positions = config.positional == Positional::Sinusoidal;
    if (has_embeddings && !positions) return &embeddings;
    Matrix& x = made.emplace_back(has_embeddings ? embeddings : token_embeddings(tokens, config.C));
    // Each sequence counts its positions from the same offset (0 unless asked).
    if (positions) add_in_place(x, sinusoidal_positions(x.rows, x.cols, config.position_offset));
    return &x;
}

}  // namespace

Problem resolve(const Config& config, bool materialize_mask) {
    Problem p;
    p.T = static_cast<int>(config.tokens.size());
    p.Tk = config.cross ? static_cast<int>(config.source_tokens.size()) : p.T;
    p.C = config.C;
    p.NH = config.NH;
    p.KVH = config.KVH == 0 ? config.NH : config.KVH;
    p.mask_fill = config.mask_fill;
    p.mask_before_scale = config.mask_before_scale;
    p.scale = config.scale;
    p.temperature = config.temperature;
    p.naive_softmax = config.naive_softmax;
    p.softmax_over = config.softmax_over;
    // (validate refuses RoPE and ALiBi in cross-attention: they measure distances within one sequence)
    p.rope = config.positional == Positional::Rope;
    if (p.rope) p.rotary = rotary_table(p.T, p.HS(), config.position_offset, config.rope_theta, config.rope_pairing);
    p.alibi = config.alibi;
    if (p.alibi) p.alibi_slopes = alibi_slopes(p.NH);

    p.x = sequence_input(config, config.has_embeddings, config.embeddings, config.tokens, p.made);
    p.cross = config.cross;
    p.xs = config.cross ? sequence_input(config, config.has_source_embeddings,
                                         config.source_embeddings, config.source_tokens, p.made)
                        : p.x;

    const int kv_width = p.KVH * p.HS();
    const auto make = [&p](Matrix m) { return &p.made.emplace_back(std::move(m)); };
    switch (config.weights) {
        case WeightsKind::Identity:
            // A C×(KVH·HS) "identity" keeps the first KVH·HS columns: with KVH = NH it is I_C.
            p.wq = p.wo = make(identity(config.C));
            p.wk = p.wv = make(identity_columns(config.C, kv_width));
            break;
        case WeightsKind::Random:
            p.wq = make(random_weights(config.C, config.C, config.seed, WeightRole::Query));
            p.wk = make(random_weights(config.C, kv_width, config.seed, WeightRole::Key));
            p.wv = make(random_weights(config.C, kv_width, config.seed, WeightRole::Value));
            p.wo = make(random_weights(config.C, config.C, config.seed, WeightRole::Output));
            break;
        case WeightsKind::Explicit:
            p.wq = &config.wq;
            p.wk = &config.wk;
            p.wv = &config.wv;
            p.wo = &config.wo;
            break;
    }
    const auto bias = [](const std::optional<Matrix>& b) { return b ? &*b : nullptr; };
    p.bq = bias(config.bq);
    p.bk = bias(config.bk);
    p.bv = bias(config.bv);
    p.bo = bias(config.bo);
    if (materialize_mask) p.mask = build_mask(config, p.T, p.Tk);
    return p;
}

std::string compute(const Config& config, Result& result, Implementation implementation,
                    const Progress& progress) {
    std::string problem = validate(config);
    if (!problem.empty()) return problem;
    const Problem resolved = resolve(config);  // borrows from config, which outlives it
    if (implementation == Implementation::Reference) {
        forward_reference(resolved, result);
    } else if (!forward_simd(resolved, result, progress)) {
        result = Result{};  // an incomplete result is of no use: its storage goes back
        return kStoppedMessage;
    }
    // What the page shows besides the forward pass: the raw embeddings and positions.
    result.rope_angles = resolved.rope ? resolved.rotary.angle : Matrix{};
    result.alibi_slopes = resolved.alibi_slopes;
    if (config.positional == Positional::Sinusoidal) {
        result.positions = sinusoidal_positions(resolved.T, resolved.C, config.position_offset);
        result.embeddings = config.has_embeddings ? config.embeddings
                                                  : token_embeddings(config.tokens, config.C);
    } else {
        result.positions.resize(0, 0);
        result.embeddings.resize(0, 0);
    }
    return {};
}

}  // namespace attn
