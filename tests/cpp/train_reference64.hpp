// An independent float64 forward pass of the trainable model, written from the model's
// definition (cpp/train/model.hpp) with plain loops and nothing shared with the core but the
// parameter struct: the reference for the gradient checks by central finite differences.
#pragma once

#include <cmath>
#include <vector>

#include "attention.hpp"
#include "train/model.hpp"

namespace reference64 {

using Mat = std::vector<std::vector<double>>;

// One parameter entry moved by `delta` in float64 (a float32 step would round): finite differences.
struct Perturbation {
    const attn::Matrix* tensor = nullptr;
    std::size_t index = 0;
    double delta = 0;
};
inline Perturbation perturbation;

inline double at(const attn::Matrix& m, std::size_t index) {
    const double value = m.data[index];
    return &m == perturbation.tensor && index == perturbation.index ? value + perturbation.delta : value;
}

inline Mat of(const attn::Matrix& m) {
    Mat out(m.rows, std::vector<double>(m.cols));
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.cols; ++c) out[r][c] = at(m, std::size_t(r) * m.cols + c);
    return out;
}

inline Mat product(const Mat& a, const Mat& b) {
    Mat out(a.size(), std::vector<double>(b[0].size(), 0.0));
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t k = 0; k < b.size(); ++k)
            for (std::size_t j = 0; j < b[0].size(); ++j) out[i][j] += a[i][k] * b[k][j];
    return out;
}

inline Mat layer_norm(const Mat& x, const attn::Matrix& g, const attn::Matrix& b) {
    Mat out = x;
    for (std::size_t r = 0; r < x.size(); ++r) {
        const double n = double(x[r].size());
        double mean = 0, var = 0;
        for (double v : x[r]) mean += v / n;
        for (double v : x[r]) var += (v - mean) * (v - mean) / n;
        for (std::size_t c = 0; c < x[r].size(); ++c)
            out[r][c] = (x[r][c] - mean) / std::sqrt(var + 1e-5) * at(g, c) + at(b, c);
    }
    return out;
}

inline void add(Mat& a, const Mat& b) {
    for (std::size_t r = 0; r < a.size(); ++r)
        for (std::size_t c = 0; c < a[r].size(); ++c) a[r][c] += b[r][c];
}

// The mean loss over the targets that are not −1, for one batch of sequences.
inline double loss(const attn::train::ModelConfig& config, attn::train::Parameters& p,
                   const std::vector<std::vector<int>>& inputs, const std::vector<std::vector<int>>& targets) {
    const int C = config.C, HS = config.C / config.NH;
    double total = 0;
    int count = 0;
    for (std::size_t s = 0; s < inputs.size(); ++s) {
        const int T = static_cast<int>(inputs[s].size());
        Mat x(T, std::vector<double>(C));
        const auto sinusoid = attn::sinusoidal_positions(T, C);
        for (int t = 0; t < T; ++t)
            for (int c = 0; c < C; ++c) {
                double position = 0;
                if (config.positions == attn::train::Positions::Learned) position = at(p.wpe, std::size_t(t) * C + c);
                if (config.positions == attn::train::Positions::Sinusoidal) position = sinusoid(t, c);
                x[t][c] = at(p.wte, std::size_t(inputs[s][t]) * C + c) + position;
            }
        for (int l = 0; l < config.L; ++l) {
            auto& w = p.layers[l];
            const Mat h = config.layer_norm ? layer_norm(x, w.ln1_g, w.ln1_b) : x;
            const Mat q = product(h, of(w.wq)), k = product(h, of(w.wk)), v = product(h, of(w.wv));
            Mat concat(T, std::vector<double>(C, 0.0));
            for (int head = 0; head < config.NH; ++head) {
                for (int i = 0; i < T; ++i) {
                    std::vector<double> score(i + 1);
                    double max = -1e300, sum = 0;
                    for (int j = 0; j <= i; ++j) {
                        double dot = 0;
                        for (int d = 0; d < HS; ++d) dot += q[i][head * HS + d] * k[j][head * HS + d];
                        score[j] = dot / std::sqrt(double(HS));
                        max = std::max(max, score[j]);
                    }
                    for (int j = 0; j <= i; ++j) sum += std::exp(score[j] - max);
                    for (int j = 0; j <= i; ++j) {
                        const double a = std::exp(score[j] - max) / sum;
                        for (int d = 0; d < HS; ++d) concat[i][head * HS + d] += a * v[j][head * HS + d];
                    }
                }
            }
            add(x, product(concat, of(w.wo)));
            if (config.mlp) {
                const Mat h2 = config.layer_norm ? layer_norm(x, w.ln2_g, w.ln2_b) : x;
                Mat f = product(h2, of(w.fc1_w));
                for (auto& row : f)
                    for (std::size_t c = 0; c < row.size(); ++c) {
                        const double z = row[c] + at(w.fc1_b, c);
                        row[c] = 0.5 * z * (1 + std::tanh(std::sqrt(2 / M_PI) * (z + 0.044715 * z * z * z)));
                    }
                Mat out = product(f, of(w.fc2_w));
                for (auto& row : out)
                    for (std::size_t c = 0; c < row.size(); ++c) row[c] += at(w.fc2_b, c);
                add(x, out);
            }
        }
        const Mat hf = config.layer_norm ? layer_norm(x, p.lnf_g, p.lnf_b) : x;
        const Mat logits = product(hf, of(p.unembed));
        for (int t = 0; t < T; ++t) {
            if (targets[s][t] < 0) continue;
            double max = -1e300, sum = 0;
            for (double z : logits[t]) max = std::max(max, z);
            for (double z : logits[t]) sum += std::exp(z - max);
            total += std::log(sum) - (logits[t][targets[s][t]] - max);
            ++count;
        }
    }
    return count ? total / count : 0.0;
}

}  // namespace reference64
