// Rotary positions (RoPE) and ALiBi on the full path, checked against the float64 reference; that
// RoPE's scores depend only on i − j (a shift of every position changes nothing) while sinusoidal
// positions added to X do not; ALiBi's slopes as the paper's reference code gives them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "alibi.hpp"
#include "attention.hpp"
#include "reference64.hpp"

using Catch::Matchers::WithinRel;

namespace {

attn::Config sized(int T, int C, int NH, int KVH = 0) {
    attn::Config c;
    for (int t = 0; t < T; ++t) c.tokens.push_back("p" + std::to_string(t * 7 % 5));  // repeated words
    c.C = C;
    c.NH = NH;
    c.KVH = KVH;
    c.seed = 5;
    return c;
}

// Every matrix of the result against the float64 reference.
void check_against_reference(const attn::Config& c, attn::Implementation implementation) {
    attn::Result r;
    REQUIRE(attn::compute(c, r, implementation).empty());
    const ref64::Forward f = ref64::forward(c);
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
    for (int h = 0; h < r.NH; ++h) {
        CAPTURE(h);
        CHECK(ref64::worst(r.heads[h].masked, f.heads[h].masked) <= 1.0);
        CHECK(ref64::worst(r.heads[h].weights, f.heads[h].weights) <= 1.0);
        CHECK(ref64::worst(r.heads[h].context, f.heads[h].context) <= 1.0);
    }
}

// The largest |difference| between two results' logits (scores + bias), over every head.
double largest_score_change(const attn::Result& a, const attn::Result& b) {
    double worst = 0.0;
    for (int h = 0; h < a.NH; ++h)
        for (std::size_t n = 0; n < a.heads[h].scores.data.size(); ++n)
            worst = std::max(worst, double(std::fabs(a.heads[h].scores.data[n] - b.heads[h].scores.data[n])));
    return worst;
}

}  // namespace

TEST_CASE("RoPE matches the float64 reference on odd sizes", "[rope]") {
    const auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    const auto [T, C, NH, KVH] = GENERATE(table<int, int, int, int>(
        {{7, 3, 1, 0}, {1, 4, 1, 0}, {7, 5, 5, 0}, {9, 12, 3, 1}, {33, 24, 6, 2}, {20, 64, 4, 0}}));
    const int offset = GENERATE(0, 13);
    CAPTURE(T, C, NH, KVH, offset);
    attn::Config c = sized(T, C, NH, KVH);
    c.positional = attn::Positional::Rope;
    c.position_offset = offset;
    check_against_reference(c, implementation);
}

TEST_CASE("RoPE with an odd d_k leaves the last dimension unrotated", "[rope]") {
    attn::Config c = sized(7, 3, 1);  // d_k = 3: pair (0, 1) turns, dimension 2 has no partner
    c.positional = attn::Positional::Rope;
    attn::Result r;
    REQUIRE(attn::compute(c, r).empty());
    REQUIRE(r.rope_angles.rows == 7);
    REQUIRE(r.rope_angles.cols == 1);
    for (int t = 0; t < 7; ++t) {
        CHECK(r.heads[0].q(t, 2) == r.q(t, 2));
        CHECK(r.heads[0].k(t, 2) == r.k(t, 2));
        CHECK(r.rope_angles(t, 0) == float(t));  // θ_0 = 1
        // a rotation keeps the pair's length
        const double before = std::hypot(r.q(t, 0), r.q(t, 1)), after = std::hypot(r.heads[0].q(t, 0), r.heads[0].q(t, 1));
        CHECK_THAT(after, WithinRel(before, 1e-6));
    }
    CHECK(r.heads[0].q(0, 0) == r.q(0, 0));  // position 0 does not turn
}

TEST_CASE("with RoPE a shift of every position leaves every score unchanged", "[rope]") {
    const auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config c = sized(7, 12, 3);
    c.positional = attn::Positional::Rope;
    attn::Result at0, shifted;
    REQUIRE(attn::compute(c, at0, implementation).empty());
    c.position_offset = 1000;
    REQUIRE(attn::compute(c, shifted, implementation).empty());
    CHECK(largest_score_change(at0, shifted) < 1e-5);
    CHECK(ref64::worst(shifted.output, ref64::from(at0.output)) <= 1.0);
    // ... while q and k themselves turned
    CHECK(std::fabs(at0.heads[0].q(2, 0) - shifted.heads[0].q(2, 0)) > 1e-3);

    // sinusoidal positions added to X move every score
    c.positional = attn::Positional::Sinusoidal;
    c.position_offset = 0;
    REQUIRE(attn::compute(c, at0, implementation).empty());
    c.position_offset = 1000;
    REQUIRE(attn::compute(c, shifted, implementation).empty());
    CHECK(largest_score_change(at0, shifted) > 1e-2);
}

TEST_CASE("ALiBi slopes follow the paper's reference code", "[alibi]") {
    const std::vector<float> eight = attn::alibi_slopes(8);
    for (int h = 1; h <= 8; ++h) CHECK(eight[h - 1] == std::ldexp(1.0f, -h));  // 2^(−8h/8)
    CHECK(attn::alibi_slopes(1) == std::vector<float>{1.0f / 256});
    // 12 heads: the 8 slopes of 8 heads, then 2^(−0.5), 2^(−1.5), 2^(−2.5), 2^(−3.5) from 16
    const std::vector<float> twelve = attn::alibi_slopes(12);
    REQUIRE(twelve.size() == 12);
    for (int h = 0; h < 8; ++h) CHECK(twelve[h] == eight[h]);
    for (int k = 0; k < 4; ++k) CHECK(twelve[8 + k] == float(std::pow(2.0, -0.5 - k)));
    for (int n : {1, 2, 3, 5, 6, 7, 12, 24, 100}) {
        CAPTURE(n);
        const std::vector<double> ref = ref64::alibi_slopes(n);
        const std::vector<float> got = attn::alibi_slopes(n);
        REQUIRE(got.size() == ref.size());
        for (int h = 0; h < n; ++h) CHECK_THAT(got[h], WithinRel(ref[h], 1e-7));
    }
}

TEST_CASE("ALiBi matches the float64 reference and keeps its bias matrix", "[alibi]") {
    const auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    const auto [T, C, NH, KVH] = GENERATE(table<int, int, int, int>(
        {{1, 5, 5, 0}, {7, 5, 5, 0}, {7, 3, 1, 0}, {9, 12, 3, 1}, {33, 24, 6, 2}}));
    const auto mask = GENERATE(attn::MaskKind::Causal, attn::MaskKind::None);
    CAPTURE(T, C, NH, KVH);
    attn::Config c = sized(T, C, NH, KVH);
    c.alibi = true;
    c.mask = mask;
    check_against_reference(c, implementation);
    attn::Result r;
    REQUIRE(attn::compute(c, r, implementation).empty());
    REQUIRE(r.alibi_slopes.size() == std::size_t(NH));
    for (int h = 0; h < NH; ++h) {
        REQUIRE(r.heads[h].bias.rows == T);
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j) CHECK(r.heads[h].bias(i, j) == -r.alibi_slopes[h] * float(std::abs(i - j)));
    }
}

TEST_CASE("ALiBi with RoPE, a finite fill and the mask before scaling", "[alibi][rope]") {
    attn::Config c = sized(7, 10, 5);
    c.alibi = true;
    c.positional = attn::Positional::Rope;
    c.mask_fill = -1e9f;
    c.mask_before_scale = true;
    c.temperature = 0.7f;
    check_against_reference(c, attn::Implementation::Simd);
    check_against_reference(c, attn::Implementation::Reference);
}

TEST_CASE("RoPE, ALiBi and position offsets are validated", "[rope][alibi][validation]") {
    attn::Config c = sized(3, 4, 2);
    attn::Result r;
    c.position_offset = -1;
    CHECK(attn::compute(c, r) == "positionOffset must be a whole number between 0 and 1000000 (got -1)");
    c.position_offset = attn::kMaxPositionOffset + 1;
    CHECK(attn::compute(c, r) == "positionOffset must be a whole number between 0 and 1000000 (got 1000001)");
    c.position_offset = attn::kMaxPositionOffset;
    c.positional = attn::Positional::Rope;
    CHECK(attn::compute(c, r).empty());
    c.cross = true;
    c.source_tokens = {"a", "b"};
    CHECK(attn::compute(c, r).find("positional \"rope\" works in self-attention only") == 0);
    c.positional = attn::Positional::None;
    c.alibi = true;
    CHECK(attn::compute(c, r).find("alibi works in self-attention only") == 0);
}
