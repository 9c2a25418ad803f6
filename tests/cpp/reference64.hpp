// An independent float64 reference for the tests: the textbook formulas in double precision,
// written without looking at either float32 implementation. Every float32 result must match it
// within the tolerance of `close()` below.
#pragma once

#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "attention.hpp"

namespace ref64 {

using Mat = std::vector<std::vector<double>>;

inline Mat from(const attn::Matrix& m) {
    Mat out(m.rows, std::vector<double>(m.cols));
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.cols; ++c) out[r][c] = m(r, c);
    return out;
}

inline Mat mul(const Mat& a, const Mat& b) {
    Mat out(a.size(), std::vector<double>(b[0].size(), 0.0));
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t k = 0; k < b.size(); ++k)
            for (size_t j = 0; j < b[0].size(); ++j) out[i][j] += a[i][k] * b[k][j];
    return out;
}

struct Head {
    Mat scores, masked, weights, context;
    std::vector<double> row_max, row_sum, entropy, weight_sum, later_weight;
};

struct Forward {
    Mat q, k, v, concat, output;
    std::vector<std::vector<bool>> mask;
    std::vector<Head> heads;
};

// The mask, from the config's own words (not from the core's build_mask).
inline bool masked(const attn::Config& c, int i, int j) {
    if (!c.padding.empty() && c.padding[j]) return true;
    switch (c.mask) {
        case attn::MaskKind::None: return false;
        case attn::MaskKind::Causal: return j > i;                       // the future
        case attn::MaskKind::Window: return j > i || i - j >= c.window;  // future, or too far back
        case attn::MaskKind::Prefix: return j > i && !(i < c.prefix && j < c.prefix);
        case attn::MaskKind::Custom: {
            const int Tk = c.cross ? int(c.source_tokens.size()) : int(c.tokens.size());
            return c.custom_mask[size_t(i) * Tk + j] != 0;
        }
    }
    return false;
}

// ALiBi's slopes as the paper's reference code (ofirpress/attention_with_linear_biases) computes
// them: a geometric sequence from 2^(−8/n) for a power of two n, otherwise the closest smaller
// power of two's slopes and then every other slope of twice that.
inline std::vector<double> alibi_slopes(int n) {
    const auto power_of_2 = [](int m) {
        std::vector<double> slopes;
        const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(double(m)) - 3)));
        for (int i = 0; i < m; ++i) slopes.push_back(start * std::pow(start, i));
        return slopes;
    };
    if (std::floor(std::log2(double(n))) == std::log2(double(n))) return power_of_2(n);
    const int closest = 1 << int(std::floor(std::log2(double(n))));
    std::vector<double> slopes = power_of_2(closest);
    const std::vector<double> more = alibi_slopes(2 * closest);
    for (size_t i = 0; slopes.size() < size_t(n); i += 2) slopes.push_back(more[i]);
    return slopes;
}

// RoPE in double on the columns [first, first + HS) of row `row` at position `pos`: pairs turned
// by pos·θ^(−2p/HS) — adjacent pairs (2p, 2p+1), where an odd HS leaves its last column as it
// is, or (`half`) Hugging Face's rotate_half pairs (p, p + HS/2).
inline void rotate(std::vector<double>& row, int first, int HS, double pos, double theta = 10000.0,
                   bool half = false) {
    for (int p = 0; p < HS / 2; ++p) {
        const double angle = pos * std::pow(theta, -2.0 * p / HS);
        const int i = half ? first + p : first + 2 * p, j = half ? i + HS / 2 : i + 1;
        const double x = row[i], y = row[j];
        row[i] = x * std::cos(angle) - y * std::sin(angle);
        row[j] = x * std::sin(angle) + y * std::cos(angle);
    }
}

// Adds a bias (when the config gives one) to every row.
inline void add_bias(Mat& m, const std::optional<attn::Matrix>& bias) {
    if (!bias) return;
    for (auto& row : m)
        for (size_t c = 0; c < row.size(); ++c) row[c] += bias->data[c];
}

// `p` supplies the resolved inputs (X, the source, the weights); everything else comes from
// the config and the textbook formulas.
inline Forward forward(const attn::Config& c, const attn::Problem& p) {
    const double inf = std::numeric_limits<double>::infinity();
    const int T = p.T, Tk = p.Tk, HS = p.C / p.NH, group = p.NH / p.KVH;
    Forward f;
    const Mat x = from(*p.x);
    const Mat xs = c.cross ? from(*p.xs) : x;
    f.q = mul(x, from(*p.wq));
    f.k = mul(xs, from(*p.wk));
    f.v = mul(xs, from(*p.wv));
    add_bias(f.q, c.bq);
    add_bias(f.k, c.bk);
    add_bias(f.v, c.bv);
    if (c.positional == attn::Positional::Rope) {
        const bool half = c.rope_pairing == attn::RopePairing::Half;
        for (int i = 0; i < T; ++i) {
            for (int h = 0; h < p.NH; ++h) rotate(f.q[i], h * HS, HS, c.position_offset + i, c.rope_theta, half);
            for (int g = 0; g < p.KVH; ++g) rotate(f.k[i], g * HS, HS, c.position_offset + i, c.rope_theta, half);
        }
    }
    const std::vector<double> slopes = alibi_slopes(p.NH);
    f.mask.assign(T, std::vector<bool>(Tk));
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < Tk; ++j) f.mask[i][j] = masked(c, i, j);
    f.concat = Mat(T, std::vector<double>(p.C, 0.0));
    const double fill = c.mask_fill;
    const double scale = c.scale ? 1.0 / std::sqrt(double(HS)) : 1.0;
    for (int h = 0; h < p.NH; ++h) {
        const int g = h / group;  // the key/value head of query head h
        Head head;
        head.scores = head.masked = head.weights = Mat(T, std::vector<double>(Tk, 0.0));
        head.context = Mat(T, std::vector<double>(HS, 0.0));
        head.row_max.assign(T, 0.0);
        head.row_sum.assign(T, 0.0);
        head.entropy.assign(T, 0.0);
        for (int i = 0; i < T; ++i) {
            bool any_visible = false;
            for (int j = 0; j < Tk; ++j) {
                double dot = 0.0;
                for (int e = 0; e < HS; ++e) dot += f.q[i][h * HS + e] * f.k[j][g * HS + e];
                const double m = f.mask[i][j] ? fill : 0.0;
                const double bias = c.alibi ? -slopes[h] * std::abs(i - j) : 0.0;
                head.scores[i][j] = dot * scale;
                head.masked[i][j] = c.mask_before_scale ? (dot + m) * scale + bias : dot * scale + bias + m;
                any_visible = any_visible || !f.mask[i][j];
            }
            if (c.softmax_over == attn::SoftmaxAxis::Queries) continue;  // columns, below
            if (!any_visible && std::isinf(fill)) {
                head.row_max[i] = -inf;  // fully masked with −∞: all-zero weights by definition
                continue;
            }
            double max = -inf, sum = 0.0;
            for (int j = 0; j < Tk; ++j) max = std::max(max, head.masked[i][j] / c.temperature);
            const double shift = c.naive_softmax ? 0.0 : max;
            for (int j = 0; j < Tk; ++j) sum += std::exp(head.masked[i][j] / c.temperature - shift);
            for (int j = 0; j < Tk; ++j) {
                const double a = std::exp(head.masked[i][j] / c.temperature - shift) / sum;
                head.weights[i][j] = a;
                if (a > 0) head.entropy[i] -= a * std::log(a);
            }
            head.row_max[i] = max;
            head.row_sum[i] = sum;
        }
        if (c.softmax_over == attn::SoftmaxAxis::Queries) {
            // softmax over each key column: Σ_i a_ij = 1 where some query sees key j
            Mat exps(T, std::vector<double>(Tk, 0.0));
            for (int j = 0; j < Tk; ++j) {
                double max = -inf, sum = 0.0;
                for (int i = 0; i < T; ++i) max = std::max(max, head.masked[i][j] / c.temperature);
                if (max == -inf) continue;  // every query masks key j: zeros
                const double shift = c.naive_softmax ? 0.0 : max;
                for (int i = 0; i < T; ++i) sum += exps[i][j] = std::exp(head.masked[i][j] / c.temperature - shift);
                for (int i = 0; i < T; ++i) head.weights[i][j] = exps[i][j] / sum;
            }
            for (int i = 0; i < T; ++i) {
                head.row_max[i] = -inf;
                for (int j = 0; j < Tk; ++j) {
                    head.row_max[i] = std::max(head.row_max[i], head.masked[i][j] / c.temperature);
                    head.row_sum[i] += exps[i][j];
                    if (head.weights[i][j] > 0) head.entropy[i] -= head.weights[i][j] * std::log(head.weights[i][j]);
                }
            }
        }
        head.weight_sum.assign(T, 0.0);
        head.later_weight.assign(T, 0.0);
        for (int i = 0; i < T; ++i) {
            for (int j = 0; j < Tk; ++j) head.weight_sum[i] += head.weights[i][j];
            for (int j = i + 1; j < Tk; ++j) head.later_weight[i] += head.weights[i][j];
            for (int e = 0; e < HS; ++e) {
                for (int j = 0; j < Tk; ++j) head.context[i][e] += head.weights[i][j] * f.v[j][g * HS + e];
                f.concat[i][h * HS + e] = head.context[i][e];
            }
        }
        f.heads.push_back(head);
    }
    f.output = mul(f.concat, from(*p.wo));
    add_bias(f.output, c.bo);
    return f;
}

inline Forward forward(const attn::Config& c) {
    return forward(c, attn::resolve(c));
}

// The project's tolerance: |a − ref| ≤ 1e-5 · max(1, |ref|) — relative for values above 1,
// absolute 1e-5 below, where the values shown on screen have three decimals. Infinities must
// match exactly (masked entries are −∞ in both).
inline bool close(float a, double ref, double tolerance = 1e-5) {
    if (std::isinf(ref) || std::isinf(a)) return double(a) == ref;
    return std::fabs(double(a) - ref) <= tolerance * std::max(1.0, std::fabs(ref));
}

// Largest violation of `close` over a matrix, in units of the tolerance (≤ 1 passes); a NaN or an
// infinity mismatch counts as infinitely far.
inline double worst_matrix(const attn::Matrix& got, const Mat& ref, double tolerance = 1e-5) {
    double worst_ratio = 0.0;
    for (int r = 0; r < got.rows; ++r) {
        for (int c = 0; c < got.cols; ++c) {
            const float a = got(r, c);
            const double b = ref[r][c];
            if (std::isnan(a)) return std::numeric_limits<double>::infinity();
            if (std::isinf(a) || std::isinf(b)) {
                if (double(a) != b) return std::numeric_limits<double>::infinity();
                continue;
            }
            const double ratio = std::fabs(a - b) / (tolerance * std::max(1.0, std::fabs(b)));
            worst_ratio = std::max(worst_ratio, ratio);
        }
    }
    return worst_ratio;
}

// The same for a row statistic (row_max, row_sum, entropy).
inline double worst(const std::vector<float>& got, const std::vector<double>& ref,
                    double tolerance = 1e-5) {
    attn::Matrix m(1, int(got.size()));
    m.data = got;
    return worst_matrix(m, Mat{ref}, tolerance);
}

inline double worst(const attn::Matrix& got, const Mat& ref, double tolerance = 1e-5) {
    return worst_matrix(got, ref, tolerance);
}

}  // namespace ref64
