// The mask workbench: every mask kind, padding on top, the fill value, mask before or after the
// √d_k division, and rows where every key is masked.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "attention.hpp"
#include "mask.hpp"
#include "reference64.hpp"
#include "worked_example.hpp"

using Catch::Matchers::WithinAbs;

namespace {

// The mask as rows of '.' (visible) and 'x' (masked), easy to read in a failure message.
std::vector<std::string> picture(const attn::Config& c, int T) {
    const auto mask = attn::build_mask(c, T, T);
    std::vector<std::string> rows(T, std::string(T, '.'));
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < T; ++j)
            if (mask[i * T + j]) rows[i][j] = 'x';
    return rows;
}

attn::Config five_tokens(attn::MaskKind kind) {
    attn::Config c;
    c.tokens = {"a", "b", "c", "d", "e"};
    c.C = 4;
    c.mask = kind;
    return c;
}

}  // namespace

TEST_CASE("mask kinds draw the expected patterns", "[mask]") {
    SECTION("none: bidirectional") {
        CHECK(picture(five_tokens(attn::MaskKind::None), 5) ==
              std::vector<std::string>{".....", ".....", ".....", ".....", "....."});
    }
    SECTION("causal: no future") {
        CHECK(picture(five_tokens(attn::MaskKind::Causal), 5) ==
              std::vector<std::string>{".xxxx", "..xxx", "...xx", "....x", "....."});
    }
    SECTION("sliding window of width 2: itself and the token before") {
        auto c = five_tokens(attn::MaskKind::Window);
        c.window = 2;
        CHECK(picture(c, 5) == std::vector<std::string>{".xxxx", "..xxx", "x..xx", "xx..x", "xxx.."});
    }
    SECTION("prefix-LM with p = 3: the first three see each other") {
        auto c = five_tokens(attn::MaskKind::Prefix);
        c.prefix = 3;
        CHECK(picture(c, 5) == std::vector<std::string>{"...xx", "...xx", "...xx", "....x", "....."});
    }
    SECTION("custom: exactly the cells given") {
        auto c = five_tokens(attn::MaskKind::Custom);
        c.custom_mask.assign(25, 0);
        c.custom_mask[0 * 5 + 4] = 1;
        c.custom_mask[3 * 5 + 1] = 1;
        CHECK(picture(c, 5) == std::vector<std::string>{"....x", ".....", ".....", ".x...", "....."});
    }
    SECTION("padding masks those tokens as keys, on top of the kind") {
        auto c = five_tokens(attn::MaskKind::Causal);
        c.padding = {0, 1, 0, 0, 1};
        CHECK(picture(c, 5) == std::vector<std::string>{".xxxx", ".xxxx", ".x.xx", ".x..x", ".x..x"});
    }
}

TEST_CASE("the result reports the mask as 1 where masked", "[mask]") {
    attn::Result r;
    REQUIRE(attn::compute(five_tokens(attn::MaskKind::Causal), r).empty());
    CHECK(r.mask(0, 1) == 1.0f);
    CHECK(r.mask(1, 0) == 0.0f);
    CHECK(r.mask(4, 4) == 0.0f);
}

TEST_CASE("a fill value of 0 masks nothing: future tokens keep their weight", "[mask]") {
    // The course's misconception: "masking sets the score to 0". With M = 0 the softmax still
    // gives the future tokens weight, exactly as without a mask.
    attn::Config causal_zero = worked_example_config();
    causal_zero.mask_fill = 0.0f;
    attn::Config unmasked = worked_example_config();
    unmasked.mask = attn::MaskKind::None;
    attn::Result a, b;
    REQUIRE(attn::compute(causal_zero, a).empty());
    REQUIRE(attn::compute(unmasked, b).empty());
    CHECK(a.heads[0].weights(1, 5) > 0.1f);
    CHECK(a.heads[0].weights.data == b.heads[0].weights.data);
}

TEST_CASE("a fill value of -1e9 gives future tokens a weight of zero in float32", "[mask]") {
    attn::Config c = worked_example_config();
    c.mask_fill = -1e9f;
    attn::Result r;
    REQUIRE(attn::compute(c, r).empty());
    CHECK(r.heads[0].masked(1, 2) < -9e8f);   // a finite, very negative logit
    CHECK(r.heads[0].weights(1, 2) == 0.0f);  // e^(−1e9) underflows to 0
    CHECK_THAT(r.heads[0].weights(1, 0), WithinAbs(0.423, 0.0005));
}

TEST_CASE("mask before or after the sqrt(d_k) division differs only for finite fills", "[mask]") {
    attn::Config after = worked_example_config();
    after.mask_fill = -1e9f;
    attn::Config before = after;
    before.mask_before_scale = true;
    attn::Result ra, rb;
    REQUIRE(attn::compute(after, ra).empty());
    REQUIRE(attn::compute(before, rb).empty());
    // After: s/√3 − 1e9. Before: (QKᵀ − 1e9)/√3 ≈ −5.77e8.
    CHECK_THAT(ra.heads[0].masked(0, 1), WithinAbs(-1e9, 100.0));
    CHECK_THAT(rb.heads[0].masked(0, 1), WithinAbs(-1e9 / std::sqrt(3.0), 100.0));
    // Visible entries are the same either way, and so are the weights.
    CHECK(ra.heads[0].masked(1, 0) == rb.heads[0].masked(1, 0));
    CHECK(ra.heads[0].weights.data == rb.heads[0].weights.data);

    // With −∞ the order cannot matter at all.
    attn::Config inf_before = worked_example_config();
    inf_before.mask_before_scale = true;
    attn::Result rc, rd;
    REQUIRE(attn::compute(worked_example_config(), rc).empty());
    REQUIRE(attn::compute(inf_before, rd).empty());
    CHECK(rc.heads[0].masked.data == rd.heads[0].masked.data);
}

TEST_CASE("a row where every key is masked has all-zero weights and never NaN", "[mask]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config c = worked_example_config();
    c.mask = attn::MaskKind::Custom;
    c.custom_mask.assign(36, 0);
    for (int j = 0; j < 6; ++j) c.custom_mask[2 * 6 + j] = 1;  // row 3 sees nothing
    attn::Result r;
    REQUIRE(attn::compute(c, r, implementation).empty());
    for (int j = 0; j < 6; ++j) CHECK(r.heads[0].weights(2, j) == 0.0f);
    for (int e = 0; e < 3; ++e) CHECK(r.heads[0].context(2, e) == 0.0f);
    CHECK(r.heads[0].row_sum[2] == 0.0f);
    CHECK(r.heads[0].entropy[2] == 0.0f);
    for (float w : r.heads[0].weights.data) CHECK_FALSE(std::isnan(w));

    SECTION("with a finite fill the row is an honest softmax: uniform over the masked keys") {
        c.mask_fill = -1e9f;
        REQUIRE(attn::compute(c, r, implementation).empty());
        for (int j = 0; j < 6; ++j) CHECK_THAT(r.heads[0].weights(2, j), WithinAbs(1.0 / 6, 1e-6));
    }
}

TEST_CASE("padding every token but one leaves one key to attend to", "[mask]") {
    attn::Config c = worked_example_config();
    c.mask = attn::MaskKind::None;
    c.padding = {0, 1, 1, 1, 1, 1};
    attn::Result r;
    REQUIRE(attn::compute(c, r).empty());
    for (int i = 0; i < 6; ++i) CHECK(r.heads[0].weights(i, 0) == 1.0f);
}

TEST_CASE("mask settings are validated", "[mask][validation]") {
    attn::Config c = worked_example_config();
    SECTION("window") {
        c.mask = attn::MaskKind::Window;
        c.window = 0;
        CHECK(attn::validate(c) == "window must be a whole number, at least 1 (got 0)");
    }
    SECTION("prefix") {
        c.mask = attn::MaskKind::Prefix;
        c.prefix = -1;
        CHECK(attn::validate(c) == "prefix must be a whole number, 0 or more (got -1)");
    }
    SECTION("custom mask of the wrong size") {
        c.mask = attn::MaskKind::Custom;
        c.custom_mask.assign(5, 0);
        CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("customMask must be 6\u00d76"));
    }
    SECTION("padding of the wrong length") {
        c.padding = {0, 1};
        CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("padding must have one entry per token (6), got 2"));
    }
    SECTION("fill values") {
        c.mask_fill = std::nanf("");
        CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("maskFill must be"));
        c.mask_fill = 1.0f;
        CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("maskFill must be"));
        c.mask_fill = -1e9f;
        CHECK(attn::validate(c).empty());
    }
    SECTION("temperature") {
        c.temperature = 0.0f;
        CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("temperature must be between 0.01 and 100"));
        c.temperature = std::nanf("");
        CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("temperature must be between"));
        c.temperature = 0.5f;
        CHECK(attn::validate(c).empty());
    }
}
