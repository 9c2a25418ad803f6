// Embind registration: the only file that includes Emscripten headers. It holds no attention
// logic; conversions that make the API feel like JavaScript live in web/src/engine/.
//
// Data crosses as typed arrays: JS writes input matrices through views of the engine's own
// storage (one copy in) and copies each result matrix out of a view (one copy out). Every call
// that can allocate returns "" or a message (guarded.hpp: nothing thrown in C++ reaches
// JavaScript) and hands out no view: views come from calls that allocate nothing, after it.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <array>
#include <climits>
#include <string>

#include "attention.hpp"
#include "bindings/guarded.hpp"
#include "weights.hpp"

namespace {

using attn::bindings::guarded;
using emscripten::val;

// Ids shared with web/src/engine/module-ids.js.
enum InputId {
    kInEmbeddings = 0,
    kInWq,
    kInWk,
    kInWv,
    kInWo,
    kInSourceEmbeddings,
    kInBq,
    kInBk,
    kInBv,
    kInBo
};
enum ByteInputId {
    kInCustomMask = 0,
    kInPadding
};
enum OutputId {
    // whole-model matrices
    kX = 0,
    kQ,
    kK,
    kV,
    kConcat,
    kOutput,
    kWq,
    kWk,
    kWv,
    kWo,
    kMask,
    kXs,
    kEmbeddings,
    kPositions,
    kRopeAngles,
    kAlibiSlopes,
    kBq,
    kBk,
    kBv,
    kBo,
    // per-head matrices and row statistics
    kHeadQ = 20,
    kHeadK,
    kHeadV,
    kScores,
    kMasked,
    kWeights,
    kContext,
    kRowMax,
    kRowSum,
    kEntropy,
    kExps,
    kBias,
    kWeightSum,
    kLaterWeight,
    // the FlashAttention trace
    kTraceTiles = 40,
    kTraceLogits,
    kTraceMax,
    kTraceSum,
    kTraceRescale,
    kTracePartial,
    kTraceContext,
    kTraceOutput,
    // the incremental decode
    kDecodeKCache = 50,
    kDecodeVCache,
    kDecodeWeights,
    kDecodeOutput,
    kDecodeDifference
};

// The scalar settings and the sizes of one call, in the order of OPTION_NAMES in
// web/src/engine/module-ids.js. JS writes them straight into a Float64Array over `options_` (no
// per-field conversion: the smallest configs must cost microseconds). Sizes come as the caller
// gave them, so that check() can refuse a call before any input is copied into the module.
enum OptionIndex {
    kOptAnonymousTokens,  // > 0: no token strings were given; T comes from the embeddings
    kOptDModel,
    kOptHeads,
    kOptKvHeads,
    kOptHasEmbeddings,
    kOptWeightsKind,
    kOptSeed,
    kOptPositional,
    kOptCross,
    kOptHasSourceEmbeddings,
    kOptMask,
    kOptWindow,
    kOptPrefix,
    kOptHasCustomMask,
    kOptHasPadding,
    kOptMaskFill,
    kOptMaskBeforeScale,
    kOptScale,
    kOptTemperature,
    kOptNaiveSoftmax,
    kOptUseReference,
    kOptTokenCount,
    kOptSourceTokenCount,
    kOptLongestToken,
    kOptEmbeddingsRows,
    kOptEmbeddingsCols,
    kOptSourceEmbeddingsRows,
    kOptSourceEmbeddingsCols,
    kOptWqRows,
    kOptWqCols,
    kOptWkRows,
    kOptWkCols,
    kOptWvRows,
    kOptWvCols,
    kOptWoRows,
    kOptWoCols,
    kOptCustomMaskRows,
    kOptCustomMaskCols,
    kOptPaddingLength,
    kOptOutputOnly,
    kOptWeightRowCount,
    kOptPositionOffset,
    kOptAlibi,
    kOptTrace,
    kOptBlockRows,
    kOptBlockKeys,
    kOptDecode,
    kOptSoftmaxOver,
    kOptBqLength,
    kOptBkLength,
    kOptBvLength,
    kOptBoLength,  // entries of each bias, −1 when absent
    kOptRopePairing,
    kOptRopeTheta,
    kOptOptionCount
};

// A number from JavaScript as an int, saturated: only window and prefix can be out of range after
// check(), and for them any value past T means the same.
int saturated_int(double value) {
    if (!(value > INT_MIN)) return INT_MIN;
    return value < INT_MAX ? static_cast<int>(value) : INT_MAX;
}

template <typename T>
val view_of(std::vector<T>& v) {
    return val(emscripten::typed_memory_view(v.size(), v.data()));
}
val view_of(attn::Matrix& m) {
    return view_of(m.data);
}

class WasmEngine {
public:
    // Sizes input matrix `id` to rows×cols; input(id) is then a Float32Array over it for JS to fill.
    std::string allocate(int id, int rows, int cols) {
        return guarded([&] {
            input_matrix(id).resize(rows, cols);
            return std::string();
        });
    }
    val input(int id) { return view_of(input_matrix(id)); }

    // Sizes byte input `id` (custom mask, padding); byteInput(id) is then a Uint8Array over it.
    std::string allocateBytes(int id, int size) {
        return guarded([&] {
            byte_input(id).resize(size);
            return std::string();
        });
    }
    val byteInput(int id) { return view_of(byte_input(id)); }

    // The settings block, as a Float64Array for JS to fill before each call.
    val options() { return val(emscripten::typed_memory_view(options_.size(), options_.data())); }

    // Checks the sizes in the settings block before JS copies any input in: "" when they are
    // acceptable and fit the memory budget, else the message. A refusal frees what the engine holds.
    std::string check() {
        return finished(guarded([&] { return attn::validate_sizes(sizes()); }));
    }

    // Runs validate → resolve → forward. Returns "" on success, else the validation message.
    // Token lists: `null` keeps the previous call's (saves converting strings that did not change).
    // `progress`: a JS function called with the fraction done that returns false to stop, or null.
    // It must not throw: an exception unwinding through the module would skip its destructors.
    // The result is then packed(), one array.
    std::string run(val tokens, val source_tokens, val progress) {
        return finished(guarded([&] {
            configure(tokens, source_tokens);
            const auto implementation = options_[kOptUseReference] != 0 ? attn::Implementation::Reference
                                                                        : attn::Implementation::Simd;
            std::string problem = attn::compute(config_, result_, implementation, progress_of(progress));
            if (problem.empty()) pack_result();
            return problem;
        }));
    }

    // The forward-only path; `weight_rows` (numbers) names the query rows whose weights to keep.
    std::string runOutputOnly(val tokens, val source_tokens, val weight_rows, val progress) {
        return finished(guarded([&] {
            configure(tokens, source_tokens);
            const auto rows = emscripten::vecFromJSArray<double>(weight_rows);
            std::string problem = attn::validate_weight_rows(rows, static_cast<int>(config_.tokens.size()));
            if (!problem.empty()) return problem;
            return attn::compute_output_only(config_, std::vector<int>(rows.begin(), rows.end()), output_only_,
                                             progress_of(progress));
        }));
    }

    // The vectors "one vector per token" gives these tokens (no positions, no attention), for
    // an editor of X, then in tokenEmbeddings(). The sizes must have passed check().
    std::string computeTokenEmbeddings(val tokens) {
        return finished(guarded([&] {
            token_embeddings_ = attn::token_embeddings(emscripten::vecFromJSArray<std::string>(tokens),
                                                       static_cast<int>(options_[kOptDModel]));
            return std::string();
        }));
    }
    val tokenEmbeddings() { return view_of(token_embeddings_); }

    // Lets go of everything the engine holds (inputs, token lists, results): after a failed call,
    // so that the memory in use returns to what it was at start.
    void release() {
        config_ = attn::Config{};
        result_ = attn::Result{};
        output_only_ = attn::OutputOnlyResult{};
        trace_ = attn::FlashTrace{};
        decode_ = attn::DecodeResult{};
        decode_counts_ = std::vector<double>{};
        packed_ = std::vector<float>{};
        token_embeddings_ = attn::Matrix{};
    }

    // Bytes the module's allocator has handed out and not taken back (the module's memory itself
    // only grows): after a refused or failed call this is back to its value at start.
    double memoryInUse() const { return static_cast<double>(mallinfo().uordblks); }

    // The FlashAttention trace with the settings block's tile (blockRows × blockKeys).
    // The trace, then packed() as a result is packed (tiles as a matrix of 6 columns, the flat
    // arrays as 1×n rows).
    std::string runTrace(val tokens, val source_tokens) {
        return finished(guarded([&] {
            configure(tokens, source_tokens);
            std::string problem = attn::trace_output_only(config_, saturated_int(options_[kOptBlockRows]),
                                                          saturated_int(options_[kOptBlockKeys]), trace_);
            if (!problem.empty()) return problem;
            const attn::FlashTrace& t = trace_;
            std::vector<Entry> entries = {
                {kTraceTiles, 0, t.tiles.rows, t.tiles.cols, t.tiles.data.data()},
                row_entry(kTraceLogits, 0, t.logits),
                row_entry(kTraceMax, 0, t.max),
                row_entry(kTraceSum, 0, t.sum),
                row_entry(kTraceRescale, 0, t.rescale),
                row_entry(kTracePartial, 0, t.partial),
                matrix_entry(kTraceOutput, 0, t.output)};
            for (int h = 0; h < static_cast<int>(t.context.size()); ++h) {
                entries.push_back(matrix_entry(kTraceContext, h, t.context[h]));
            }
            pack(entries);
            return std::string();
        }));
    }

    // Generation with a KV cache, step by step, beside the full causal pass; then packed() and
    // decodeCounts().
    std::string runDecode(val tokens) {
        return finished(guarded([&] {
            configure(tokens, val::null());
            std::string problem = attn::decode_incremental(config_, decode_);
            if (!problem.empty()) return problem;
            const attn::DecodeResult& d = decode_;
            std::vector<Entry> entries = {matrix_entry(kDecodeKCache, 0, d.k_cache), matrix_entry(kDecodeVCache, 0, d.v_cache),
                                          matrix_entry(kDecodeOutput, 0, d.output), row_entry(kDecodeDifference, 0, d.difference)};
            for (int h = 0; h < static_cast<int>(d.weights.size()); ++h) {
                entries.push_back(matrix_entry(kDecodeWeights, h, d.weights[h]));
            }
            pack(entries);
            // The counts as doubles (they pass 2²⁴): multiply-adds per step with the cache, then
            // without it, then the cache's bytes per token per layer.
            decode_counts_ = d.madds_cached;
            decode_counts_.insert(decode_counts_.end(), d.madds_uncached.begin(), d.madds_uncached.end());
            decode_counts_.push_back(d.cache_bytes_per_token);
            return std::string();
        }));
    }
    val decodeCounts() { return view_of(decode_counts_); }

    // Views of the forward-only result: the output (head ignored), or head h's kept weight rows.
    val outputOnly(int id, int head) {
        return id == kOutput ? view_of(output_only_.output) : view_of(output_only_.row_weights.at(head));
    }

    // The last run's, trace's or decode's matrices packed into one Float32Array, so that JS copies
    // them out in one go (one crossing instead of dozens); layout in pack(). Valid until the next
    // call into the module: the facade copies it at once.
    val packed() { return view_of(packed_); }

private:
    // Every result matrix of the last `run`, packed.
    void pack_result() {
        const attn::Result& r = result_;
        std::vector<Entry> entries;
        for (auto [id, m] : {
                 std::pair{kX, &r.x},
                 {kQ, &r.q},
                 {kK, &r.k},
                 {kV, &r.v},
                 {kConcat, &r.concat},
                 {kOutput, &r.output},
                 {kWq, &r.wq},
                 {kWk, &r.wk},
                 {kWv, &r.wv},
                 {kWo, &r.wo},
                 {kMask, &r.mask},
                 {kXs, &r.xs},
                 {kEmbeddings, &r.embeddings},
                 {kPositions, &r.positions},
                 {kRopeAngles, &r.rope_angles},
                 {kBq, &r.bq},
                 {kBk, &r.bk},
                 {kBv, &r.bv},
                 {kBo, &r.bo},
             }) {
            entries.push_back(matrix_entry(id, 0, *m));
        }
        entries.push_back(row_entry(kAlibiSlopes, 0, r.alibi_slopes));
        for (int h = 0; h < static_cast<int>(r.heads.size()); ++h) {
            const attn::HeadResult& hr = r.heads[h];
            for (auto [id, m] : {
                     std::pair{kHeadQ, &hr.q},
                     {kHeadK, &hr.k},
                     {kHeadV, &hr.v},
                     {kScores, &hr.scores},
                     {kMasked, &hr.masked},
                     {kExps, &hr.exps},
                     {kWeights, &hr.weights},
                     {kContext, &hr.context},
                     {kBias, &hr.bias},
                 }) {
                entries.push_back(matrix_entry(id, h, *m));
            }
            // row statistics as 1×T rows
            for (auto [id, v] : {
                     std::pair{kRowMax, &hr.row_max},
                     {kRowSum, &hr.row_sum},
                     {kEntropy, &hr.entropy},
                     {kWeightSum, &hr.weight_sum},
                     {kLaterWeight, &hr.later_weight},
                 }) {
                entries.push_back(row_entry(id, h, *v));
            }
        }
        pack(entries);
    }

    struct Entry {
        int id, head, rows, cols;
        const float* data;
    };
    static Entry matrix_entry(int id, int head, const attn::Matrix& m) { return {id, head, m.rows, m.cols, m.data.data()}; }
    static Entry row_entry(int id, int head, const std::vector<float>& v) {
        return {id, head, 1, static_cast<int>(v.size()), v.data()};
    }

    // Layout: [n, then n entries of (id, head, rows, cols)], then each entry's rows·cols floats in
    // that order. (Header values are small integers, exact in float32; offsets are summed in JS,
    // where they cannot overflow.)
    void pack(const std::vector<Entry>& entries) {
        std::size_t offset = 1 + 4 * entries.size(), total = offset;
        for (const Entry& e : entries) total += std::size_t(e.rows) * e.cols;
        packed_.resize(total);
        packed_[0] = static_cast<float>(entries.size());
        float* header = packed_.data() + 1;
        for (const Entry& e : entries) {
            *header++ = static_cast<float>(e.id);
            *header++ = static_cast<float>(e.head);
            *header++ = static_cast<float>(e.rows);
            *header++ = static_cast<float>(e.cols);
            const std::size_t n = std::size_t(e.rows) * e.cols;
            std::copy(e.data, e.data + n, packed_.begin() + offset);
            offset += n;
        }
    }

    static attn::Progress progress_of(val callback) {
        if (callback.isNull() || callback.isUndefined()) return {};
        return [callback](double fraction) { return callback(fraction).as<bool>(); };
    }

    attn::CallSizes sizes() const {
        const auto& o = options_;
        const auto flag = [&o](OptionIndex i) { return o[i] != 0; };
        const auto shape = [&o](OptionIndex rows, OptionIndex cols) {
            return attn::CallSizes::Shape{o[rows], o[cols]};
        };
        attn::CallSizes s;
        s.output_only = flag(kOptOutputOnly);
        s.T = o[kOptTokenCount];
        s.cross = flag(kOptCross);
        s.S = s.cross ? o[kOptSourceTokenCount] : s.T;
        s.longest_token = o[kOptLongestToken];
        s.C = o[kOptDModel];
        s.NH = o[kOptHeads];
        s.KVH = o[kOptKvHeads];
        s.has_embeddings = flag(kOptHasEmbeddings);
        s.embeddings = shape(kOptEmbeddingsRows, kOptEmbeddingsCols);
        s.has_source_embeddings = s.cross && flag(kOptHasSourceEmbeddings);
        s.source_embeddings = shape(kOptSourceEmbeddingsRows, kOptSourceEmbeddingsCols);
        s.explicit_weights = o[kOptWeightsKind] == static_cast<double>(attn::WeightsKind::Explicit);
        s.wq = shape(kOptWqRows, kOptWqCols);
        s.wk = shape(kOptWkRows, kOptWkCols);
        s.wv = shape(kOptWvRows, kOptWvCols);
        s.wo = shape(kOptWoRows, kOptWoCols);
        s.mask = static_cast<attn::MaskKind>(static_cast<int>(o[kOptMask]));
        s.window = o[kOptWindow];
        s.prefix = o[kOptPrefix];
        s.custom_mask = shape(kOptCustomMaskRows, kOptCustomMaskCols);
        s.has_padding = flag(kOptHasPadding);
        s.padding = o[kOptPaddingLength];
        s.weight_rows = o[kOptWeightRowCount];
        s.rope = o[kOptPositional] == static_cast<double>(attn::Positional::Rope);
        s.positional = o[kOptPositional] == static_cast<double>(attn::Positional::Sinusoidal);
        s.alibi = flag(kOptAlibi);
        s.position_offset = o[kOptPositionOffset];
        s.trace = flag(kOptTrace);
        s.block_rows = o[kOptBlockRows];
        s.block_keys = o[kOptBlockKeys];
        s.decode = flag(kOptDecode);
        s.bq = o[kOptBqLength];
        s.bk = o[kOptBkLength];
        s.bv = o[kOptBvLength];
        s.bo = o[kOptBoLength];
        s.rope_half = o[kOptRopePairing] == static_cast<double>(attn::RopePairing::Half);
        s.rope_theta = o[kOptRopeTheta];
        return s;
    }

    // After a call: on any failure the engine lets go of everything it holds (inputs, results),
    // so that its memory in use returns to what it was at start. JS then drops its views.
    std::string finished(std::string problem) {
        if (!problem.empty()) release();
        return problem;
    }

    void configure(val tokens, val source_tokens) {
        const auto& o = options_;
        const auto integer = [&o](OptionIndex i) { return saturated_int(o[i]); };
        const auto flag = [&o](OptionIndex i) { return o[i] != 0; };
        if (integer(kOptAnonymousTokens) > 0) {
            config_.tokens.assign(integer(kOptAnonymousTokens), std::string());
        } else if (!tokens.isNull()) {
            config_.tokens = emscripten::vecFromJSArray<std::string>(tokens);
        }
        config_.cross = flag(kOptCross);
        if (!config_.cross) {
            config_.source_tokens.clear();
        } else if (!source_tokens.isNull()) {
            config_.source_tokens = emscripten::vecFromJSArray<std::string>(source_tokens);
        }
        config_.C = integer(kOptDModel);
        config_.NH = integer(kOptHeads);
        config_.KVH = integer(kOptKvHeads);
        config_.has_embeddings = flag(kOptHasEmbeddings);
        config_.has_source_embeddings = flag(kOptHasSourceEmbeddings);
        config_.weights = static_cast<attn::WeightsKind>(integer(kOptWeightsKind));
        config_.seed = static_cast<std::uint32_t>(o[kOptSeed]);
        config_.positional = static_cast<attn::Positional>(integer(kOptPositional));
        config_.mask = static_cast<attn::MaskKind>(integer(kOptMask));
        config_.window = integer(kOptWindow);
        config_.prefix = integer(kOptPrefix);
        if (!flag(kOptHasCustomMask)) config_.custom_mask.clear();
        if (!flag(kOptHasPadding)) config_.padding.clear();
        config_.mask_fill = static_cast<float>(o[kOptMaskFill]);
        config_.mask_before_scale = flag(kOptMaskBeforeScale);
        config_.scale = flag(kOptScale);
        config_.temperature = static_cast<float>(o[kOptTemperature]);
        config_.naive_softmax = flag(kOptNaiveSoftmax);
        config_.softmax_over = flag(kOptSoftmaxOver) ? attn::SoftmaxAxis::Queries : attn::SoftmaxAxis::Keys;
        config_.position_offset = integer(kOptPositionOffset);
        config_.alibi = flag(kOptAlibi);
        config_.rope_pairing = flag(kOptRopePairing) ? attn::RopePairing::Half : attn::RopePairing::Adjacent;
        config_.rope_theta = o[kOptRopeTheta];
        // A bias left out of this call is dropped (JS then forgets its view of it).
        for (auto [length, bias] : {
                 std::pair{kOptBqLength, &config_.bq},
                 {kOptBkLength, &config_.bk},
                 {kOptBvLength, &config_.bv},
                 {kOptBoLength, &config_.bo},
             }) {
            if (o[length] < 0) bias->reset();
        }
    }

    std::vector<std::uint8_t>& byte_input(int id) { return id == kInPadding ? config_.padding : config_.custom_mask; }

    attn::Matrix& input_matrix(int id) {
        switch (id) {
            case kInWq: return config_.wq;
            case kInWk: return config_.wk;
            case kInWv: return config_.wv;
            case kInWo: return config_.wo;
            case kInSourceEmbeddings: return config_.source_embeddings;
            case kInBq: return bias(config_.bq);
            case kInBk: return bias(config_.bk);
            case kInBv: return bias(config_.bv);
            case kInBo: return bias(config_.bo);
            default: return config_.embeddings;
        }
    }

    static attn::Matrix& bias(std::optional<attn::Matrix>& b) { return b ? *b : b.emplace(); }

    attn::Config config_;
    attn::Result result_;
    attn::OutputOnlyResult output_only_;
    attn::FlashTrace trace_;
    attn::DecodeResult decode_;
    std::vector<double> decode_counts_;
    std::vector<float> packed_;
    attn::Matrix token_embeddings_;
    std::array<double, kOptOptionCount> options_{};
};

}  // namespace

// Every id above under the name web/src/engine/module-ids.js gives it, read from the enums
// themselves: a test compares the two, so that neither side can drift from the other.
struct NamedId {
    const char* name;
    int id;
};
val named(std::initializer_list<NamedId> ids) {
    val object = val::object();
    for (const NamedId& entry : ids) object.set(entry.name, entry.id);
    return object;
}
template <typename Enum>
constexpr int id(Enum value) {
    return static_cast<int>(value);
}

val module_ids() {
    using attn::MaskKind, attn::Positional, attn::WeightsKind;
    val ids = val::object();
    ids.set("INPUT", named({
                         {"embeddings", kInEmbeddings},
                         {"wq", kInWq},
                         {"wk", kInWk},
                         {"wv", kInWv},
                         {"wo", kInWo},
                         {"sourceEmbeddings", kInSourceEmbeddings},
                         {"bq", kInBq},
                         {"bk", kInBk},
                         {"bv", kInBv},
                         {"bo", kInBo},
                     }));
    ids.set("BYTE_INPUT", named({{"customMask", kInCustomMask}, {"padding", kInPadding}}));
    ids.set("MODEL_OUTPUT", named({
                                {"x", kX},
                                {"q", kQ},
                                {"k", kK},
                                {"v", kV},
                                {"concat", kConcat},
                                {"output", kOutput},
                                {"wq", kWq},
                                {"wk", kWk},
                                {"wv", kWv},
                                {"wo", kWo},
                                {"mask", kMask},
                                {"xs", kXs},
                                {"embeddings", kEmbeddings},
                                {"positions", kPositions},
                                {"ropeAngles", kRopeAngles},
                                {"alibiSlopes", kAlibiSlopes},
                                {"bq", kBq},
                                {"bk", kBk},
                                {"bv", kBv},
                                {"bo", kBo},
                            }));
    ids.set("HEAD_OUTPUT", named({
                               {"q", kHeadQ},
                               {"k", kHeadK},
                               {"v", kHeadV},
                               {"scores", kScores},
                               {"masked", kMasked},
                               {"weights", kWeights},
                               {"context", kContext},
                               {"rowMax", kRowMax},
                               {"rowSum", kRowSum},
                               {"entropy", kEntropy},
                               {"exps", kExps},
                               {"bias", kBias},
                               {"weightSum", kWeightSum},
                               {"laterWeight", kLaterWeight},
                           }));
    ids.set("TRACE_OUTPUT", named({
                                {"tiles", kTraceTiles},
                                {"logits", kTraceLogits},
                                {"max", kTraceMax},
                                {"sum", kTraceSum},
                                {"rescale", kTraceRescale},
                                {"partial", kTracePartial},
                                {"context", kTraceContext},
                                {"output", kTraceOutput},
                            }));
    ids.set("DECODE_OUTPUT", named({
                                 {"kCache", kDecodeKCache},
                                 {"vCache", kDecodeVCache},
                                 {"weights", kDecodeWeights},
                                 {"output", kDecodeOutput},
                                 {"difference", kDecodeDifference},
                             }));
    ids.set("WEIGHTS_KIND", named({
                                {"identity", id(WeightsKind::Identity)},
                                {"random", id(WeightsKind::Random)},
                                {"explicit", id(WeightsKind::Explicit)},
                            }));
    ids.set("MASK_KIND", named({
                             {"none", id(MaskKind::None)},
                             {"causal", id(MaskKind::Causal)},
                             {"window", id(MaskKind::Window)},
                             {"prefix", id(MaskKind::Prefix)},
                             {"custom", id(MaskKind::Custom)},
                         }));
    ids.set("POSITIONAL", named({
                              {"none", id(Positional::None)},
                              {"sinusoidal", id(Positional::Sinusoidal)},
                              {"rope", id(Positional::Rope)},
                          }));
    ids.set("ROPE_PAIRING", named({{"adjacent", id(attn::RopePairing::Adjacent)}, {"half", id(attn::RopePairing::Half)}}));
    ids.set("OPTION", named({
                          {"anonymousTokens", kOptAnonymousTokens},
                          {"dModel", kOptDModel},
                          {"heads", kOptHeads},
                          {"kvHeads", kOptKvHeads},
                          {"hasEmbeddings", kOptHasEmbeddings},
                          {"weightsKind", kOptWeightsKind},
                          {"seed", kOptSeed},
                          {"positional", kOptPositional},
                          {"cross", kOptCross},
                          {"hasSourceEmbeddings", kOptHasSourceEmbeddings},
                          {"mask", kOptMask},
                          {"window", kOptWindow},
                          {"prefix", kOptPrefix},
                          {"hasCustomMask", kOptHasCustomMask},
                          {"hasPadding", kOptHasPadding},
                          {"maskFill", kOptMaskFill},
                          {"maskBeforeScale", kOptMaskBeforeScale},
                          {"scale", kOptScale},
                          {"temperature", kOptTemperature},
                          {"naiveSoftmax", kOptNaiveSoftmax},
                          {"useReference", kOptUseReference},
                          {"tokenCount", kOptTokenCount},
                          {"sourceTokenCount", kOptSourceTokenCount},
                          {"longestToken", kOptLongestToken},
                          {"embeddingsRows", kOptEmbeddingsRows},
                          {"embeddingsCols", kOptEmbeddingsCols},
                          {"sourceEmbeddingsRows", kOptSourceEmbeddingsRows},
                          {"sourceEmbeddingsCols", kOptSourceEmbeddingsCols},
                          {"wqRows", kOptWqRows},
                          {"wqCols", kOptWqCols},
                          {"wkRows", kOptWkRows},
                          {"wkCols", kOptWkCols},
                          {"wvRows", kOptWvRows},
                          {"wvCols", kOptWvCols},
                          {"woRows", kOptWoRows},
                          {"woCols", kOptWoCols},
                          {"customMaskRows", kOptCustomMaskRows},
                          {"customMaskCols", kOptCustomMaskCols},
                          {"paddingLength", kOptPaddingLength},
                          {"outputOnly", kOptOutputOnly},
                          {"weightRowCount", kOptWeightRowCount},
                          {"positionOffset", kOptPositionOffset},
                          {"alibi", kOptAlibi},
                          {"trace", kOptTrace},
                          {"blockRows", kOptBlockRows},
                          {"blockKeys", kOptBlockKeys},
                          {"decode", kOptDecode},
                          {"softmaxOver", kOptSoftmaxOver},
                          {"bqLength", kOptBqLength},
                          {"bkLength", kOptBkLength},
                          {"bvLength", kOptBvLength},
                          {"boLength", kOptBoLength},
                          {"ropePairing", kOptRopePairing},
                          {"ropeTheta", kOptRopeTheta},
                      }));
    ids.set("OPTION_COUNT", static_cast<int>(kOptOptionCount));
    return ids;
}

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::class_<WasmEngine>("WasmEngine")
        .constructor<>()
        .function("options", &WasmEngine::options)
        .function("allocate", &WasmEngine::allocate)
        .function("input", &WasmEngine::input)
        .function("allocateBytes", &WasmEngine::allocateBytes)
        .function("byteInput", &WasmEngine::byteInput)
        .function("check", &WasmEngine::check)
        .function("release", &WasmEngine::release)
        .function("run", &WasmEngine::run)
        .function("packed", &WasmEngine::packed)
        .function("runOutputOnly", &WasmEngine::runOutputOnly)
        .function("outputOnly", &WasmEngine::outputOnly)
        .function("runTrace", &WasmEngine::runTrace)
        .function("runDecode", &WasmEngine::runDecode)
        .function("decodeCounts", &WasmEngine::decodeCounts)
        .function("computeTokenEmbeddings", &WasmEngine::computeTokenEmbeddings)
        .function("tokenEmbeddings", &WasmEngine::tokenEmbeddings)
        .function("memoryInUse", &WasmEngine::memoryInUse);
    emscripten::function("simdArchName", &attn::simd_arch_name);
    emscripten::function("moduleIds", &module_ids);
    emscripten::constant("maxTokens", attn::kMaxTokens);
    emscripten::constant("maxTokensOutputOnly", attn::kMaxTokensOutputOnly);
    emscripten::constant("maxTokensTrace", attn::kMaxTokensTrace);
    emscripten::constant("maxTokensDecode", attn::kMaxTokensDecode);
    emscripten::constant("maxTraceTiles", attn::kMaxTraceTiles);
    emscripten::constant("maxPositionOffset", attn::kMaxPositionOffset);
    emscripten::constant("maxModelWidth", attn::kMaxModelWidth);
    emscripten::constant("maxEntry", attn::kMaxEntry);
    emscripten::constant("maxTokenBytes", attn::kMaxTokenBytes);
    emscripten::constant("memoryBudgetBytes", attn::kMemoryBudgetBytes);
}
