// Input validation: every problem a person can cause gets a message that names it, before any
// computation starts. Sizes first (validate_sizes: nothing has been copied or allocated yet), then
// the entries of the matrices.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "attention.hpp"

namespace attn {
namespace {

// Index of the first entry that is not a finite number within ±kMaxEntry, or n when all are.
// One comparison, |v| ≤ kMaxEntry, is false for NaN and ±∞ too; it runs branch-free over chunks
// so that the compiler vectorises it (a 2048×768 input is checked in well under a millisecond).
std::size_t first_bad_entry(const float* v, std::size_t n) {
    constexpr std::size_t kChunk = 1024;
    for (std::size_t start = 0; start < n; start += kChunk) {
        const std::size_t end = std::min(n, start + kChunk);
        bool all_good = true;
        for (std::size_t i = start; i < end; ++i) all_good &= std::fabs(v[i]) <= kMaxEntry;
        if (all_good) continue;
        for (std::size_t i = start; i < end; ++i) {
            if (!(std::fabs(v[i]) <= kMaxEntry)) return i;
        }
    }
    return n;
}

// (`vector`: m is one row, named by a single index)
std::string check_entries(const char* name, const Matrix& m, bool vector = false) {
    const std::size_t bad = first_bad_entry(m.data.data(), m.data.size());
    if (bad == m.data.size()) return {};
    const float value = m.data[bad];
    std::ostringstream out;
    out << name;
    if (!vector) out << "[" << bad / m.cols << "]";
    out << "[" << bad % m.cols << "]";
    if (!std::isfinite(value)) {
        out << " is not a finite number";
    } else {
        out << " = " << number_text(value) << " is too large (the limit is \u00b1" << number_text(kMaxEntry) << ")";
    }
    return out.str();
}

bool whole_in(double value, double low, double high) {
    return value >= low && value <= high && std::floor(value) == value;
}

std::string check_shape(const char* name, const CallSizes::Shape& got, double rows, double cols,
                        const char* meaning) {
    if (got.rows == rows && got.cols == cols) return {};
    return std::string(name) + " must be " + number_text(rows) + "\u00d7" + number_text(cols) + " (" +
           meaning + "), got " + number_text(got.rows) + "\u00d7" + number_text(got.cols);
}

// The largest value in [low, high] for which `fits` holds, `fits` being monotone (true up to a
// point); low - 1 when none.
template <typename Fits>
double largest_fitting(double low, double high, Fits fits) {
    if (!fits(low)) return low - 1;
    while (low < high) {
        const double mid = std::floor((low + high + 1) / 2);
        if (fits(mid)) low = mid;
        else high = mid - 1;
    }
    return low;
}

// Over the budget: how much would fit, by the knob a reader turns (tokens, heads, kept rows).
std::string over_budget(const CallSizes& s) {
    std::ostringstream out;
    out << "this needs about " << mebibytes(bytes_needed(s)) << " of the engine's memory, more than "
        << "its limit of " << mebibytes(kMemoryBudgetBytes);
    const auto fits = [](CallSizes t) { return bytes_needed(t) <= kMemoryBudgetBytes; };
    if (s.output_only && !s.trace) {
        CallSizes t = s;
        const double rows = largest_fitting(0, s.weight_rows, [&](double r) { t.weight_rows = r; return fits(t); });
        if (rows >= 0) out << ": at most " << number_text(rows) << " weight rows fit";
        return out.str();
    }
    CallSizes t = s;
    const double tokens = largest_fitting(1, s.T, [&](double T) {
        t.T = T;
        if (!s.cross) t.S = T;
        t.embeddings.rows = T;
        t.custom_mask.rows = T;
        return fits(t);
    });
    out << ": with these settings at most " << number_text(tokens) << " tokens fit";
    // Fewer heads: the largest that divides dModel (and that the key/value heads divide).
    for (double heads = s.NH - 1; heads >= 1; --heads) {
        if (std::fmod(s.C, heads) != 0 || std::fmod(heads, std::min(s.KVH, heads)) != 0) continue;
        t = s;
        t.NH = heads;
        t.KVH = std::min(s.KVH, heads);
        if (!fits(t)) continue;
        out << ", or " << number_text(s.T) << " tokens with " << number_text(heads) << " heads";
        break;
    }
    // (The trace and the decode show the T×T matrices: the forward-only path is no way out there.)
    if (!s.trace && !s.decode) out << "; the forward-only path (outputOnly) keeps no T\u00d7T matrix";
    return out.str();
}

}  // namespace

std::string number_text(double value) {
    char text[40];
    if (std::isfinite(value) && std::floor(value) == value && std::fabs(value) < 1e16) {
        std::snprintf(text, sizeof text, "%.0f", value);
    } else {
        std::snprintf(text, sizeof text, "%.9g", value);
    }
    return text;
}

std::string mebibytes(double bytes) {
    return number_text(std::ceil(bytes / (1024.0 * 1024.0))) + " MiB";
}

std::string duration_text(double seconds) {
    char text[40];
    if (seconds < 1) std::snprintf(text, sizeof text, "%.2g s", seconds);
    else if (seconds < 120) std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 2 * 3600) std::snprintf(text, sizeof text, "%.0f min", seconds / 60);
    else if (seconds < 2 * 86400) std::snprintf(text, sizeof text, "%.1f h", seconds / 3600);
    else std::snprintf(text, sizeof text, "%.0f days", seconds / 86400);
    return text;
}

CallSizes sizes_of(const Config& config, bool output_only, double weight_rows) {
    CallSizes s;
    s.output_only = output_only;
    s.T = static_cast<double>(config.tokens.size());
    s.cross = config.cross;
    s.S = config.cross ? static_cast<double>(config.source_tokens.size()) : s.T;
    for (const auto* list : {&config.tokens, &config.source_tokens}) {
        for (const std::string& token : *list) s.longest_token = std::max(s.longest_token, double(token.size()));
    }
    s.C = config.C;
    s.NH = config.NH;
    s.KVH = config.KVH == 0 ? config.NH : config.KVH;
    s.positional = config.positional == Positional::Sinusoidal;
    s.rope = config.positional == Positional::Rope;
    s.alibi = config.alibi;
    s.position_offset = config.position_offset;
    // (a Matrix whose data does not hold rows·cols entries reports NaN rows: it is refused)
    const auto shape = [](const Matrix& m) {
        const bool whole = m.data.size() == std::size_t(m.rows) * std::size_t(m.cols);
        return CallSizes::Shape{whole ? double(m.rows) : std::nan(""), double(m.cols)};
    };
    s.has_embeddings = config.has_embeddings;
    if (s.has_embeddings) s.embeddings = shape(config.embeddings);
    s.has_source_embeddings = config.cross && config.has_source_embeddings;
    if (s.has_source_embeddings) s.source_embeddings = shape(config.source_embeddings);
    s.explicit_weights = config.weights == WeightsKind::Explicit;
    if (s.explicit_weights) {
        s.wq = shape(config.wq);
        s.wk = shape(config.wk);
        s.wv = shape(config.wv);
        s.wo = shape(config.wo);
    }
    // A bias is one row: its entries, or NaN for any other shape (refused), −1 when absent.
    const auto bias = [](const std::optional<Matrix>& b) {
        if (!b) return -1.0;
        return b->rows == 1 && b->data.size() == std::size_t(b->cols) ? double(b->cols) : std::nan("");
    };
    s.bq = bias(config.bq);
    s.bk = bias(config.bk);
    s.bv = bias(config.bv);
    s.bo = bias(config.bo);
    s.rope_half = config.rope_pairing == RopePairing::Half;
    s.rope_theta = config.rope_theta;
    s.mask = config.mask;
    s.window = config.window;
    s.prefix = config.prefix;
    // The native mask is flat: its rows are what its length gives for Tk columns.
    s.custom_mask = {s.S > 0 ? double(config.custom_mask.size()) / s.S : 0, s.S};
    s.has_padding = !config.padding.empty();
    s.padding = static_cast<double>(config.padding.size());
    s.weight_rows = weight_rows;
    return s;
}

double trace_tiles(const CallSizes& s) {
    return s.NH * std::ceil(s.T / s.block_rows) * std::ceil((s.cross ? s.S : s.T) / s.block_keys);
}

double bytes_needed(const CallSizes& s) {
    const double T = s.T, Tk = s.cross ? s.S : s.T, C = s.C, NH = s.NH, HS = C / NH;
    const double kv_width = s.KVH * HS;
    const double biases = std::max(0.0, s.bq) + std::max(0.0, s.bk) + std::max(0.0, s.bv) + std::max(0.0, s.bo);
    const double weights = 2 * C * C + 2 * C * kv_width + biases;
    const double tokens = (T + (s.cross ? s.S : 0)) * (s.longest_token + 32);  // strings and their headers
    // Inputs as copied in, and what resolve makes: X (and the source) with positions, weights.
    double floats = (s.has_embeddings ? T * C : 0) + (s.has_source_embeddings ? Tk * C : 0);
    floats += 2 * (T * C + (s.cross ? Tk * C : 0));  // X made (and a positions table while adding)
    floats += weights;                               // given or generated, once
    double bytes = tokens + (s.mask == MaskKind::Custom ? T * Tk : 0) + Tk;
    // RoPE's table of angles, cosines and sines (T, HS/2) each, and the angles in the result
    if (s.rope) floats += 3 * T * HS / 2 + 2 * T * HS / 2;
    if (s.output_only) {
        // q, concat, output, head_out (T×C at most), k, v and their packed copies, the kept rows
        // (and the list of rows as given and as ints)
        floats += 4 * T * C + 4 * Tk * kv_width + NH * s.weight_rows * Tk + 3 * s.weight_rows;
        if (s.trace) {
            // every tile's record, then its copy for JS: the tile table, the logits (at most every
            // pair), per row of a tile m, ℓ and the rescale, the partial outputs, each head's
            // output and the model's (the tile of the trace is at most Br × (Bc + a strip))
            const double key_tiles = std::ceil(Tk / s.block_keys);
            const double tiles = NH * std::ceil(T / s.block_rows) * key_tiles;
            const double trace = 6 * tiles + NH * T * Tk + NH * T * key_tiles * (3 + HS) + NH * T * HS + T * C;
            floats += 2 * trace + s.block_rows * (s.block_keys + 16);
        }
        return bytes + 4 * floats;
    }
    // The full result: the model's matrices, every head's slices and T×Tk matrices, row statistics.
    const double model = (4 + 2 * s.positional) * T * C + (s.cross ? Tk * C : 0) + 2 * Tk * kv_width +
                         weights + T * Tk;
    const double per_head = 2 * T * HS + 2 * Tk * HS + (4 + s.alibi) * T * Tk + 3 * T + s.alibi;
    const double result = model + NH * per_head;
    // resolve's mask (bytes), the transposed K of a head, and the result packed again for JS.
    bytes += T * Tk;
    floats += HS * Tk + result + result + 3 * NH * T;
    if (s.decode) {
        // the incremental result beside the full one, and its copy for JS: the caches, the
        // weight rows of every head, the output, per step the difference and two counts (doubles,
        // copied once more for JS), and a row of scratch
        const double decoded = 2 * T * kv_width + NH * T * T + T * C + 9 * T + 2 + 3 * C;
        floats += 2 * decoded;
    }
    return bytes + 4 * floats;
}

std::string validate_sizes(const CallSizes& s) {
    std::ostringstream out;
    const int max_tokens = s.trace ? kMaxTokensTrace : s.decode    ? kMaxTokensDecode
                                                   : s.output_only ? kMaxTokensOutputOnly
                                                                   : kMaxTokens;
    if (s.T == 0) return "no tokens: give at least one token";
    if (s.trace && s.T > max_tokens) {
        out << "the FlashAttention trace takes at most " << max_tokens << " tokens (got " << number_text(s.T)
            << "): it records every tile; for longer inputs use the forward-only path";
        return out.str();
    }
    if (s.decode && s.T > max_tokens) {
        out << "the incremental decode takes at most " << max_tokens << " tokens (got " << number_text(s.T) << ")";
        return out.str();
    }
    if (s.decode && s.cross) return "the incremental decode is self-attention only: leave out source";
    if (s.T > max_tokens) {
        out << "too many tokens: " << number_text(s.T) << " (the limit is " << max_tokens << ")";
        return out.str();
    }
    if (s.cross) {
        if (s.S == 0) return "no source tokens: cross-attention needs at least one source token";
        if (s.S > max_tokens) {
            out << "too many source tokens: " << number_text(s.S) << " (the limit is " << max_tokens << ")";
            return out.str();
        }
    }
    if (s.longest_token > kMaxTokenBytes) {
        out << "a token is " << number_text(s.longest_token) << " bytes long (the limit is "
            << kMaxTokenBytes << " bytes of UTF-8)";
        return out.str();
    }
    const double Tk = s.cross ? s.S : s.T;
    if (!whole_in(s.C, 1, kMaxModelWidth)) {
        out << "dModel must be between 1 and " << kMaxModelWidth << " (got " << number_text(s.C) << ")";
        return out.str();
    }
    if (!whole_in(s.NH, 1, s.C)) {
        out << "heads must be between 1 and dModel = " << number_text(s.C) << " (got " << number_text(s.NH) << ")";
        return out.str();
    }
    if (std::fmod(s.C, s.NH) != 0) {
        out << "heads (" << number_text(s.NH) << ") must divide dModel (" << number_text(s.C) << ")";
        return out.str();
    }
    if (!whole_in(s.KVH, 1, s.NH)) {
        out << "kvHeads must be between 1 and heads = " << number_text(s.NH) << " (got "
            << number_text(s.KVH) << ")";
        return out.str();
    }
    if (std::fmod(s.NH, s.KVH) != 0) {
        out << "kvHeads (" << number_text(s.KVH) << ") must divide heads (" << number_text(s.NH) << ")";
        return out.str();
    }
    if (s.has_embeddings) {
        auto problem = check_shape("embeddings", s.embeddings, s.T, s.C, "one row of dModel numbers per token");
        if (!problem.empty()) return problem;
    }
    if (s.has_source_embeddings) {
        auto problem = check_shape("source.embeddings", s.source_embeddings, s.S, s.C,
                                   "one row of dModel numbers per source token");
        if (!problem.empty()) return problem;
    }
    if (s.explicit_weights) {
        const double kv_width = s.KVH * (s.C / s.NH);
        const struct {
            const char* name;
            const CallSizes::Shape* shape;
            double cols;
            const char* meaning;
        } weights[] = {
            {"wq", &s.wq, s.C, "dModel\u00d7dModel"},
            {"wk", &s.wk, kv_width, "dModel\u00d7(kvHeads\u00b7dK)"},
            {"wv", &s.wv, kv_width, "dModel\u00d7(kvHeads\u00b7dK)"},
            {"wo", &s.wo, s.C, "dModel\u00d7dModel"}};
        for (const auto& w : weights) {
            auto problem = check_shape(w.name, *w.shape, s.C, w.cols, w.meaning);
            if (!problem.empty()) return problem;
        }
    }
    {
        const double kv_width = s.KVH * (s.C / s.NH);
        const struct {
            const char* name;
            double given, wanted;
            const char* meaning;
        } biases[] = {
            {"bq", s.bq, s.C, "dModel"},
            {"bk", s.bk, kv_width, "kvHeads\u00b7dK"},
            {"bv", s.bv, kv_width, "kvHeads\u00b7dK"},
            {"bo", s.bo, s.C, "dModel"},
        };
        for (const auto& b : biases) {
            if (b.given == -1 || b.given == b.wanted) continue;
            out << "biases." << b.name << " must be " << number_text(b.wanted) << " numbers (" << b.meaning
                << "), got " << (std::isnan(b.given) ? std::string("a matrix of another shape") : number_text(b.given));
            return out.str();
        }
    }
    if (!(s.rope_theta > kMinRopeTheta && s.rope_theta <= kMaxRopeTheta)) {
        out << "ropeTheta must be a number above " << number_text(kMinRopeTheta) << " and at most "
            << number_text(kMaxRopeTheta) << " (got " << number_text(s.rope_theta) << ")";
        return out.str();
    }
    if (s.rope && s.rope_half && std::fmod(s.C / s.NH, 2) != 0) {
        out << "ropePairing \"half\" turns dimension i with i + dK/2, so dK must be even (got dK = "
            << number_text(s.C / s.NH) << ")";
        return out.str();
    }
    if (s.rope && s.cross) {
        return "positional \"rope\" works in self-attention only (it measures distances within one "
               "sequence): leave out source or use \"sinusoidal\"";
    }
    if (s.alibi && s.cross) {
        return "alibi works in self-attention only (it measures distances within one sequence): leave out source";
    }
    if (!whole_in(s.position_offset, 0, kMaxPositionOffset)) {
        out << "positionOffset must be a whole number between 0 and " << kMaxPositionOffset << " (got "
            << number_text(s.position_offset) << ")";
        return out.str();
    }
    if (s.trace) {
        for (const auto& [name, value] : {std::pair{"blockRows", s.block_rows}, {"blockKeys", s.block_keys}}) {
            if (whole_in(value, 1, kMaxTokensTrace)) continue;
            out << name << " must be a whole number between 1 and " << kMaxTokensTrace << " (got "
                << number_text(value) << ")";
            return out.str();
        }
        const double tiles = trace_tiles(s);
        if (tiles > kMaxTraceTiles) {
            out << "the trace would record " << number_text(tiles) << " tiles (" << number_text(s.NH)
                << " heads of " << number_text(std::ceil(s.T / s.block_rows)) << " \u00d7 "
                << number_text(std::ceil((s.cross ? s.S : s.T) / s.block_keys)) << "), more than the "
                << number_text(kMaxTraceTiles) << " a trace may hold: choose larger tiles or fewer heads";
            return out.str();
        }
    }
    if (s.decode && (s.mask != MaskKind::Causal || s.has_padding)) {
        return "the incremental decode needs mask \"causal\" without padding: a KV cache holds only the "
               "tokens generated so far";
    }
    // Window and prefix: any whole number in range; beyond T they mean "every earlier key".
    if (s.mask == MaskKind::Window && !(std::floor(s.window) == s.window && s.window >= 1)) {
        out << "window must be a whole number, at least 1 (got " << number_text(s.window) << ")";
        return out.str();
    }
    if (s.mask == MaskKind::Prefix && !(std::floor(s.prefix) == s.prefix && s.prefix >= 0)) {
        out << "prefix must be a whole number, 0 or more (got " << number_text(s.prefix) << ")";
        return out.str();
    }
    if (s.mask == MaskKind::Custom && !(s.custom_mask.rows == s.T && s.custom_mask.cols == Tk)) {
        out << "customMask must be " << number_text(s.T) << "\u00d7" << number_text(Tk)
            << " (one row per query token, one column per key token), got "
            << number_text(s.custom_mask.rows) << "\u00d7" << number_text(s.custom_mask.cols);
        return out.str();
    }
    if (s.has_padding && s.padding != Tk) {
        out << "padding must have one entry per " << (s.cross ? "source " : "") << "token ("
            << number_text(Tk) << "), got " << number_text(s.padding);
        return out.str();
    }
    if (bytes_needed(s) > kMemoryBudgetBytes) return over_budget(s);
    return {};
}

std::string validate(const Config& config, bool output_only, double weight_rows) {
    std::string problem = validate_sizes(sizes_of(config, output_only, weight_rows));
    if (!problem.empty()) return problem;
    if (config.has_embeddings) {
        problem = check_entries("embeddings", config.embeddings);
        if (!problem.empty()) return problem;
    }
    if (config.cross && config.has_source_embeddings) {
        problem = check_entries("source.embeddings", config.source_embeddings);
        if (!problem.empty()) return problem;
    }
    if (config.weights == WeightsKind::Explicit) {
        for (const auto& [name, m] : {
                 std::pair{"wq", &config.wq},
                 {"wk", &config.wk},
                 {"wv", &config.wv},
                 {"wo", &config.wo},
             }) {
            problem = check_entries(name, *m);
            if (!problem.empty()) return problem;
        }
    }
    for (const auto& [name, b] : {
             std::pair{"biases.bq", &config.bq},
             {"biases.bk", &config.bk},
             {"biases.bv", &config.bv},
             {"biases.bo", &config.bo},
         }) {
        if (!*b) continue;
        problem = check_entries(name, **b, /*vector=*/true);
        if (!problem.empty()) return problem;
    }
    std::ostringstream out;
    const float fill = config.mask_fill;
    if (std::isnan(fill) || fill > 0.0f || (fill < -1e30f && !std::isinf(fill))) {
        out << "maskFill must be -Infinity or a number between -1e30 and 0 (got " << number_text(fill) << ")";
        return out.str();
    }
    if (!(config.temperature >= kMinTemperature && config.temperature <= kMaxTemperature)) {
        out << "temperature must be between " << kMinTemperature << " and " << kMaxTemperature
            << " (got " << number_text(config.temperature) << ")";
        return out.str();
    }
    // The tiled and incremental paths normalise a row as its keys arrive; a column needs them all.
    if (output_only && config.softmax_over != SoftmaxAxis::Keys) {
        return "softmaxOver \"queries\" is computed by the full forward pass only (the forward-only "
               "path normalises each query row)";
    }
    return {};
}

std::string validate_decode(const Config& config) {
    if (config.softmax_over != SoftmaxAxis::Keys) {
        return "the incremental decode normalises each new row over its keys: softmaxOver \"queries\" "
               "needs every row at once";
    }
    if (std::isinf(config.mask_fill)) return {};
    return "the incremental decode needs maskFill -Infinity: with a finite fill the full causal rows "
           "weigh keys that are not in the cache yet (got " +
           number_text(config.mask_fill) + ")";
}

std::string validate_weight_rows(const std::vector<double>& rows, int T) {
    for (std::size_t n = 0; n < rows.size(); ++n) {
        if (!whole_in(rows[n], 0, T - 1)) {
            return "weightRows[" + std::to_string(n) + "] = " + number_text(rows[n]) +
                   " is not a query row (0 to " + std::to_string(T - 1) + ")";
        }
    }
    return {};
}

}  // namespace attn
