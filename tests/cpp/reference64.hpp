// An independent float64 reference for the tests: the textbook formulas in double precision,
// written without looking at either float32 implementation. Every float32 result must match it
// within the tolerance of `close()` below.
#pragma once

#include <cmath>
#include <limits>
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
};

struct Forward {
    Mat q, k, v, concat, output;
    std::vector<Head> heads;
};

inline Forward forward(const attn::Problem& p) {
    const double inf = std::numeric_limits<double>::infinity();
    const int T = p.T, HS = p.C / p.NH;
    Forward f;
    const Mat x = from(p.x);
    f.q = mul(x, from(p.wq));
    f.k = mul(x, from(p.wk));
    f.v = mul(x, from(p.wv));
    f.concat = Mat(T, std::vector<double>(p.C, 0.0));
    for (int h = 0; h < p.NH; ++h) {
        Head head;
        head.scores = head.masked = head.weights = Mat(T, std::vector<double>(T, 0.0));
        head.context = Mat(T, std::vector<double>(HS, 0.0));
        for (int i = 0; i < T; ++i) {
            for (int j = 0; j < T; ++j) {
                double dot = 0.0;
                for (int c = 0; c < HS; ++c) dot += f.q[i][h * HS + c] * f.k[j][h * HS + c];
                head.scores[i][j] = p.scale ? dot / std::sqrt(double(HS)) : dot;
                const bool future = p.mask == attn::MaskKind::Causal && j > i;
                head.masked[i][j] = future ? -inf : head.scores[i][j];
            }
            double max = -inf, sum = 0.0;
            for (int j = 0; j < T; ++j) max = std::max(max, head.masked[i][j]);
            for (int j = 0; j < T; ++j) sum += std::exp(head.masked[i][j] - max);
            for (int j = 0; j < T; ++j) head.weights[i][j] = std::exp(head.masked[i][j] - max) / sum;
            for (int c = 0; c < HS; ++c) {
                for (int j = 0; j < T; ++j) head.context[i][c] += head.weights[i][j] * f.v[j][h * HS + c];
                f.concat[i][h * HS + c] = head.context[i][c];
            }
        }
        f.heads.push_back(head);
    }
    f.output = mul(f.concat, from(p.wo));
    return f;
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
inline double worst(const attn::Matrix& got, const Mat& ref, double tolerance = 1e-5) {
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

}  // namespace ref64
