// Input validation: every problem a person can cause gets a message that names it, before any
// computation starts.
#include <cmath>
#include <sstream>

#include "attention.hpp"

namespace attn {
namespace {

// Entries are bounded so that no intermediate can overflow float32: with |entries| ≤ 1e6 and
// C ≤ 1024, |Q| ≤ 1e15 and |scores| ≤ 1e33 < 3.4e38. Hence no ∞ and no NaN downstream.
constexpr float kMaxEntry = 1e6f;

std::string check_matrix(const char* name, const Matrix& m, int rows, int cols,
                         const char* shape_meaning) {
    std::ostringstream out;
    if (m.rows != rows || m.cols != cols ||
        m.data.size() != std::size_t(rows) * std::size_t(cols)) {
        out << name << " must be " << rows << "\u00d7" << cols << " (" << shape_meaning
            << "), got " << m.rows << "\u00d7" << m.cols;
        return out.str();
    }
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const float value = m(r, c);
            if (!std::isfinite(value)) {
                out << name << "[" << r << "][" << c << "] is not a finite number";
                return out.str();
            }
            if (std::fabs(value) > kMaxEntry) {
                out << name << "[" << r << "][" << c << "] = " << value
                    << " is too large (the limit is \u00b11e6)";
                return out.str();
            }
        }
    }
    return {};
}

}  // namespace

std::string validate(const Config& config) {
    std::ostringstream out;
    const int T = static_cast<int>(config.tokens.size());
    if (T == 0) return "no tokens: give at least one token";
    if (config.tokens.size() > std::size_t(kMaxTokens)) {
        out << "too many tokens: " << config.tokens.size() << " (the limit is " << kMaxTokens << ")";
        return out.str();
    }
    if (config.C < 1 || config.C > kMaxModelWidth) {
        out << "dModel must be between 1 and " << kMaxModelWidth << " (got " << config.C << ")";
        return out.str();
    }
    if (config.NH < 1 || config.NH > config.C) {
        out << "heads must be between 1 and dModel = " << config.C << " (got " << config.NH << ")";
        return out.str();
    }
    if (config.C % config.NH != 0) {
        out << "heads (" << config.NH << ") must divide dModel (" << config.C << ")";
        return out.str();
    }
    if (config.has_embeddings) {
        auto problem = check_matrix("embeddings", config.embeddings, T, config.C,
                                    "one row of dModel numbers per token");
        if (!problem.empty()) return problem;
    }
    if (config.weights == WeightsKind::Explicit) {
        const std::pair<const char*, const Matrix*> weights[] = {
            {"wq", &config.wq}, {"wk", &config.wk}, {"wv", &config.wv}, {"wo", &config.wo}};
        for (const auto& [name, matrix] : weights) {
            auto problem = check_matrix(name, *matrix, config.C, config.C, "dModel\u00d7dModel");
            if (!problem.empty()) return problem;
        }
    }
    return {};
}

}  // namespace attn
