// The weights of a loaded model: storage in the file's type, the check of every value as it
// arrives, and one layer's attention turned into what compute() takes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "attention.hpp"
#include "model/half_float.hpp"
#include "model/model.hpp"
#include "model/model_gemm.hpp"

namespace attn::model {
namespace {

// "name[r][c]" of a matrix, "name[i]" of a vector, for element n.
std::string entry_name(const Tensor& t, std::size_t n) {
    std::ostringstream out;
    out << t.name;
    if (t.shape.size() == 2) out << "[" << n / t.cols() << "]";
    out << "[" << n % t.cols() << "]";
    return out.str();
}

// Columns [col0, col0 + cols) of the product's outputs, as a (K, cols) float32 matrix in [in, out]
// layout, whatever the tensor's layout and type.
Matrix in_out_columns(const Tensor& w, int col0, int cols) {
    const int K = inputs_of(w);
    Matrix out(K, cols);
    if (w.layout == Layout::InOut) {
        for (int k = 0; k < K; ++k) load_values(w, std::size_t(k) * w.cols() + col0, cols, out.row(k));
    } else {
        std::vector<float> line(K);
        for (int j = 0; j < cols; ++j) {
            load_values(w, std::size_t(col0 + j) * w.cols(), K, line.data());
            for (int k = 0; k < K; ++k) out(k, j) = line[k];
        }
    }
    return out;
}

// Entries [first, first + n) of a vector, as a (1, n) matrix; empty when the model has no such tensor.
Matrix vector_part(const Model& m, int index, int first, int n) {
    if (index < 0) return {};
    Matrix out(1, n);
    load_values(m.tensors[index], first, n, out.row(0));
    return out;
}

}  // namespace

void allocate(Tensor& t) {
    const std::size_t n = stored_elements(t);
    if (t.dtype == DType::F32) {
        t.bits = {};
        t.f32.assign(n, 0.0f);
    } else {
        t.f32 = {};
        t.bits.assign(n, 0);
    }
}

std::string write(Tensor& t, std::size_t first, std::size_t n, const std::uint8_t* bytes) {
    const std::size_t bad = write_values(t, first, n, bytes);
    if (bad == first + n) return {};
    float value;
    if (t.dtype == DType::F32) {
        std::memcpy(&value, bytes + (bad - first) * 4, 4);
    } else {
        std::uint16_t h;
        std::memcpy(&h, bytes + (bad - first) * 2, 2);
        value = t.dtype == DType::F16 ? f16_to_f32(h) : bf16_to_f32(h);
    }
    return entry_name(t, bad) + " is not a finite number (got " + number_text(value) + ")";
}

void commit(Tensor& t) {
    // vectors are read value by value in every run: float32 once and for all
    if (t.shape.size() == 1 && t.dtype != DType::F32) {
        t.f32.resize(t.elements());
        load_values(t, 0, static_cast<int>(t.elements()), t.f32.data());
        t.bits = {};
    }
}

AttentionWeights attention_weights(const Model& m, int layer) {
    const ModelConfig& c = m.config;
    const LayerWeights& w = m.layers[layer];
    const int C = c.C, kv_width = c.KVH * c.HS();
    AttentionWeights a;
    if (c.architecture == Architecture::Gpt2) {
        // c_attn's columns are q | k | v
        const Tensor& qkv = m.tensors[w.wqkv];
        a.wq = in_out_columns(qkv, 0, C);
        a.wk = in_out_columns(qkv, C, C);
        a.wv = in_out_columns(qkv, 2 * C, C);
        a.bq = vector_part(m, w.bqkv, 0, C);
        a.bk = vector_part(m, w.bqkv, C, C);
        a.bv = vector_part(m, w.bqkv, 2 * C, C);
    } else {
        a.wq = in_out_columns(m.tensors[w.wq], 0, C);
        a.wk = in_out_columns(m.tensors[w.wk], 0, kv_width);
        a.wv = in_out_columns(m.tensors[w.wv], 0, kv_width);
        a.bq = vector_part(m, w.bq, 0, C);
        a.bk = vector_part(m, w.bk, 0, kv_width);
        a.bv = vector_part(m, w.bv, 0, kv_width);
    }
    a.wo = in_out_columns(m.tensors[w.wo], 0, C);
    a.bo = vector_part(m, w.bo, 0, C);
    return a;
}

}  // namespace attn::model
