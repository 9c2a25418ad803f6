// The forward-only path (tiled, online softmax, masked tiles skipped) agrees with the full forward
// pass to 1e-5 for every shape and option, including sizes that span several tiles.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention.hpp"
#include "worked_example.hpp"

using Catch::Matchers::WithinAbs;

namespace {

// |a − b| ≤ 1e-5·max(1, |b|) everywhere, as a ratio to that tolerance (≤ 1 passes).
double worst(const attn::Matrix& a, const attn::Matrix& b) {
    REQUIRE(a.rows == b.rows);
    REQUIRE(a.cols == b.cols);
    double w = 0.0;
    for (std::size_t n = 0; n < a.data.size(); ++n) {
        if (std::isnan(a.data[n]) || std::isnan(b.data[n])) return std::numeric_limits<double>::infinity();
        w = std::max(w, std::fabs(double(a.data[n]) - b.data[n]) / (1e-5 * std::max(1.0, std::fabs(double(b.data[n])))));
    }
    return w;
}

attn::Config sized(int T, int C, int NH) {
    attn::Config c;
    for (int t = 0; t < T; ++t) c.tokens.push_back("w" + std::to_string(t));
    c.C = C;
    c.NH = NH;
    c.seed = 77;
    return c;
}

}  // namespace

TEST_CASE("the worked example through the forward-only path", "[output-only][golden]") {
    attn::OutputOnlyResult r;
    REQUIRE(attn::compute_output_only(worked_example_config(), {1, 5}, r).empty());
    CHECK_THAT(r.output(1, 0), WithinAbs(0.499, 0.0005));
    CHECK_THAT(r.output(5, 1), WithinAbs(0.623, 0.0005));
    CHECK_THAT(r.row_weights[0](0, 0), WithinAbs(0.423, 0.0005));
    CHECK(r.row_weights[0](0, 2) == 0.0f);
    CHECK_THAT(r.row_weights[0](1, 4), WithinAbs(0.124, 0.0005));
}

TEST_CASE("forward-only equals the full pass for shapes across tile edges", "[output-only]") {
    const int T = GENERATE(1, 7, 16, 17, 33, 130, 300);
    const auto [C, NH] = GENERATE(table<int, int>({{5, 5}, {12, 3}, {64, 4}}));
    const auto mask = GENERATE(attn::MaskKind::Causal, attn::MaskKind::None);
    CAPTURE(T, C, NH);
    attn::Config c = sized(T, C, NH);
    c.mask = mask;
    attn::Result full;
    attn::OutputOnlyResult fast;
    REQUIRE(attn::compute(c, full).empty());
    REQUIRE(attn::compute_output_only(c, {0, T - 1}, fast).empty());
    CHECK(worst(fast.output, full.output) <= 1.0);
    for (int h = 0; h < NH; ++h) {
        for (int j = 0; j < T; ++j) {
            CHECK_THAT(fast.row_weights[h](0, j), WithinAbs(full.heads[h].weights(0, j), 1e-5));
            CHECK_THAT(fast.row_weights[h](1, j), WithinAbs(full.heads[h].weights(T - 1, j), 1e-5));
        }
    }
}

TEST_CASE("forward-only equals the full pass for every mask and softmax option", "[output-only][mask]") {
    struct Case {
        const char* name;
        attn::MaskKind mask;
        float fill;
        bool before;
        float tau;
        int KVH;
        bool cross;
        bool pad;
        bool scale = true;
        bool naive = false;
        bool rope = false;
        bool alibi = false;
    };
    const float inf = std::numeric_limits<float>::infinity();
    const Case k = GENERATE_COPY(values<Case>({
        {"window 40", attn::MaskKind::Window, -inf, false, 1.0f, 0, false, false},
        {"prefix 150", attn::MaskKind::Prefix, -inf, false, 1.0f, 0, false, false},
        {"custom with an empty row", attn::MaskKind::Custom, -inf, false, 1.0f, 0, false, false},
        {"causal, fill -1e9, before scale", attn::MaskKind::Causal, -1e9f, true, 1.0f, 0, false, false},
        {"causal, fill 0", attn::MaskKind::Causal, 0.0f, false, 1.0f, 0, false, false},
        {"none + padding, tau 0.3", attn::MaskKind::None, -inf, false, 0.3f, 0, false, true},
        {"causal, tau 7, GQA", attn::MaskKind::Causal, -inf, false, 7.0f, 2, false, false},
        {"cross + padding, MQA", attn::MaskKind::None, -inf, false, 1.0f, 1, true, true},
        {"cross causal", attn::MaskKind::Causal, -inf, false, 2.0f, 0, true, false},
        // (the band masks with −∞ scale Q instead of the logits: with and without √d_k)
        {"window 40, unscaled, tau 0.5", attn::MaskKind::Window, -inf, false, 0.5f, 0, false, false, false},
        {"causal, unscaled", attn::MaskKind::Causal, -inf, true, 1.0f, 0, false, false, false},
        {"causal, naive softmax", attn::MaskKind::Causal, -inf, false, 1.0f, 0, false, false, true, true},
        // RoPE rotates Q and K before the tiles; ALiBi adds its bias inside them
        {"causal, RoPE", attn::MaskKind::Causal, -inf, false, 1.0f, 0, false, false, true, false, true, false},
        {"causal, ALiBi", attn::MaskKind::Causal, -inf, false, 1.0f, 0, false, false, true, false, false, true},
        {"window 40, RoPE + ALiBi, GQA, tau 0.5", attn::MaskKind::Window, -inf, false, 0.5f, 2, false, false, true, false, true, true},
        {"none + padding, ALiBi, tau 0.3", attn::MaskKind::None, -inf, false, 0.3f, 0, false, true, true, false, false, true},
        {"causal, fill -1e9, before scale, ALiBi, MQA", attn::MaskKind::Causal, -1e9f, true, 1.0f, 1, false, false, true, false, false, true},
        {"prefix 150, ALiBi, naive softmax", attn::MaskKind::Prefix, -inf, false, 1.0f, 0, false, false, true, true, false, true},
    }));
    CAPTURE(k.name);
    attn::Config c = sized(200, 24, 4);
    c.KVH = k.KVH;
    c.mask = k.mask;
    c.window = 40;
    c.prefix = 150;
    c.mask_fill = k.fill;
    c.mask_before_scale = k.before;
    c.temperature = k.tau;
    c.scale = k.scale;
    c.naive_softmax = k.naive;
    c.positional = k.rope ? attn::Positional::Rope : attn::Positional::None;
    c.position_offset = k.rope ? 5 : 0;
    c.alibi = k.alibi;
    c.cross = k.cross;
    if (k.cross)
        for (int t = 0; t < 170; ++t) c.source_tokens.push_back("s" + std::to_string(t));
    const int Tk = k.cross ? 170 : 200;
    if (k.mask == attn::MaskKind::Custom) {
        for (int n = 0; n < 200 * Tk; ++n) c.custom_mask.push_back((n * 7 + 3) % 5 == 0);
        for (int j = 0; j < Tk; ++j) c.custom_mask[std::size_t(20) * Tk + j] = 1;
    }
    if (k.pad) {
        c.padding.assign(Tk, 0);
        for (int j = 0; j < Tk; j += 3) c.padding[j] = 1;
    }
    attn::Result full;
    attn::OutputOnlyResult fast;
    REQUIRE(attn::compute(c, full).empty());
    REQUIRE(attn::compute_output_only(c, {20, 199}, fast).empty());
    CHECK(worst(fast.output, full.output) <= 1.0);
    for (int h = 0; h < 4; ++h)
        for (int j = 0; j < Tk; ++j)
            CHECK_THAT(fast.row_weights[h](1, j), WithinAbs(full.heads[h].weights(199, j), 1e-5));
}

TEST_CASE("forward-only skips tiles padding or custom cells hide, with the same output", "[output-only][mask]") {
    // 300 keys make tiles 0–127, 128–255 and 256–299: the middle one is hidden from some blocks
    attn::Config c = sized(300, 12, 3);
    const int T = 300;
    SECTION("padding over a whole tile of keys") {
        c.mask = attn::MaskKind::None;
        c.padding.assign(T, 0);
        std::fill(c.padding.begin() + 120, c.padding.begin() + 270, 1);
    }
    SECTION("custom cells hiding a tile from the first blocks, and a row from everything") {
        c.mask = attn::MaskKind::Custom;
        c.custom_mask.assign(std::size_t(T) * T, 0);
        for (int i = 0; i < 48; ++i)
            for (int j = 128; j < 256; ++j) c.custom_mask[std::size_t(i) * T + j] = 1;
        for (int j = 0; j < T; ++j) c.custom_mask[std::size_t(100) * T + j] = 1;
    }
    attn::Result full;
    attn::OutputOnlyResult fast;
    REQUIRE(attn::compute(c, full).empty());
    REQUIRE(attn::compute_output_only(c, {0, 100}, fast).empty());
    CHECK(worst(fast.output, full.output) <= 1.0);
    for (int h = 0; h < 3; ++h)
        for (int j = 0; j < T; ++j) {
            CHECK_THAT(fast.row_weights[h](0, j), WithinAbs(full.heads[h].weights(0, j), 1e-5));
            CHECK_THAT(fast.row_weights[h](1, j), WithinAbs(full.heads[h].weights(100, j), 1e-5));
        }
}

TEST_CASE("forward-only takes longer sequences than the full path", "[output-only][validation]") {
    attn::Config c = sized(1500, 4, 1);
    attn::Result full;
    attn::OutputOnlyResult fast;
    CHECK(attn::compute(c, full) == "too many tokens: 1500 (the limit is 1024)");
    CHECK(attn::compute_output_only(c, {}, fast).empty());
    c = sized(attn::kMaxTokensOutputOnly + 1, 4, 1);
    CHECK(attn::compute_output_only(c, {}, fast) == "too many tokens: 8193 (the limit is 8192)");
}

TEST_CASE("forward-only refuses rows that do not exist", "[output-only][validation]") {
    attn::OutputOnlyResult r;
    CHECK(attn::compute_output_only(worked_example_config(), {6}, r) ==
          "weightRows[0] = 6 is not a query row (0 to 5)");
    CHECK(attn::compute_output_only(worked_example_config(), {-1}, r).find("weightRows[0]") == 0);
}

TEST_CASE("long computations report their progress in order", "[output-only][progress]") {
    attn::Config c = sized(70, 8, 2);
    std::vector<double> seen;
    attn::OutputOnlyResult fast;
    REQUIRE(attn::compute_output_only(c, {}, fast, [&](double f) { seen.push_back(f); return true; }).empty());
    REQUIRE(seen.size() >= 2);
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    CHECK(seen.front() > 0.0);
    CHECK(seen.back() < 1.0);
    seen.clear();
    attn::Result full;
    REQUIRE(attn::compute(c, full, attn::Implementation::Simd, [&](double f) { seen.push_back(f); return true; }).empty());
    CHECK(seen.size() == 2);
    CHECK(std::is_sorted(seen.begin(), seen.end()));
}
