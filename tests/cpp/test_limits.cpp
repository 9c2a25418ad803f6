// The engine's limits: sizes are checked as given (before anything is copied), every call fits a
// memory budget or is refused saying what fits, and a progress callback can stop a computation
// without leaving anything behind.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>

#include "attention.hpp"
#include "worked_example.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

attn::Config tokens_config(int T, int C, int NH) {
    attn::Config c;
    c.tokens.reserve(T);
    for (int t = 0; t < T; ++t) c.tokens.push_back("t" + std::to_string(t));
    c.C = C;
    c.NH = NH;
    return c;
}

attn::CallSizes sizes(double T, double C, double NH) {
    attn::CallSizes s;
    s.T = s.S = T;
    s.C = C;
    s.NH = NH;
    s.KVH = NH;
    return s;
}

int number_after(const std::string& text, const std::string& prefix) {
    std::smatch match;
    REQUIRE(std::regex_search(text, match, std::regex(prefix + " (\\d+)")));
    return std::stoi(match[1]);
}

}  // namespace

TEST_CASE("numbers in messages are quoted as given", "[limits]") {
    CHECK(attn::number_text(2147483648.0) == "2147483648");
    CHECK(attn::number_text(-2147483649.0) == "-2147483649");
    CHECK(attn::number_text(1000001) == "1000001");
    CHECK(attn::number_text(1e308) == "1e+308");
    CHECK(attn::number_text(0.5) == "0.5");
    CHECK(attn::number_text(std::nan("")) == "nan");

    CHECK(attn::validate_sizes(sizes(3, 2147483648.0, 1)) == "dModel must be between 1 and 1024 (got 2147483648)");
    CHECK(attn::validate_sizes(sizes(3, 8, 2147483648.0)) == "heads must be between 1 and dModel = 8 (got 2147483648)");
    CHECK(attn::validate_sizes(sizes(3, 4.5, 1)) == "dModel must be between 1 and 1024 (got 4.5)");
    attn::CallSizes s = sizes(3, 8, 2);
    s.KVH = 0;
    CHECK(attn::validate_sizes(s) == "kvHeads must be between 1 and heads = 2 (got 0)");

    attn::Config c = worked_example_config();
    c.embeddings(1, 0) = 1000001.0f;
    CHECK(attn::validate(c) == "embeddings[1][0] = 1000001 is too large (the limit is \u00b11000000)");
}

TEST_CASE("window and prefix take any whole number, and past T they mean every earlier key", "[limits]") {
    attn::Config c = worked_example_config();
    attn::Result wide, plain;
    c.mask = attn::MaskKind::Prefix;
    c.prefix = 2147483647;
    REQUIRE(attn::compute(c, wide).empty());
    c.mask = attn::MaskKind::None;
    REQUIRE(attn::compute(c, plain).empty());
    CHECK(wide.output.data == plain.output.data);

    attn::CallSizes s = sizes(3, 4, 1);
    s.mask = attn::MaskKind::Window;
    s.window = 4294967296.0;
    CHECK(attn::validate_sizes(s).empty());
    s.window = 1.5;
    CHECK(attn::validate_sizes(s) == "window must be a whole number, at least 1 (got 1.5)");
}

TEST_CASE("token strings are bounded before they are copied", "[limits]") {
    attn::Config c = tokens_config(2, 4, 1);
    c.tokens[1] = std::string(attn::kMaxTokenBytes, 'a');
    CHECK(attn::validate(c).empty());
    c.tokens[1] += 'a';
    CHECK(attn::validate(c) == "a token is 1025 bytes long (the limit is 1024 bytes of UTF-8)");
}

TEST_CASE("a call past the memory budget is refused, naming what fits", "[limits]") {
    // 1 024 tokens with 64 heads keep 64 × 4 matrices of 1024² floats, and their copy for JS.
    const attn::CallSizes big = sizes(1024, 64, 64);
    CHECK(attn::bytes_needed(big) > attn::kMemoryBudgetBytes);
    const std::string problem = attn::validate_sizes(big);
    CHECK_THAT(problem, StartsWith("this needs about ") && Contains("limit of 1536 MiB") &&
                            Contains("the forward-only path (outputOnly)"));

    // The sizes it names fit, and one token more does not.
    const int tokens = number_after(problem, "at most");
    CHECK(attn::validate_sizes(sizes(tokens, 64, 64)).empty());
    CHECK_FALSE(attn::validate_sizes(sizes(tokens + 1, 64, 64)).empty());
    const int heads = number_after(problem, "1024 tokens with");
    CHECK(heads == 32);
    CHECK(attn::validate_sizes(sizes(1024, 64, heads)).empty());

    // The forward-only path fits where the full one does not, until it keeps too many rows.
    attn::CallSizes fast = sizes(8192, 1024, 64);
    fast.output_only = true;
    CHECK(attn::validate_sizes(fast).empty());
    fast.weight_rows = 8192;
    const std::string rows_problem = attn::validate_sizes(fast);
    const int rows = number_after(rows_problem, "at most");
    fast.weight_rows = rows;
    CHECK(attn::validate_sizes(fast).empty());
    fast.weight_rows = rows + 1;
    CHECK_FALSE(attn::validate_sizes(fast).empty());

    // validate() applies the same budget to a Config.
    attn::Config c = tokens_config(1024, 64, 64);
    CHECK(attn::validate(c) == problem);
}

TEST_CASE("the estimate grows with every size", "[limits]") {
    const attn::CallSizes base = sizes(100, 64, 4);
    const double bytes = attn::bytes_needed(base);
    for (auto grow : {+[](attn::CallSizes& s) { s.T = s.S = 101; }, +[](attn::CallSizes& s) { s.C = 128; },
                      +[](attn::CallSizes& s) { s.NH = s.KVH = 8; },
                      +[](attn::CallSizes& s) { s.positional = true; }, +[](attn::CallSizes& s) { s.rope = true; },
                      +[](attn::CallSizes& s) { s.alibi = true; }, +[](attn::CallSizes& s) { s.decode = true; }}) {
        attn::CallSizes s = base;
        grow(s);
        CHECK(attn::bytes_needed(s) > bytes);
    }
}

TEST_CASE("a progress callback that stops a computation leaves nothing behind", "[limits][progress]") {
    const attn::Config c = tokens_config(40, 16, 4);
    attn::Result expected;
    REQUIRE(attn::compute(c, expected).empty());

    attn::Result r;
    int calls = 0;
    const auto stop_at_second = [&](double) { return ++calls < 2; };
    CHECK(attn::compute(c, r, attn::Implementation::Simd, stop_at_second) == attn::kStoppedMessage);
    CHECK(r.heads.empty());
    CHECK(r.output.data.capacity() == 0);
    REQUIRE(attn::compute(c, r).empty());
    CHECK(r.output.data == expected.output.data);

    attn::OutputOnlyResult fast, fast_expected;
    REQUIRE(attn::compute_output_only(c, {0, 39}, fast_expected).empty());
    calls = 0;
    CHECK(attn::compute_output_only(c, {0, 39}, fast, stop_at_second) == attn::kStoppedMessage);
    CHECK(fast.output.data.capacity() == 0);
    REQUIRE(attn::compute_output_only(c, {0, 39}, fast).empty());
    CHECK(fast.output.data == fast_expected.output.data);
    CHECK(fast.row_weights[3].data == fast_expected.row_weights[3].data);
}

TEST_CASE("weight rows are checked as given", "[limits]") {
    CHECK(attn::validate_weight_rows({0, 5}, 6).empty());
    CHECK(attn::validate_weight_rows({0, 4294967296.0}, 6) ==
          "weightRows[1] = 4294967296 is not a query row (0 to 5)");
    CHECK(attn::validate_weight_rows({0.5}, 6) == "weightRows[0] = 0.5 is not a query row (0 to 5)");
}

TEST_CASE("the estimate covers what the trace and the decode keep", "[limits][flash][decode]") {
    const auto floats = [](const std::vector<attn::Matrix>& ms) {
        double n = 0;
        for (const attn::Matrix& m : ms) n += double(m.data.size());
        return n;
    };
    // the largest trace: every tile of one key, the widest heads
    attn::Config c = tokens_config(attn::kMaxTokensTrace, 256, 2);
    attn::CallSizes s = attn::sizes_of(c, /*output_only=*/true);
    s.trace = true;
    s.block_rows = s.block_keys = 1;
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, 1, 1, trace).empty());
    const double kept = double(trace.tiles.data.size() + trace.logits.size() + trace.max.size() + trace.sum.size() +
                               trace.rescale.size() + trace.partial.size() + trace.output.data.size()) +
                        floats(trace.context);
    CHECK(attn::bytes_needed(s) >= 2 * 4 * kept);  // the trace and its copy for JavaScript
    // the decode keeps its rows beside the full result
    c = tokens_config(attn::kMaxTokensDecode, 64, 8);
    c.KVH = 2;
    s = attn::sizes_of(c, /*output_only=*/false);
    const double full = attn::bytes_needed(s);
    s.decode = true;
    attn::DecodeResult d;
    REQUIRE(attn::decode_incremental(c, d).empty());
    const double decoded = floats(d.weights) + double(d.k_cache.data.size() + d.v_cache.data.size()) +
                           double(d.output.data.size() + d.difference.size()) +
                           2.0 * (d.madds_cached.size() + d.madds_uncached.size());
    CHECK(attn::bytes_needed(s) - full >= 2 * 4 * decoded);
}

TEST_CASE("past the budget, the decode is told how many tokens fit, not to use the forward-only path", "[limits][flash][decode]") {
    // 256 tokens, 1 024 heads: every head's T×T matrices twice over
    attn::CallSizes decode = sizes(attn::kMaxTokensDecode, 1024, 1024);
    decode.decode = true;
    const std::string problem = attn::validate_sizes(decode);
    CHECK_THAT(problem, StartsWith("this needs about ") && Contains("tokens fit"));
    CHECK_THAT(problem, !Contains("outputOnly"));
    decode.T = decode.S = number_after(problem, "at most");
    CHECK(attn::validate_sizes(decode).empty());

    // The largest trace (64 tokens, 1 × 1 tiles, 1 024 heads of one column) fits the memory budget,
    // but not the tiles a trace may hold (each becomes JavaScript objects): 16 such heads do.
    attn::CallSizes trace = sizes(attn::kMaxTokensTrace, 1024, 1024);
    trace.output_only = trace.trace = true;
    trace.block_rows = trace.block_keys = 1;
    CHECK(attn::bytes_needed(trace) <= attn::kMemoryBudgetBytes);
    CHECK_THAT(attn::validate_sizes(trace), StartsWith("the trace would record 4194304 tiles"));
    trace = sizes(attn::kMaxTokensTrace, 16, 16);
    trace.output_only = trace.trace = true;
    trace.block_rows = trace.block_keys = 1;
    CHECK(attn::trace_tiles(trace) == attn::kMaxTraceTiles);
    CHECK(attn::validate_sizes(trace).empty());
}
