// A model's config checked, its tensors named and shaped as Hugging Face names them, and what its
// weights and a run take in memory.
#include <cmath>
#include <sstream>

#include "attention.hpp"
#include "model/model.hpp"
#include "model/model_gemm.hpp"

namespace attn::model {
namespace {

// The names config.json gives each value, per architecture, so that a message points at the file.
struct FieldNames {
    const char *layers, *width, *heads, *kv_heads, *vocabulary, *hidden, *context, *epsilon;
};
FieldNames names_of(Architecture a) {
    if (a == Architecture::Gpt2) {
        return {"n_layer", "n_embd", "n_head", "n_head", "vocab_size", "n_inner", "n_positions", "layer_norm_epsilon"};
    }
    return {"num_hidden_layers", "hidden_size", "num_attention_heads", "num_key_value_heads", "vocab_size",
            "intermediate_size", "max_position_embeddings", "rms_norm_eps"};
}

bool in_range(double value, double low, double high) {
    return value >= low && value <= high;
}

std::string out_of_range(const char* name, double low, double high, double value) {
    return std::string(name) + " must be between " + number_text(low) + " and " + number_text(high) + " (got " +
           number_text(value) + ")";
}

}  // namespace

std::size_t Tensor::elements() const {
    std::size_t n = 1;
    for (int d : shape) n *= std::size_t(d);
    return n;
}

std::string validate(const ModelConfig& c) {
    const FieldNames n = names_of(c.architecture);
    const struct {
        const char* name;
        int value, low, high;
    } sizes[] = {
        {n.layers, c.L, 1, kMaxLayers}, {n.width, c.C, 1, kMaxWidth}, {n.heads, c.NH, 1, c.C}, {n.kv_heads, c.KVH, 1, c.NH}, {n.vocabulary, c.V, 1, kMaxVocabulary}, {n.hidden, c.F, 1, 4 * kMaxWidth}, {n.context, c.context, 1, kMaxContext}};
    for (const auto& s : sizes) {
        if (!in_range(s.value, s.low, s.high)) return out_of_range(s.name, s.low, s.high, s.value);
    }
    std::ostringstream out;
    if (c.C % c.NH != 0) {
        out << n.heads << " (" << c.NH << ") must divide " << n.width << " (" << c.C << ")";
        return out.str();
    }
    if (c.NH % c.KVH != 0) {
        out << n.kv_heads << " (" << c.KVH << ") must divide " << n.heads << " (" << c.NH << ")";
        return out.str();
    }
    if (c.architecture == Architecture::Gpt2 && c.KVH != c.NH) return "GPT-2 has as many key/value heads as heads";
    // (1e-12 … 0.1 covers every published value: 1e-5, 1e-6; beyond, a norm would not be one)
    if (!in_range(c.norm_epsilon, 1e-12, 0.1)) return out_of_range(n.epsilon, 1e-12, 0.1, c.norm_epsilon);
    if (c.architecture != Architecture::Gpt2) {
        if (!(c.rope_theta > kMinRopeTheta && c.rope_theta <= kMaxRopeTheta)) {
            out << "rope_theta must be above " << number_text(kMinRopeTheta) << " and at most "
                << number_text(kMaxRopeTheta) << " (got " << number_text(c.rope_theta) << ")";
            return out.str();
        }
        // Hugging Face's rotate_half pairs dimension i with i + HS/2
        if (c.HS() % 2 != 0) {
            out << n.width << " / " << n.heads << " (the head size, " << c.HS()
                << ") must be even: rotary positions turn its halves together";
            return out.str();
        }
    }
    return {};
}

Model describe(const ModelConfig& c) {
    Model m;
    m.config = c;
    const int C = c.C, HS = c.HS(), F = c.F;
    // (every matrix is a product's right-hand side but the embeddings, looked up by row; the token
    // embedding is one too when it is also the unembedding)
    const auto add = [&m](std::string name, std::vector<int> shape, Layout layout = Layout::OutIn) {
        Tensor& t = m.tensors.emplace_back();
        t.name = std::move(name);
        t.product = shape.size() == 2;
        t.shape = std::move(shape);
        t.layout = layout;
        return static_cast<int>(m.tensors.size()) - 1;
    };
    m.layers.resize(c.L);
    if (c.architecture == Architecture::Gpt2) {
        // Conv1D weights are [in, out]; c_attn holds q | k | v side by side along its columns
        m.wte = add("wte.weight", {c.V, C});
        m.wpe = add("wpe.weight", {c.context, C});
        for (int l = 0; l < c.L; ++l) {
            LayerWeights& w = m.layers[l];
            const std::string h = "h." + std::to_string(l) + ".";
            w.norm1_g = add(h + "ln_1.weight", {C});
            w.norm1_b = add(h + "ln_1.bias", {C});
            w.wqkv = add(h + "attn.c_attn.weight", {C, 3 * C}, Layout::InOut);
            w.bqkv = add(h + "attn.c_attn.bias", {3 * C});
            w.wo = add(h + "attn.c_proj.weight", {C, C}, Layout::InOut);
            w.bo = add(h + "attn.c_proj.bias", {C});
            w.norm2_g = add(h + "ln_2.weight", {C});
            w.norm2_b = add(h + "ln_2.bias", {C});
            w.fc = add(h + "mlp.c_fc.weight", {C, F}, Layout::InOut);
            w.fc_b = add(h + "mlp.c_fc.bias", {F});
            w.proj = add(h + "mlp.c_proj.weight", {F, C}, Layout::InOut);
            w.proj_b = add(h + "mlp.c_proj.bias", {C});
        }
        m.norm_f_g = add("ln_f.weight", {C});
        m.norm_f_b = add("ln_f.bias", {C});
    } else {
        // nn.Linear weights are [out, in]
        const bool qkv_bias = c.architecture == Architecture::Qwen2 || c.attention_bias;
        const bool o_bias = c.architecture == Architecture::Llama && c.attention_bias;
        m.wte = add("model.embed_tokens.weight", {c.V, C});
        for (int l = 0; l < c.L; ++l) {
            LayerWeights& w = m.layers[l];
            const std::string a = "model.layers." + std::to_string(l) + ".";
            w.norm1_g = add(a + "input_layernorm.weight", {C});
            w.wq = add(a + "self_attn.q_proj.weight", {c.NH * HS, C});
            w.wk = add(a + "self_attn.k_proj.weight", {c.KVH * HS, C});
            w.wv = add(a + "self_attn.v_proj.weight", {c.KVH * HS, C});
            if (qkv_bias) {
                w.bq = add(a + "self_attn.q_proj.bias", {c.NH * HS});
                w.bk = add(a + "self_attn.k_proj.bias", {c.KVH * HS});
                w.bv = add(a + "self_attn.v_proj.bias", {c.KVH * HS});
            }
            w.wo = add(a + "self_attn.o_proj.weight", {C, c.NH * HS});
            if (o_bias) w.bo = add(a + "self_attn.o_proj.bias", {C});
            w.norm2_g = add(a + "post_attention_layernorm.weight", {C});
            w.fc = add(a + "mlp.gate_proj.weight", {F, C});
            w.up = add(a + "mlp.up_proj.weight", {F, C});
            w.proj = add(a + "mlp.down_proj.weight", {C, F});
            if (c.mlp_bias) {
                w.fc_b = add(a + "mlp.gate_proj.bias", {F});
                w.up_b = add(a + "mlp.up_proj.bias", {F});
                w.proj_b = add(a + "mlp.down_proj.bias", {C});
            }
        }
        m.norm_f_g = add("model.norm.weight", {C});
    }
    // The unembedding is the token embedding itself ([V, C], used as W_unembedᵀ), or lm_head's own.
    m.unembed = c.tied ? m.wte : add("lm_head.weight", {c.V, C});
    m.tensors[m.wte].product = c.tied;
    if (m.wpe >= 0) m.tensors[m.wpe].product = false;
    return m;
}

double weight_bytes(const Model& m) {
    double bytes = 0;
    for (const Tensor& t : m.tensors) bytes += double(stored_elements(t)) * bytes_of(t.dtype);
    return bytes;
}

double run_bytes(const ModelConfig& c, int T) {
    // as model_forward.cpp sizes them, in floats
    const double t = T, C = c.C, HS = c.HS(), kv = c.KVH * HS, qkv = (c.NH + 2.0 * c.KVH) * HS;
    // per layer: input, normed and q (T, C); k and v (T, KVH·HS); the maps (NH, T, T)
    const double layer = 3 * t * C + 2 * t * kv + double(c.NH) * t * t;
    // scratch: x, h, concat (T, C); q | k | v (T, ·); the MLP's two (T, F); Kᵀ and a head's
    // context (T, HS); a panel of 256 × 256 and its line; the logits (T, V)
    const double scratch = 3 * t * C + t * std::max(qkv, C) + 2 * t * c.F + 2 * t * HS + 256.0 * 257 + t * c.V;
    return 4 * (c.L * layer + scratch) + 8 * t;  // (+ the ids, twice)
}

std::string validate_run(const Model& m, const std::vector<int>& ids, double available_bytes) {
    const ModelConfig& c = m.config;
    const int T = static_cast<int>(ids.size());
    std::ostringstream out;
    if (T == 0) return "no tokens: give at least one token id";
    if (T > c.context) {
        out << "too many tokens: " << T << " (the model knows " << c.context << " positions)";
        return out.str();
    }
    for (int t = 0; t < T; ++t) {
        if (ids[t] < 0 || ids[t] >= c.V) {
            out << "ids[" << t << "] = " << ids[t] << " is not a token of the vocabulary (0 to " << c.V - 1 << ")";
            return out.str();
        }
    }
    const double needed = run_bytes(c, T);
    if (needed > available_bytes) {
        // the largest T that fits (run_bytes grows with T)
        int fits = 0;
        for (int low = 1, high = T - 1; low <= high;) {
            const int mid = low + (high - low) / 2;
            if (run_bytes(c, mid) <= available_bytes) fits = mid, low = mid + 1;
            else high = mid - 1;
        }
        out << "a run of " << T << " tokens needs about " << number_text(std::ceil(needed / (1 << 20)))
            << " MiB of the engine's memory (every layer's attention maps and the logits), and "
            << number_text(std::floor(std::max(0.0, available_bytes) / (1 << 20))) << " MiB are free";
        if (fits > 0) out << ": at most " << fits << " tokens fit";
        return out.str();
    }
    return {};
}

}  // namespace attn::model
