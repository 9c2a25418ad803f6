// validate → resolve → forward: the one entry point callers use.
#include "attention.hpp"

#include <cmath>

#include "mask.hpp"
#include "weights.hpp"

namespace attn {

Matrix sinusoidal_positions(int T, int C) {
    // Computed in double and rounded once, so every platform's libm gives the same float (or
    // at worst one ulp apart).
    Matrix p(T, C);
    for (int t = 0; t < T; ++t) {
        for (int c = 0; c < C; ++c) {
            const int pair = c / 2;
            const double angle = t / std::pow(10000.0, 2.0 * pair / C);
            p(t, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
    return p;
}

namespace {

void add_in_place(Matrix& m, const Matrix& addend) {
    for (std::size_t n = 0; n < m.data.size(); ++n) m.data[n] += addend.data[n];
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

    p.x = config.has_embeddings ? config.embeddings : token_embeddings(config.tokens, config.C);
    if (config.positional == Positional::Sinusoidal) add_in_place(p.x, sinusoidal_positions(p.T, p.C));
    if (config.cross) {
        p.xs = config.has_source_embeddings ? config.source_embeddings
                                            : token_embeddings(config.source_tokens, config.C);
        // Each sequence counts its positions from 0.
        if (config.positional == Positional::Sinusoidal) add_in_place(p.xs, sinusoidal_positions(p.Tk, p.C));
    }

    const int kv_width = p.KVH * p.HS();
    switch (config.weights) {
        case WeightsKind::Identity:
            // A C×(KVH·HS) "identity" keeps the first KVH·HS columns: with KVH = NH it is I_C.
            p.wq = p.wo = identity(config.C);
            p.wk = identity_columns(config.C, kv_width);
            p.wv = p.wk;
            break;
        case WeightsKind::Random:
            p.wq = random_weights(config.C, config.C, config.seed, WeightRole::Query);
            p.wk = random_weights(config.C, kv_width, config.seed, WeightRole::Key);
            p.wv = random_weights(config.C, kv_width, config.seed, WeightRole::Value);
            p.wo = random_weights(config.C, config.C, config.seed, WeightRole::Output);
            break;
        case WeightsKind::Explicit:
            p.wq = config.wq;
            p.wk = config.wk;
            p.wv = config.wv;
            p.wo = config.wo;
            break;
    }
    if (materialize_mask) p.mask = build_mask(config, p.T, p.Tk);
    return p;
}

std::string compute(const Config& config, Result& result, Implementation implementation,
                    const Progress& progress) {
    std::string problem = validate(config);
    if (!problem.empty()) return problem;
    const Problem resolved = resolve(config);
    if (implementation == Implementation::Reference) {
        forward_reference(resolved, result);
    } else {
        forward_simd(resolved, result, progress);
    }
    // What the page shows besides the forward pass: the raw embeddings and positions.
    if (config.positional == Positional::Sinusoidal) {
        result.positions = sinusoidal_positions(resolved.T, resolved.C);
        result.embeddings = config.has_embeddings ? config.embeddings
                                                  : token_embeddings(config.tokens, config.C);
    } else {
        result.positions.resize(0, 0);
        result.embeddings.resize(0, 0);
    }
    return {};
}

}  // namespace attn
