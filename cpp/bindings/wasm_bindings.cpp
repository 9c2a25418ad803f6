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

// Ids shared with web/src/engine/module-ids.js.
enum InputId { kInEmbeddings = 0, kInWq, kInWk, kInWv, kInWo, kInSourceEmbeddings };
enum ByteInputId { kInCustomMask = 0, kInPadding };
enum OutputId {
    // whole-model matrices
    kX = 0, kQ, kK, kV, kConcat, kOutput, kWq, kWk, kWv, kWo, kMask, kXs, kEmbeddings, kPositions,
    // per-head matrices and row statistics
    kHeadQ = 20, kHeadK, kHeadV, kScores, kMasked, kWeights, kContext, kRowMax, kRowSum, kEntropy,
    kExps
};

// The scalar settings of one call; the facade fills it from the JavaScript config.
struct Options {
    int anonymous_tokens = 0;  // > 0: no token strings were given; T comes from the embeddings
    int C = 0, NH = 1, KVH = 0;
    bool has_embeddings = false;
    int weights_kind = 1;
    unsigned seed = 0;
    int positional = 0;
    bool cross = false;
    bool has_source_embeddings = false;
    int mask = 1, window = 1, prefix = 0;
    bool has_custom_mask = false, has_padding = false;
    float mask_fill = 0.0f;
    bool mask_before_scale = false, scale = true;
    float temperature = 1.0f;
    bool naive_softmax = false;
    bool use_reference = false;
};

template <typename T>
val view_of(std::vector<T>& v) {
    return val(emscripten::typed_memory_view(v.size(), v.data()));
}
val view_of(attn::Matrix& m) { return view_of(m.data); }

class WasmEngine {
public:
    // Sizes input matrix `id` to rows×cols and returns a Float32Array over it for JS to fill.
    val input(int id, int rows, int cols) {
        attn::Matrix& m = input_matrix(id);
        m.resize(rows, cols);
        return view_of(m);
    }

    // Sizes byte input `id` (custom mask, padding) and returns a Uint8Array over it.
    val byteInput(int id, int size) {
        std::vector<std::uint8_t>& bytes = id == kInPadding ? config_.padding : config_.custom_mask;
        bytes.resize(size);
        return view_of(bytes);
    }

    // Runs validate → resolve → forward. Returns "" on success, else the validation message.
    std::string run(val tokens, val source_tokens, const Options& o) {
        configure(tokens, source_tokens, o);
        return attn::compute(config_, result_,
                             o.use_reference ? attn::Implementation::Reference
                                             : attn::Implementation::Simd);
    }

    // The forward-only path; `weight_rows` (Int32Array) names the query rows whose weights to keep.
    std::string runOutputOnly(val tokens, val source_tokens, const Options& o, val weight_rows) {
        configure(tokens, source_tokens, o);
        return attn::compute_output_only(config_, emscripten::vecFromJSArray<int>(weight_rows),
                                         output_only_);
    }

    // Views of the forward-only result: the output (head ignored), or head h's kept weight rows.
    val outputOnly(int id, int head) {
        return id == kOutput ? view_of(output_only_.output) : view_of(output_only_.row_weights.at(head));
    }


    // A typed array over result `id` (of head `head` for per-head ids). Valid until the next call
    // into the module: the facade copies it at once.
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
            case kMask: return view_of(result_.mask);
            case kXs: return view_of(result_.xs);
            case kEmbeddings: return view_of(result_.embeddings);
            case kPositions: return view_of(result_.positions);
        }
        attn::HeadResult& h = result_.heads.at(head);
        switch (id) {
            case kHeadQ: return view_of(h.q);
            case kHeadK: return view_of(h.k);
            case kHeadV: return view_of(h.v);
            case kScores: return view_of(h.scores);
            case kMasked: return view_of(h.masked);
            case kWeights: return view_of(h.weights);
            case kRowMax: return view_of(h.row_max);
            case kRowSum: return view_of(h.row_sum);
            case kEntropy: return view_of(h.entropy);
            case kExps: return view_of(h.exps);
            default: return view_of(h.context);
        }
    }

private:
    void configure(val tokens, val source_tokens, const Options& o) {
        if (o.anonymous_tokens > 0) {
            config_.tokens.assign(o.anonymous_tokens, std::string());
        } else {
            config_.tokens = emscripten::vecFromJSArray<std::string>(tokens);
        }
        config_.cross = o.cross;
        config_.source_tokens = o.cross ? emscripten::vecFromJSArray<std::string>(source_tokens)
                                        : std::vector<std::string>{};
        config_.C = o.C;
        config_.NH = o.NH;
        config_.KVH = o.KVH;
        config_.has_embeddings = o.has_embeddings;
        config_.has_source_embeddings = o.has_source_embeddings;
        config_.weights = static_cast<attn::WeightsKind>(o.weights_kind);
        config_.seed = o.seed;
        config_.positional = static_cast<attn::Positional>(o.positional);
        config_.mask = static_cast<attn::MaskKind>(o.mask);
        config_.window = o.window;
        config_.prefix = o.prefix;
        if (!o.has_custom_mask) config_.custom_mask.clear();
        if (!o.has_padding) config_.padding.clear();
        config_.mask_fill = o.mask_fill;
        config_.mask_before_scale = o.mask_before_scale;
        config_.scale = o.scale;
        config_.temperature = o.temperature;
        config_.naive_softmax = o.naive_softmax;
    }

    attn::Matrix& input_matrix(int id) {
        switch (id) {
            case kInWq: return config_.wq;
            case kInWk: return config_.wk;
            case kInWv: return config_.wv;
            case kInWo: return config_.wo;
            case kInSourceEmbeddings: return config_.source_embeddings;
            default: return config_.embeddings;
        }
    }

    attn::Config config_;
    attn::Result result_;
    attn::OutputOnlyResult output_only_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::value_object<Options>("Options")
        .field("anonymousTokens", &Options::anonymous_tokens)
        .field("dModel", &Options::C)
        .field("heads", &Options::NH)
        .field("kvHeads", &Options::KVH)
        .field("hasEmbeddings", &Options::has_embeddings)
        .field("weightsKind", &Options::weights_kind)
        .field("seed", &Options::seed)
        .field("positional", &Options::positional)
        .field("cross", &Options::cross)
        .field("hasSourceEmbeddings", &Options::has_source_embeddings)
        .field("mask", &Options::mask)
        .field("window", &Options::window)
        .field("prefix", &Options::prefix)
        .field("hasCustomMask", &Options::has_custom_mask)
        .field("hasPadding", &Options::has_padding)
        .field("maskFill", &Options::mask_fill)
        .field("maskBeforeScale", &Options::mask_before_scale)
        .field("scale", &Options::scale)
        .field("temperature", &Options::temperature)
        .field("naiveSoftmax", &Options::naive_softmax)
        .field("useReference", &Options::use_reference);
    emscripten::class_<WasmEngine>("WasmEngine")
        .constructor<>()
        .function("input", &WasmEngine::input)
        .function("byteInput", &WasmEngine::byteInput)
        .function("run", &WasmEngine::run)
        .function("output", &WasmEngine::output)
        .function("runOutputOnly", &WasmEngine::runOutputOnly)
        .function("outputOnly", &WasmEngine::outputOnly);
    emscripten::function("simdArchName", &attn::simd_arch_name);
    emscripten::constant("maxTokens", attn::kMaxTokens);
    emscripten::constant("maxTokensOutputOnly", attn::kMaxTokensOutputOnly);
    emscripten::constant("maxModelWidth", attn::kMaxModelWidth);
}
