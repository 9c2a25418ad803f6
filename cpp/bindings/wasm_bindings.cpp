// Embind registration: the only file that includes Emscripten headers. It holds no attention
// logic; conversions that make the API feel like JavaScript live in web/src/engine/.
//
// Data crosses as typed arrays: JS writes input matrices through views of the engine's own
// storage (one copy in) and copies each result matrix out of a view (one copy out).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "attention.hpp"

namespace {

using emscripten::val;

// Matrix ids shared with web/src/engine/module-ids.js.
enum InputId { kInEmbeddings = 0, kInWq = 1, kInWk = 2, kInWv = 3, kInWo = 4 };
enum OutputId {
    kX = 0, kQ, kK, kV, kConcat, kOutput, kWq, kWk, kWv, kWo,          // whole-model matrices
    kHeadQ = 10, kHeadK, kHeadV, kScores, kMasked, kWeights, kContext  // per-head matrices
};

val view_of(attn::Matrix& m) {
    return val(emscripten::typed_memory_view(m.data.size(), m.data.data()));
}

class WasmEngine {
public:
    // Sizes input matrix `id` to rows×cols and returns a Float32Array over it for JS to fill.
    val input(int id, int rows, int cols) {
        attn::Matrix& m = input_matrix(id);
        m.resize(rows, cols);
        return view_of(m);
    }

    // Runs validate → resolve → forward. Returns "" on success, else the validation message.
    std::string run(val tokens, int C, int NH, bool has_embeddings, int weights_kind,
                    unsigned seed, int mask_kind, bool scale, bool use_reference) {
        config_.tokens = emscripten::vecFromJSArray<std::string>(tokens);
        config_.C = C;
        config_.NH = NH;
        config_.has_embeddings = has_embeddings;
        config_.weights = static_cast<attn::WeightsKind>(weights_kind);
        config_.seed = seed;
        config_.mask = static_cast<attn::MaskKind>(mask_kind);
        config_.scale = scale;
        return attn::compute(config_, result_,
                             use_reference ? attn::Implementation::Reference
                                           : attn::Implementation::Simd);
    }

    // A Float32Array over result matrix `id` (of head `head` for per-head ids). Valid until the
    // next call into the module: the facade copies it at once.
    val output(int id, int head) {
        switch (id) {
            case kX: return view_of(result_.x);
            case kQ: return view_of(result_.q);
            case kK: return view_of(result_.k);
            case kV: return view_of(result_.v);
            case kConcat: return view_of(result_.concat);
            case kOutput: return view_of(result_.output);
            case kWq: return view_of(result_.wq);
            case kWk: return view_of(result_.wk);
            case kWv: return view_of(result_.wv);
            case kWo: return view_of(result_.wo);
        }
        attn::HeadResult& h = result_.heads.at(head);
        switch (id) {
            case kHeadQ: return view_of(h.q);
            case kHeadK: return view_of(h.k);
            case kHeadV: return view_of(h.v);
            case kScores: return view_of(h.scores);
            case kMasked: return view_of(h.masked);
            case kWeights: return view_of(h.weights);
            default: return view_of(h.context);
        }
    }

private:
    attn::Matrix& input_matrix(int id) {
        switch (id) {
            case kInWq: return config_.wq;
            case kInWk: return config_.wk;
            case kInWv: return config_.wv;
            case kInWo: return config_.wo;
            default: return config_.embeddings;
        }
    }

    attn::Config config_;
    attn::Result result_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::class_<WasmEngine>("WasmEngine")
        .constructor<>()
        .function("input", &WasmEngine::input)
        .function("run", &WasmEngine::run)
        .function("output", &WasmEngine::output);
    emscripten::function("simdArchName", &attn::simd_arch_name);
    emscripten::constant("maxTokens", attn::kMaxTokens);
    emscripten::constant("maxModelWidth", attn::kMaxModelWidth);
}
