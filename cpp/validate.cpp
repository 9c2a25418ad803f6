// Input validation: every problem a person can cause gets a message that names it, before any
// computation starts.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "attention.hpp"

namespace attn {
namespace {

// Entries are bounded so that no intermediate can overflow float32: with |entries| ≤ 1e6 and
// C ≤ 1024, |Q| ≤ 1e15 and |scores| ≤ 1e33 < 3.4e38. Hence no ∞ and no NaN downstream.
constexpr float kMaxEntry = 1e6f;

// Index of the first entry that is not a finite number within ±kMaxEntry, or n when all are.
// One comparison, |v| ≤ kMaxEntry, is false for NaN and ±∞ too; it runs branch-free over chunks
// so that the compiler vectorises it (a 2048×768 input is checked in well under a millisecond).
std::size_t first_bad_entry(const float* v, std::size_t n) {
    constexpr std::size_t kChunk = 1024;
    for (std::size_t start = 0; start < n; start += kChunk) {
        const std::size_t end = std::min(n, start + kChunk);
        bool all_good = true;
        for (std::size_t i = start; i < end; ++i) all_good &= std::fabs(v[i]) <= kMaxEntry;
        if (all_good) continue;
        for (std::size_t i = start; i < end; ++i) {
            if (!(std::fabs(v[i]) <= kMaxEntry)) return i;
        }
    }
    return n;
}

std::string check_matrix(const char* name, const Matrix& m, int rows, int cols,
                         const char* shape_meaning) {
    std::ostringstream out;
    if (m.rows != rows || m.cols != cols ||
        m.data.size() != std::size_t(rows) * std::size_t(cols)) {
        out << name << " must be " << rows << "\u00d7" << cols << " (" << shape_meaning
            << "), got " << m.rows << "\u00d7" << m.cols;
        return out.str();
    }
    const std::size_t bad = first_bad_entry(m.data.data(), m.data.size());
    if (bad == m.data.size()) return {};
    const float value = m.data[bad];
    out << name << "[" << bad / cols << "][" << bad % cols << "]";
    if (!std::isfinite(value)) {
        out << " is not a finite number";
    } else {
        out << " = " << value << " is too large (the limit is \u00b11e6)";
    }
    return out.str();
}

}  // namespace

std::string validate(const Config& config, int max_tokens) {
    std::ostringstream out;
    const int T = static_cast<int>(config.tokens.size());
    if (T == 0) return "no tokens: give at least one token";
    if (config.tokens.size() > std::size_t(max_tokens)) {
        out << "too many tokens: " << config.tokens.size() << " (the limit is " << max_tokens << ")";
        return out.str();
    }
    const int S = static_cast<int>(config.source_tokens.size());
    if (config.cross) {
        if (S == 0) return "no source tokens: cross-attention needs at least one source token";
        if (config.source_tokens.size() > std::size_t(max_tokens)) {
            out << "too many source tokens: " << S << " (the limit is " << max_tokens << ")";
            return out.str();
        }
    }
    const int Tk = config.cross ? S : T;
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
    const int KVH = config.KVH == 0 ? config.NH : config.KVH;
    if (KVH < 1 || KVH > config.NH || config.NH % KVH != 0) {
        out << "kvHeads (" << KVH << ") must divide heads (" << config.NH << ")";
        return out.str();
    }
    if (config.has_embeddings) {
        auto problem = check_matrix("embeddings", config.embeddings, T, config.C,
                                    "one row of dModel numbers per token");
        if (!problem.empty()) return problem;
    }
    if (config.cross && config.has_source_embeddings) {
        auto problem = check_matrix("source.embeddings", config.source_embeddings, S, config.C,
                                    "one row of dModel numbers per source token");
        if (!problem.empty()) return problem;
    }
    if (config.weights == WeightsKind::Explicit) {
        const int kv_width = KVH * (config.C / config.NH);
        const struct { const char* name; const Matrix* m; int cols; const char* meaning; } weights[] = {
            {"wq", &config.wq, config.C, "dModel\u00d7dModel"},
            {"wk", &config.wk, kv_width, "dModel\u00d7(kvHeads\u00b7dK)"},
            {"wv", &config.wv, kv_width, "dModel\u00d7(kvHeads\u00b7dK)"},
            {"wo", &config.wo, config.C, "dModel\u00d7dModel"}};
        for (const auto& w : weights) {
            auto problem = check_matrix(w.name, *w.m, config.C, w.cols, w.meaning);
            if (!problem.empty()) return problem;
        }
    }
    if (config.mask == MaskKind::Window && config.window < 1) {
        out << "window must be at least 1 (got " << config.window << ")";
        return out.str();
    }
    if (config.mask == MaskKind::Prefix && config.prefix < 0) {
        out << "prefix must be 0 or more (got " << config.prefix << ")";
        return out.str();
    }
    if (config.mask == MaskKind::Custom &&
        config.custom_mask.size() != std::size_t(T) * std::size_t(Tk)) {
        out << "customMask must be " << T << "\u00d7" << Tk << " (one row per query token, one "
            << "column per key token)";
        return out.str();
    }
    if (!config.padding.empty() && config.padding.size() != std::size_t(Tk)) {
        out << "padding must have one entry per " << (config.cross ? "source " : "") << "token ("
            << Tk << "), got " << config.padding.size();
        return out.str();
    }
    const float fill = config.mask_fill;
    if (std::isnan(fill) || fill > 0.0f || (fill < -1e30f && !std::isinf(fill))) {
        out << "maskFill must be -Infinity or a number between -1e30 and 0 (got " << fill << ")";
        return out.str();
    }
    if (!(config.temperature >= kMinTemperature && config.temperature <= kMaxTemperature)) {
        out << "temperature must be between " << kMinTemperature << " and " << kMaxTemperature
            << " (got " << config.temperature << ")";
        return out.str();
    }
    return {};
}

}  // namespace attn
