// Embind registration of loaded models (cpp/model/). Thin: JS reads the files and checks types,
// writes each tensor's bytes through a view of the model's own storage and copies results out of
// views; the core checks every value. Every call that can allocate returns "" or a message
// (guarded.hpp: nothing thrown in C++ reaches JavaScript) and hands out no view: views come from
// calls that allocate nothing, after it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cmath>
#include <string>

#include "attention.hpp"
#include "bindings/guarded.hpp"
#include "model/model.hpp"

namespace {

using attn::bindings::guarded;
using emscripten::val;
using namespace attn::model;

// The module's memory stops at 2 GiB (-sMAXIMUM_MEMORY in CMakeLists.txt); a model leaves a little
// of it for the engine's own calls, strings and the allocator's bookkeeping.
constexpr double kModuleMemoryBytes = 2048.0 * 1024 * 1024;
constexpr double kReservedBytes = 64.0 * 1024 * 1024;
constexpr double kMiB = 1024.0 * 1024;
// The chunk a tensor's bytes cross into the module in (web/src/engine/model.js, CHUNK_BYTES).
constexpr double kStagingBytes = 4.0 * 1024 * 1024;

double bytes_in_use() {
    return static_cast<double>(mallinfo().uordblks);
}
double bytes_free() {
    return kModuleMemoryBytes - kReservedBytes - bytes_in_use();
}

template <typename T>
val view_of(T* data, std::size_t n) {
    return val(emscripten::typed_memory_view(n, data));
}
val view_of(attn::Matrix& m) {
    return view_of(m.data.data(), m.data.size());
}

// From the object web/src/engine/model.js made (every field present, of the right type).
ModelConfig config_from(const val& o) {
    ModelConfig c;
    const std::string architecture = o["architecture"].as<std::string>();
    c.architecture = architecture == "gpt2" ? Architecture::Gpt2 : architecture == "llama" ? Architecture::Llama
                                                                                           : Architecture::Qwen2;
    c.L = o["layers"].as<int>();
    c.C = o["dModel"].as<int>();
    c.NH = o["heads"].as<int>();
    c.KVH = o["kvHeads"].as<int>();
    c.V = o["vocabSize"].as<int>();
    c.F = o["hidden"].as<int>();
    c.context = o["contextLength"].as<int>();
    c.norm_epsilon = o["normEpsilon"].as<double>();
    c.rope_theta = o["ropeTheta"].as<double>();
    c.tied = o["tied"].as<bool>();
    c.attention_bias = o["attentionBias"].as<bool>();
    c.mlp_bias = o["mlpBias"].as<bool>();
    return c;
}

std::string validate_model_config(const val& config) {
    return guarded([&] { return validate(config_from(config)); });
}

class WasmModel {
public:
    // "" and the model described (its tensors' names and shapes, no storage yet), or the problem.
    std::string open(const val& config) {
        return guarded([&] {
            model_ = describe(config_from(config));
            return std::string();
        });
    }

    // [{ name, shape }] of every tensor the files must hold, in the model's order.
    val tensors() const {
        val out = val::array();
        for (const Tensor& t : model_.tensors) {
            val entry = val::object();
            entry.set("name", t.name);
            val shape = val::array();
            for (int d : t.shape) shape.call<void>("push", d);
            entry.set("shape", shape);
            out.call<void>("push", entry);
        }
        return out;
    }

    void setDtype(int i, int dtype) { model_.tensors.at(i).dtype = static_cast<DType>(dtype); }

    double weightBytes() const { return weight_bytes(model_); }

    // "" when the weights, as stored, and the staging chunk fit in what the module's memory has
    // free, else the sizes.
    std::string checkMemory() const {
        const double bytes = weight_bytes(model_), available = bytes_free() - kStagingBytes;
        if (bytes <= available) return {};
        return "the weights take " + attn::number_text(std::ceil(bytes / kMiB)) + " MiB as stored, more than the " +
               attn::number_text(std::floor(std::max(0.0, available) / kMiB)) + " MiB the engine has free for them (its memory stops at " +
               attn::number_text(kModuleMemoryBytes / kMiB) + " MiB)";
    }

    // Loading: allocateAll() gives every tensor its storage at once, right after checkMemory() (so
    // that nothing else can take the memory meanwhile); then, tensor by tensor and chunk by chunk, JS
    // writes the file's bytes into staging(n) and writeTensor(i, first, count) stores them as values
    // [first, first + count) in the file's order ("" or the entry that is ∞ or NaN);
    // commitTensor(i) ends a tensor, doneLoading() the load.
    std::string allocateAll() {
        return guarded([&] {
            for (Tensor& t : model_.tensors) allocate(t);
            return std::string();
        });
    }
    // The staging chunk sized to `bytes` (then staging(), its view, for JS to fill).
    std::string reserveStaging(int bytes) {
        return guarded([&] {
            staging_.resize(bytes);
            return std::string();
        });
    }
    val staging() { return view_of(staging_.data(), staging_.size()); }
    std::string writeTensor(int i, double first, int count) {
        return guarded([&] { return write(model_.tensors.at(i), static_cast<std::size_t>(first), count, staging_.data()); });
    }
    std::string commitTensor(int i) {
        return guarded([&] {
            commit(model_.tensors.at(i));
            return std::string();
        });
    }
    void doneLoading() { std::vector<std::uint8_t>().swap(staging_); }

    // Ids go through reserveIds(T), then ids(), a view JS fills, then run().
    std::string reserveIds(int T) {
        return guarded([&] {
            ids_.resize(T);
            return std::string();
        });
    }
    val ids() { return view_of(ids_.data(), ids_.size()); }
    // "" when the run went, else the message; a refused run lets go of the last run's buffers.
    std::string run() {
        return guarded([&] {
            const double held = run_.T > 0 ? run_bytes(model_.config, run_.T) : 0.0;
            std::string problem = validate_run(model_, ids_, bytes_free() + held);
            if (!problem.empty()) {
                run_ = Run{};
                return problem;
            }
            forward(model_, ids_, run_);
            return std::string();
        });
    }

    // Views of the last run: logits (T, V); layer l's input and normed input (T, C); head h's map
    // (T, T) and q (T, HS); key/value head g's k and v (T, HS).
    val logits() { return view_of(run_.logits); }
    val layerInput(int l) { return view_of(run_.layers.at(l).input); }
    val layerNormed(int l) { return view_of(run_.layers.at(l).normed); }
    val attention(int l, int h) { return part(run_.layers.at(l).attention, h, std::size_t(run_.T) * run_.T); }
    val headQ(int l, int h) { return part(run_.layers.at(l).q, h, head_size()); }
    val headK(int l, int g) { return part(run_.layers.at(l).k, g, head_size()); }
    val headV(int l, int g) { return part(run_.layers.at(l).v, g, head_size()); }

    // Layer l's attention as compute() takes it (then attentionWeights(): { wq, wk, wv, wo } and
    // the biases it has, as views, float32, [in, out]; valid until the next call).
    std::string prepareAttentionWeights(int l) {
        return guarded([&] {
            lesson_ = attention_weights(model_, l);
            return std::string();
        });
    }
    val attentionWeights() {
        val out = val::object();
        for (auto [name, m] : {std::pair{"wq", &lesson_.wq}, {"wk", &lesson_.wk}, {"wv", &lesson_.wv}, {"wo", &lesson_.wo}, {"bq", &lesson_.bq}, {"bk", &lesson_.bk}, {"bv", &lesson_.bv}, {"bo", &lesson_.bo}}) {
            if (m->rows > 0) out.set(name, view_of(*m));
        }
        return out;
    }

private:
    std::size_t head_size() const { return std::size_t(run_.T) * model_.config.HS(); }
    static val part(std::vector<float>& data, int index, std::size_t n) {
        return view_of(data.data() + std::size_t(index) * n, n);
    }

    Model model_;
    std::vector<std::uint8_t> staging_;
    std::vector<int> ids_;
    Run run_;
    AttentionWeights lesson_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_model) {
    emscripten::function("validateModelConfig", &validate_model_config);
    emscripten::class_<WasmModel>("WasmModel")
        .constructor<>()
        .function("open", &WasmModel::open)
        .function("tensors", &WasmModel::tensors)
        .function("setDtype", &WasmModel::setDtype)
        .function("weightBytes", &WasmModel::weightBytes)
        .function("checkMemory", &WasmModel::checkMemory)
        .function("allocateAll", &WasmModel::allocateAll)
        .function("reserveStaging", &WasmModel::reserveStaging)
        .function("staging", &WasmModel::staging)
        .function("writeTensor", &WasmModel::writeTensor)
        .function("commitTensor", &WasmModel::commitTensor)
        .function("doneLoading", &WasmModel::doneLoading)
        .function("reserveIds", &WasmModel::reserveIds)
        .function("ids", &WasmModel::ids)
        .function("run", &WasmModel::run)
        .function("logits", &WasmModel::logits)
        .function("layerInput", &WasmModel::layerInput)
        .function("layerNormed", &WasmModel::layerNormed)
        .function("attention", &WasmModel::attention)
        .function("headQ", &WasmModel::headQ)
        .function("headK", &WasmModel::headK)
        .function("headV", &WasmModel::headV)
        .function("prepareAttentionWeights", &WasmModel::prepareAttentionWeights)
        .function("attentionWeights", &WasmModel::attentionWeights);
}
