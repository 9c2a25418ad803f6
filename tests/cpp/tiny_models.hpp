// Tiny models of each architecture for the tests, at odd sizes, with weights that every stored type
// holds exactly (so that the float64 reference sees the very values the core reads): matrices and
// biases m/512 with |m| ≤ 255, norm gains in [0.5, 1), all with at most 8 significant bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "model_reference64.hpp"

namespace tiny {

using attn::model::Architecture;
using attn::model::DType;
using attn::model::ModelConfig;

struct Shape {
    const char* label;
    ModelConfig config;
};

inline ModelConfig config(Architecture a, int L, int C, int NH, int KVH, int V, int F, int context, bool tied,
                          double theta = 10000.0, bool attention_bias = false, bool mlp_bias = false) {
    ModelConfig c;
    c.architecture = a;
    c.L = L, c.C = C, c.NH = NH, c.KVH = KVH, c.V = V, c.F = F, c.context = context;
    c.norm_epsilon = a == Architecture::Gpt2 ? 1e-5 : 1e-6;
    c.rope_theta = theta;
    c.tied = tied;
    c.attention_bias = attention_bias;
    c.mlp_bias = mlp_bias;
    return c;
}

// Heads not a power of two, grouped-query and multi-query key/value heads, tied and untied.
inline std::vector<Shape> shapes() {
    return {
        {"gpt2 C15 3 heads n_inner 23, untied", config(Architecture::Gpt2, 2, 15, 3, 3, 11, 23, 9, false)},
        {"gpt2 C5 5 heads of 1, tied", config(Architecture::Gpt2, 1, 5, 5, 5, 7, 20, 7, true)},
        {"llama C18 3 heads 1 kv head, tied", config(Architecture::Llama, 2, 18, 3, 1, 10, 13, 16, true)},
        {"llama C12 6 heads 2 kv heads, every bias, untied",
         config(Architecture::Llama, 2, 12, 6, 2, 9, 7, 8, false, 500000.0, true, true)},
        {"qwen2 C24 6 heads 2 kv heads, untied", config(Architecture::Qwen2, 2, 24, 6, 2, 13, 11, 32, false, 1e6)},
    };
}

// A deterministic stream of integers (a linear congruential generator: tests need no quality).
struct Stream {
    std::uint32_t state;
    int next(int low, int high) {
        state = state * 1664525u + 1013904223u;
        return low + int((state >> 8) % std::uint32_t(high - low + 1));
    }
};

// The bits of a value that the type holds exactly, or of ±∞. (float16 encoded from its definition.)
inline std::uint16_t bits_of(double v, DType type) {
    if (type == DType::BF16) {
        const float f = static_cast<float>(v);
        std::uint32_t bits;
        std::memcpy(&bits, &f, 4);
        return static_cast<std::uint16_t>(bits >> 16);
    }
    if (v == 0) return 0;
    const std::uint16_t sign = v < 0 ? 0x8000 : 0;
    if (std::isinf(v)) return sign | 0x7c00;
    const int e = int(std::floor(std::log2(std::fabs(v))));  // normal: |v| = 2^e·(1 + m/1024)
    const int mantissa = int(std::lround((std::fabs(v) / std::ldexp(1.0, e) - 1.0) * 1024));
    return static_cast<std::uint16_t>(sign | (e + 15) << 10 | mantissa);
}

// The tensor's values written as its file would hold them (little-endian, in `type`), in chunks
// of 7 values so that chunk edges fall inside rows and strips.
inline std::string write_file_order(attn::model::Tensor& t, const std::vector<double>& values, DType type) {
    const int size = attn::model::bytes_of(type);
    std::vector<std::uint8_t> bytes(values.size() * size);
    for (std::size_t n = 0; n < values.size(); ++n) {
        if (type == DType::F32) {
            const float f = static_cast<float>(values[n]);
            std::memcpy(bytes.data() + 4 * n, &f, 4);
        } else {
            const std::uint16_t h = bits_of(values[n], type);
            std::memcpy(bytes.data() + 2 * n, &h, 2);
        }
    }
    std::string problem;
    for (std::size_t first = 0; first < values.size() && problem.empty(); first += 7) {
        problem = attn::model::write(t, first, std::min<std::size_t>(7, values.size() - first), bytes.data() + first * size);
    }
    return problem;
}

// A model of `shape` with every tensor filled in `type` and committed; `values` gets the same
// numbers as doubles, by Hugging Face name; `problem` what a commit refused (nothing expected).
inline attn::model::Model filled(const ModelConfig& c, DType type, model64::Weights& values, std::string& problem,
                                 std::uint32_t seed = 7) {
    attn::model::Model m = attn::model::describe(c);
    Stream stream{seed};
    for (attn::model::Tensor& t : m.tensors) {
        t.dtype = type;
        attn::model::allocate(t);
        const bool gain = t.name.find("ln_") != std::string::npos || t.name.find("norm") != std::string::npos;
        const bool bias = t.name.size() > 5 && t.name.compare(t.name.size() - 5, 5, ".bias") == 0;
        std::vector<double>& v = values[t.name];
        v.resize(t.elements());
        for (double& value : v) value = gain && !bias ? (192 + stream.next(-64, 63)) / 256.0 : stream.next(-255, 255) / 512.0;
        problem += write_file_order(t, v, type);
        attn::model::commit(t);
    }
    return m;
}

inline std::vector<int> ids_for(int T, int V) {
    std::vector<int> ids;
    for (int t = 0; t < T; ++t) ids.push_back((t * 5 + 3) % V);
    return ids;
}

}  // namespace tiny
