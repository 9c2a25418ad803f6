// The model's tensors, their initialisation, and its forward and backward passes.
#include "train/model.hpp"

#include <algorithm>
#include <cmath>

#include "attention.hpp"
#include "train/layers.hpp"
#include "train/random.hpp"

namespace attn::train {

std::vector<NamedTensor> named_tensors(const ModelConfig& config, Parameters& p) {
    std::vector<NamedTensor> out{{"wte", &p.wte, false}};
    if (config.positions == Positions::Learned) out.push_back({"wpe", &p.wpe, false});
    for (int l = 0; l < config.L; ++l) {
        LayerParameters& layer = p.layers[l];
        const std::string prefix = "layers." + std::to_string(l) + ".";
        if (config.layer_norm) {
            out.push_back({prefix + "ln1.g", &layer.ln1_g, false});
            out.push_back({prefix + "ln1.b", &layer.ln1_b, false});
        }
        out.push_back({prefix + "wq", &layer.wq, true});
        out.push_back({prefix + "wk", &layer.wk, true});
        out.push_back({prefix + "wv", &layer.wv, true});
        out.push_back({prefix + "wo", &layer.wo, true});
        if (config.mlp) {
            if (config.layer_norm) {
                out.push_back({prefix + "ln2.g", &layer.ln2_g, false});
                out.push_back({prefix + "ln2.b", &layer.ln2_b, false});
            }
            out.push_back({prefix + "fc1.w", &layer.fc1_w, true});
            out.push_back({prefix + "fc1.b", &layer.fc1_b, false});
            out.push_back({prefix + "fc2.w", &layer.fc2_w, true});
            out.push_back({prefix + "fc2.b", &layer.fc2_b, false});
        }
    }
    if (config.layer_norm) {
        out.push_back({"lnf.g", &p.lnf_g, false});
        out.push_back({"lnf.b", &p.lnf_b, false});
    }
    out.push_back({"unembed", &p.unembed, true});
    return out;
}

void shape_parameters(const ModelConfig& config, Parameters& p) {
    const int C = config.C;
    const auto shape = [](Matrix& m, int rows, int cols) {
        m.resize(rows, cols);
        std::fill(m.data.begin(), m.data.end(), 0.0f);
    };
    shape(p.wte, config.V, C);
    shape(p.wpe, config.positions == Positions::Learned ? config.Tmax : 0, C);
    p.layers.resize(config.L);
    for (LayerParameters& layer : p.layers) {
        const int norm = config.layer_norm ? C : 0;
        const int hidden = config.mlp ? 4 * C : 0;
        shape(layer.ln1_g, 1, norm);
        shape(layer.ln1_b, 1, norm);
        for (Matrix* w : {&layer.wq, &layer.wk, &layer.wv, &layer.wo}) shape(*w, C, C);
        shape(layer.ln2_g, 1, config.mlp ? norm : 0);
        shape(layer.ln2_b, 1, config.mlp ? norm : 0);
        shape(layer.fc1_w, config.mlp ? C : 0, hidden);
        shape(layer.fc1_b, 1, hidden);
        shape(layer.fc2_w, hidden, config.mlp ? C : 0);
        shape(layer.fc2_b, 1, config.mlp ? C : 0);
    }
    shape(p.lnf_g, 1, config.layer_norm ? C : 0);
    shape(p.lnf_b, 1, config.layer_norm ? C : 0);
    shape(p.unembed, C, config.V);
}

void initialise(const ModelConfig& config, std::uint32_t seed, Parameters& p) {
    shape_parameters(config, p);
    Random random(seed);
    // Uniform in ±a has standard deviation a/√3: a = 0.02·√3 gives GPT-2's 0.02.
    const float a = 0.02f * std::sqrt(3.0f);
    const float residual = a / std::sqrt(2.0f * config.L);
    const auto fill = [&random](Matrix& m, float bound) {
        for (float& value : m.data) value = random.uniform(bound);
    };
    for (const NamedTensor& t : named_tensors(config, p)) {
        const std::string& name = t.name;
        const auto ends_with = [&name](const char* tail) {
            const std::string s(tail);
            return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
        };
        if (ends_with(".g")) {
            std::fill(t.tensor->data.begin(), t.tensor->data.end(), 1.0f);
        } else if (ends_with(".b")) {
            // biases stay 0
        } else {
            fill(*t.tensor, ends_with("wo") || ends_with("fc2.w") ? residual : a);
        }
    }
}

namespace {

void add_into(Matrix& out, const Matrix& addend) {
    for (std::size_t i = 0; i < out.data.size(); ++i) out.data[i] += addend.data[i];
}

void sized(Matrix& m, int rows, int cols) {
    if (m.rows != rows || m.cols != cols) m.resize(rows, cols);
}

void sized(std::vector<float>& v, std::size_t n) {
    if (v.size() != n) v.resize(n);
}

}  // namespace

float forward(const ModelConfig& config, const Parameters& p, const int* inputs, const int* targets,
              int B, int T, Activations& act) {
    const int N = B * T, C = config.C, V = config.V, hidden = 4 * C;
    act.B = B;
    act.T = T;
    act.layers.resize(config.L);

    // pass 1: x₀ = wte[token] + position
    sized(act.x0, N, C);
    Matrix& positions = act.sinusoid;
    if (config.positions == Positions::Sinusoidal && (positions.rows != T || positions.cols != C)) {
        positions = sinusoidal_positions(T, C);
    }
    for (int n = 0; n < N; ++n) {
        const float* token = p.wte.row(inputs[n]);
        float* x = act.x0.row(n);
        const int t = n % T;
        for (int c = 0; c < C; ++c) {
            float position = 0.0f;
            if (config.positions == Positions::Learned) position = p.wpe(t, c);
            if (config.positions == Positions::Sinusoidal) position = positions(t, c);
            x[c] = token[c] + position;
        }
    }

    const Matrix* x = &act.x0;
    for (int l = 0; l < config.L; ++l) {
        const LayerParameters& w = p.layers[l];
        LayerActivations& a = act.layers[l];
        // pass 2: h = LN₁(x) or x — what attention sees
        sized(a.h1, N, C);
        sized(a.ln1_mean, N);
        sized(a.ln1_rstd, N);
        if (config.layer_norm) {
            layer_norm_forward(x->data.data(), w.ln1_g.data.data(), w.ln1_b.data.data(), a.h1.data.data(),
                               a.ln1_mean.data(), a.ln1_rstd.data(), N, C);
        } else {
            a.h1.data = x->data;
        }
        // pass 3: Q, K, V = h·W_Q, h·W_K, h·W_V
        for (auto [out, weight] : {std::pair{&a.q, &w.wq}, {&a.k, &w.wk}, {&a.v, &w.wv}}) {
            sized(*out, N, C);
            linear_forward(a.h1.data.data(), weight->data.data(), nullptr, out->data.data(), N, C, C);
        }
        // pass 4: per sequence and head, A = softmax(QKᵀ/√d_k + causal mask), context = A·V
        sized(a.attention, std::size_t(B) * config.NH * T * T);
        sized(a.context, N, C);
        attention_forward(a.q.data.data(), a.k.data.data(), a.v.data.data(), a.attention.data(),
                          a.context.data.data(), B, T, C, config.NH, nullptr, act.attention_scratch);
        // pass 5: x + context·W_O
        sized(a.mid, N, C);
        linear_forward(a.context.data.data(), w.wo.data.data(), nullptr, a.mid.data.data(), N, C, C);
        add_into(a.mid, *x);
        // pass 6 (mlp): mid + fc₂(gelu(fc₁(LN₂(mid) or mid)))
        sized(a.out, N, C);
        if (config.mlp) {
            sized(a.h2, N, C);
            sized(a.ln2_mean, N);
            sized(a.ln2_rstd, N);
            if (config.layer_norm) {
                layer_norm_forward(a.mid.data.data(), w.ln2_g.data.data(), w.ln2_b.data.data(), a.h2.data.data(),
                                   a.ln2_mean.data(), a.ln2_rstd.data(), N, C);
            } else {
                a.h2.data = a.mid.data;
            }
            sized(a.fc1, N, hidden);
            sized(a.gelu, N, hidden);
            linear_forward(a.h2.data.data(), w.fc1_w.data.data(), w.fc1_b.data.data(), a.fc1.data.data(), N, C, hidden);
            gelu_forward(a.fc1.data.data(), a.gelu.data.data(), N * hidden);
            linear_forward(a.gelu.data.data(), w.fc2_w.data.data(), w.fc2_b.data.data(), a.out.data.data(), N, hidden, C);
            add_into(a.out, a.mid);
        } else {
            a.out.data = a.mid.data;
        }
        x = &a.out;
    }

    // pass 7: logits = (LN_f(x) or x)·unembed, and the loss
    sized(act.hf, N, C);
    sized(act.lnf_mean, N);
    sized(act.lnf_rstd, N);
    if (config.layer_norm) {
        layer_norm_forward(x->data.data(), p.lnf_g.data.data(), p.lnf_b.data.data(), act.hf.data.data(),
                           act.lnf_mean.data(), act.lnf_rstd.data(), N, C);
    } else {
        act.hf.data = x->data;
    }
    sized(act.logits, N, V);
    sized(act.probs, N, V);
    linear_forward(act.hf.data.data(), p.unembed.data.data(), nullptr, act.logits.data.data(), N, C, V);
    return cross_entropy_forward(act.logits.data.data(), targets, act.probs.data.data(), N, V);
}

void backward(const ModelConfig& config, const Parameters& p, const int* inputs, const int* targets,
              Activations& act, Parameters& g) {
    const int B = act.B, T = act.T, N = B * T, C = config.C, V = config.V, hidden = 4 * C;
    for_each_tensor(g, [](Matrix& m, bool) { std::fill(m.data.begin(), m.data.end(), 0.0f); });
    std::vector<float>& scratch = act.scratch;

    // pass 7 back: the loss, the unembedding, LN_f
    sized(act.d_logits, N, V);
    cross_entropy_backward(act.probs.data.data(), targets, act.d_logits.data.data(), N, V);
    sized(act.d_h, N, C);
    linear_backward(act.hf.data.data(), p.unembed.data.data(), act.d_logits.data.data(), act.d_h.data.data(),
                    false, g.unembed.data.data(), nullptr, N, C, V, scratch);
    const Matrix& last = config.L > 0 ? act.layers[config.L - 1].out : act.x0;
    sized(act.d_x, N, C);  // ∂loss/∂x of the residual stream, from the top down
    if (config.layer_norm) {
        std::fill(act.d_x.data.begin(), act.d_x.data.end(), 0.0f);
        layer_norm_backward(act.d_h.data.data(), last.data.data(), p.lnf_g.data.data(), act.lnf_mean.data(),
                            act.lnf_rstd.data(), act.d_x.data.data(), g.lnf_g.data.data(), g.lnf_b.data.data(), N, C);
    } else {
        act.d_x.data = act.d_h.data;
    }

    for (int l = config.L - 1; l >= 0; --l) {
        const LayerParameters& w = p.layers[l];
        LayerParameters& gw = g.layers[l];
        LayerActivations& a = act.layers[l];
        const Matrix& x = l > 0 ? act.layers[l - 1].out : act.x0;
        // pass 6 back: the MLP adds to d_x (the residual passes d_x through unchanged)
        if (config.mlp) {
            sized(act.d_big, N, hidden);
            linear_backward(a.gelu.data.data(), w.fc2_w.data.data(), act.d_x.data.data(), act.d_big.data.data(),
                            false, gw.fc2_w.data.data(), gw.fc2_b.data.data(), N, hidden, C, scratch);
            gelu_backward(a.fc1.data.data(), act.d_big.data.data(), act.d_big.data.data(), N * hidden);
            if (config.layer_norm) {
                linear_backward(a.h2.data.data(), w.fc1_w.data.data(), act.d_big.data.data(), act.d_h.data.data(),
                                false, gw.fc1_w.data.data(), gw.fc1_b.data.data(), N, C, hidden, scratch);
                layer_norm_backward(act.d_h.data.data(), a.mid.data.data(), w.ln2_g.data.data(), a.ln2_mean.data(),
                                    a.ln2_rstd.data(), act.d_x.data.data(), gw.ln2_g.data.data(),
                                    gw.ln2_b.data.data(), N, C);
            } else {
                linear_backward(a.h2.data.data(), w.fc1_w.data.data(), act.d_big.data.data(), act.d_x.data.data(),
                                true, gw.fc1_w.data.data(), gw.fc1_b.data.data(), N, C, hidden, scratch);
            }
        }
        // pass 5 back: W_O
        sized(act.d_context, N, C);
        linear_backward(a.context.data.data(), w.wo.data.data(), act.d_x.data.data(), act.d_context.data.data(),
                        false, gw.wo.data.data(), nullptr, N, C, C, scratch);
        // pass 4 back: attention
        sized(act.d_q, N, C);
        sized(act.d_k, N, C);
        sized(act.d_v, N, C);
        attention_backward(act.d_context.data.data(), a.q.data.data(), a.k.data.data(), a.v.data.data(),
                           a.attention.data(), act.d_q.data.data(), act.d_k.data.data(), act.d_v.data.data(),
                           B, T, C, config.NH, act.attention_scratch);
        // pass 3 back: the projections, into ∂loss/∂h
        linear_backward(a.h1.data.data(), w.wq.data.data(), act.d_q.data.data(), act.d_h.data.data(), false,
                        gw.wq.data.data(), nullptr, N, C, C, scratch);
        linear_backward(a.h1.data.data(), w.wk.data.data(), act.d_k.data.data(), act.d_h.data.data(), true,
                        gw.wk.data.data(), nullptr, N, C, C, scratch);
        linear_backward(a.h1.data.data(), w.wv.data.data(), act.d_v.data.data(), act.d_h.data.data(), true,
                        gw.wv.data.data(), nullptr, N, C, C, scratch);
        // pass 2 back: LN₁ (or the identity) adds ∂loss/∂h to the residual's gradient
        if (config.layer_norm) {
            layer_norm_backward(act.d_h.data.data(), x.data.data(), w.ln1_g.data.data(), a.ln1_mean.data(),
                                a.ln1_rstd.data(), act.d_x.data.data(), gw.ln1_g.data.data(), gw.ln1_b.data.data(),
                                N, C);
        } else {
            add_into(act.d_x, act.d_h);
        }
    }

    // pass 1 back: the embeddings (rows of wte, and of wpe when learned)
    for (int n = 0; n < N; ++n) {
        const float* d = act.d_x.row(n);
        float* d_token = g.wte.row(inputs[n]);
        for (int c = 0; c < C; ++c) d_token[c] += d[c];
        if (config.positions == Positions::Learned) {
            float* d_position = g.wpe.row(n % T);
            for (int c = 0; c < C; ++c) d_position[c] += d[c];
        }
    }
}

}  // namespace attn::train

namespace attn::train {

std::size_t parameter_floats(const ModelConfig& config) {
    const std::size_t C = config.C, V = config.V, hidden = config.mlp ? 4 * C : 0;
    const std::size_t norm = config.layer_norm ? C : 0;
    std::size_t per_layer = 4 * C * C + 2 * norm;
    if (config.mlp) per_layer += 2 * norm + C * hidden + hidden + hidden * C + C;
    const std::size_t positions = config.positions == Positions::Learned ? std::size_t(config.Tmax) * C : 0;
    return V * C + positions + config.L * per_layer + 2 * norm + C * V;
}

// Mirrors what forward() and backward() size above, buffer by buffer.
std::size_t activation_floats(const ModelConfig& config, int B, int T) {
    const std::size_t N = std::size_t(B) * T, C = config.C, V = config.V, HS = config.HS();
    const std::size_t hidden = config.mlp ? 4 * C : 0;
    std::size_t layer = N * C + 2 * N                         // h1, LN₁ statistics
                        + 3 * N * C                           // q, k, v
                        + std::size_t(B) * config.NH * T * T  // attention
                        + 3 * N * C;                          // context, mid, out
    if (config.mlp) layer += N * C + 2 * N + 2 * N * hidden;  // h2, LN₂ statistics, fc1, gelu
    std::size_t floats = N * C + config.L * layer;            // x₀ and the layers
    if (config.positions == Positions::Sinusoidal) floats += std::size_t(T) * C;
    floats += N * C + 2 * N + 2 * N * V;                   // h_f, LN_f statistics, logits, probs
    floats += N * V + 2 * N * C + N * hidden + 4 * N * C;  // d_logits, d_h, d_x, d_big, d_context, d_q, d_k, d_v
    // linear_backward's transposes: the largest (out·in) or (in·N) of any product
    floats += std::max({C * V, C * N, hidden * C, hidden * N});
    // AttentionScratch: q, k, kt, dcontext, dq, dk, dv (T·HS each), v (also dS), at (T·T)
    floats += 7 * std::size_t(T) * HS + std::size_t(T) * std::max<std::size_t>(T, HS) + std::size_t(T) * T;
    return floats;
}

double forward_operations(const ModelConfig& config, int B, int T) {
    const double N = double(B) * T, C = config.C, V = config.V;
    double layer = 2 * N * 4 * C * C                      // Q, K, V and W_O
                   + 4 * double(B) * T * T * C            // scores and A·V over every head
                   + 50 * double(B) * config.NH * T * T;  // each weight's softmax and copies
    if (config.mlp) layer += 2 * N * 8 * C * C;
    return config.L * layer + 2 * N * C * V;
}

}  // namespace attn::train
