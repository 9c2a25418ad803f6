// An independent float64 forward pass of GPT-2, Llama and Qwen2 for the tests, written from Hugging
// Face's modeling_gpt2.py / modeling_llama.py / modeling_qwen2.py formulas (not from the core's
// code): tensors by their Hugging Face names, in their files' layouts, as doubles.
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace model64 {

using Mat = std::vector<std::vector<double>>;
using Weights = std::map<std::string, std::vector<double>>;  // row-major, by Hugging Face name

struct Layer {
    Mat input;                   // the residual stream entering the block
    Mat normed;                  // what the attention sees
    std::vector<Mat> q, k, v;    // per head (q) and key/value head (k, v), after RoPE
    std::vector<Mat> attention;  // per head (T, T)
};

struct Forward {
    std::vector<Layer> layers;
    Mat logits;
};

// y = x·W for W stored [in, out] (Conv1D), or x·Wᵀ for W stored [out, in] (nn.Linear).
inline Mat product(const Mat& x, const std::vector<double>& w, int in, int out, bool out_in) {
    Mat y(x.size(), std::vector<double>(out, 0.0));
    for (size_t t = 0; t < x.size(); ++t)
        for (int j = 0; j < out; ++j)
            for (int i = 0; i < in; ++i) y[t][j] += x[t][i] * (out_in ? w[size_t(j) * in + i] : w[size_t(i) * out + j]);
    return y;
}

inline void add_vector(Mat& y, const std::vector<double>& b) {
    for (auto& row : y)
        for (size_t j = 0; j < row.size(); ++j) row[j] += b[j];
}

// nn.LayerNorm (biased variance) and LlamaRMSNorm.
inline Mat layer_norm(const Mat& x, const std::vector<double>& g, const std::vector<double>& b, double eps) {
    Mat y = x;
    for (size_t t = 0; t < x.size(); ++t) {
        const double n = double(x[t].size());
        double mean = 0, var = 0;
        for (double v : x[t]) mean += v / n;
        for (double v : x[t]) var += (v - mean) * (v - mean) / n;
        for (size_t c = 0; c < x[t].size(); ++c) y[t][c] = (x[t][c] - mean) / std::sqrt(var + eps) * g[c] + b[c];
    }
    return y;
}
inline Mat rms_norm(const Mat& x, const std::vector<double>& g, double eps) {
    Mat y = x;
    for (size_t t = 0; t < x.size(); ++t) {
        double square = 0;
        for (double v : x[t]) square += v * v / double(x[t].size());
        for (size_t c = 0; c < x[t].size(); ++c) y[t][c] = x[t][c] / std::sqrt(square + eps) * g[c];
    }
    return y;
}

// Columns [first, first + n) of m.
inline Mat columns(const Mat& m, int first, int n) {
    Mat out;
    for (const auto& row : m) out.emplace_back(row.begin() + first, row.begin() + first + n);
    return out;
}

inline Forward forward(const attn::model::ModelConfig& c, const Weights& w, const std::vector<int>& ids) {
    using attn::model::Architecture;
    const bool gpt2 = c.architecture == Architecture::Gpt2;
    const int T = int(ids.size()), C = c.C, HS = c.C / c.NH, kv = c.KVH * HS;
    const auto at = [&w](const std::string& name) -> const std::vector<double>& { return w.at(name); };
    const auto has = [&w](const std::string& name) { return w.count(name) > 0; };
    Forward f;
    Mat x(T, std::vector<double>(C));
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < C; ++j) {
            x[t][j] = at(gpt2 ? "wte.weight" : "model.embed_tokens.weight")[size_t(ids[t]) * C + j];
            if (gpt2) x[t][j] += at("wpe.weight")[size_t(t) * C + j];
        }
    for (int l = 0; l < c.L; ++l) {
        Layer layer;
        layer.input = x;
        const std::string p = gpt2 ? "h." + std::to_string(l) + "." : "model.layers." + std::to_string(l) + ".";
        Mat q, k, v;
        if (gpt2) {
            layer.normed = layer_norm(x, at(p + "ln_1.weight"), at(p + "ln_1.bias"), c.norm_epsilon);
            Mat qkv = product(layer.normed, at(p + "attn.c_attn.weight"), C, 3 * C, false);
            add_vector(qkv, at(p + "attn.c_attn.bias"));
            q = columns(qkv, 0, C), k = columns(qkv, C, C), v = columns(qkv, 2 * C, C);
        } else {
            layer.normed = rms_norm(x, at(p + "input_layernorm.weight"), c.norm_epsilon);
            q = product(layer.normed, at(p + "self_attn.q_proj.weight"), C, C, true);
            k = product(layer.normed, at(p + "self_attn.k_proj.weight"), C, kv, true);
            v = product(layer.normed, at(p + "self_attn.v_proj.weight"), C, kv, true);
            if (has(p + "self_attn.q_proj.bias")) {
                add_vector(q, at(p + "self_attn.q_proj.bias"));
                add_vector(k, at(p + "self_attn.k_proj.bias"));
                add_vector(v, at(p + "self_attn.v_proj.bias"));
            }
            // rotate_half: dimension i with i + HS/2, inv_freq_i = θ^(−2i/HS), angle = position·inv_freq
            const auto rope = [&](Mat& m, int heads) {
                for (int t = 0; t < T; ++t)
                    for (int h = 0; h < heads; ++h)
                        for (int i = 0; i < HS / 2; ++i) {
                            const double angle = t * std::pow(c.rope_theta, -2.0 * i / HS);
                            double& a = m[t][h * HS + i];
                            double& b = m[t][h * HS + i + HS / 2];
                            const double a0 = a, b0 = b;
                            a = a0 * std::cos(angle) - b0 * std::sin(angle);
                            b = b0 * std::cos(angle) + a0 * std::sin(angle);
                        }
            };
            rope(q, c.NH);
            rope(k, c.KVH);
        }
        for (int g = 0; g < c.KVH; ++g) {
            layer.k.push_back(columns(k, g * HS, HS));
            layer.v.push_back(columns(v, g * HS, HS));
        }
        // causal softmax attention; head h reads key/value head h / (NH/KVH) (repeat_kv)
        Mat concat(T, std::vector<double>(C, 0.0));
        for (int h = 0; h < c.NH; ++h) {
            const Mat qh = columns(q, h * HS, HS), &kh = layer.k[h / (c.NH / c.KVH)], &vh = layer.v[h / (c.NH / c.KVH)];
            Mat a(T, std::vector<double>(T, 0.0));
            for (int i = 0; i < T; ++i) {
                double max = -INFINITY, sum = 0;
                for (int j = 0; j <= i; ++j) {
                    for (int e = 0; e < HS; ++e) a[i][j] += qh[i][e] * kh[j][e];
                    a[i][j] /= std::sqrt(double(HS));
                    max = std::max(max, a[i][j]);
                }
                for (int j = 0; j <= i; ++j) sum += a[i][j] = std::exp(a[i][j] - max);
                for (int j = 0; j <= i; ++j) a[i][j] /= sum;
                for (int e = 0; e < HS; ++e)
                    for (int j = 0; j <= i; ++j) concat[i][h * HS + e] += a[i][j] * vh[j][e];
            }
            layer.q.push_back(qh);
            layer.attention.push_back(a);
        }
        Mat out;
        if (gpt2) {
            out = product(concat, at(p + "attn.c_proj.weight"), C, C, false);
            add_vector(out, at(p + "attn.c_proj.bias"));
        } else {
            out = product(concat, at(p + "self_attn.o_proj.weight"), C, C, true);
            if (has(p + "self_attn.o_proj.bias")) add_vector(out, at(p + "self_attn.o_proj.bias"));
        }
        for (int t = 0; t < T; ++t)
            for (int j = 0; j < C; ++j) x[t][j] += out[t][j];
        // the MLP
        if (gpt2) {
            const Mat h2 = layer_norm(x, at(p + "ln_2.weight"), at(p + "ln_2.bias"), c.norm_epsilon);
            Mat hidden = product(h2, at(p + "mlp.c_fc.weight"), C, c.F, false);
            add_vector(hidden, at(p + "mlp.c_fc.bias"));
            for (auto& row : hidden)  // gelu_new
                for (double& u : row) u = 0.5 * u * (1 + std::tanh(std::sqrt(2 / M_PI) * (u + 0.044715 * u * u * u)));
            out = product(hidden, at(p + "mlp.c_proj.weight"), c.F, C, false);
            add_vector(out, at(p + "mlp.c_proj.bias"));
        } else {
            const Mat h2 = rms_norm(x, at(p + "post_attention_layernorm.weight"), c.norm_epsilon);
            Mat gate = product(h2, at(p + "mlp.gate_proj.weight"), C, c.F, true);
            Mat up = product(h2, at(p + "mlp.up_proj.weight"), C, c.F, true);
            if (has(p + "mlp.gate_proj.bias")) {
                add_vector(gate, at(p + "mlp.gate_proj.bias"));
                add_vector(up, at(p + "mlp.up_proj.bias"));
            }
            for (int t = 0; t < T; ++t)
                for (int j = 0; j < c.F; ++j) gate[t][j] = gate[t][j] / (1 + std::exp(-gate[t][j])) * up[t][j];  // silu
            out = product(gate, at(p + "mlp.down_proj.weight"), c.F, C, true);
            if (has(p + "mlp.down_proj.bias")) add_vector(out, at(p + "mlp.down_proj.bias"));
        }
        for (int t = 0; t < T; ++t)
            for (int j = 0; j < C; ++j) x[t][j] += out[t][j];
        f.layers.push_back(layer);
    }
    const Mat hf = gpt2 ? layer_norm(x, at("ln_f.weight"), at("ln_f.bias"), c.norm_epsilon)
                        : rms_norm(x, at("model.norm.weight"), c.norm_epsilon);
    // the unembedding: lm_head [V, C] when the model has its own, else the token embedding (tied)
    const std::string unembed = has("lm_head.weight") ? "lm_head.weight" : gpt2 ? "wte.weight"
                                                                                : "model.embed_tokens.weight";
    f.logits = product(hf, at(unembed), C, c.V, true);
    return f;
}

}  // namespace model64
