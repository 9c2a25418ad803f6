// validate → resolve → forward: the one entry point callers use.
#include "attention.hpp"

#include "weights.hpp"

namespace attn {

Problem resolve(const Config& config) {
    Problem p;
    p.T = static_cast<int>(config.tokens.size());
    p.C = config.C;
    p.NH = config.NH;
    p.mask = config.mask;
    p.scale = config.scale;
    p.x = config.has_embeddings ? config.embeddings : token_embeddings(config.tokens, config.C);
    switch (config.weights) {
        case WeightsKind::Identity:
            p.wq = p.wk = p.wv = p.wo = identity(config.C);
            break;
        case WeightsKind::Random:
            p.wq = random_weights(config.C, config.seed, WeightRole::Query);
            p.wk = random_weights(config.C, config.seed, WeightRole::Key);
            p.wv = random_weights(config.C, config.seed, WeightRole::Value);
            p.wo = random_weights(config.C, config.seed, WeightRole::Output);
            break;
        case WeightsKind::Explicit:
            p.wq = config.wq;
            p.wk = config.wk;
            p.wv = config.wv;
            p.wo = config.wo;
            break;
    }
    return p;
}

std::string compute(const Config& config, Result& result, Implementation implementation) {
    std::string problem = validate(config);
    if (!problem.empty()) return problem;
    const Problem resolved = resolve(config);
    if (implementation == Implementation::Reference) {
        forward_reference(resolved, result);
    } else {
        forward_simd(resolved, result);
    }
    return {};
}

}  // namespace attn
