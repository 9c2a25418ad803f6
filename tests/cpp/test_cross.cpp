// Cross-attention (queries from the target, keys and values from the source) and positional
// encoding, including the permutation equivariance that positions break.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "attention.hpp"
#include "reference64.hpp"

using Catch::Matchers::WithinAbs;

namespace {

attn::Config translation() {
    attn::Config c;
    c.tokens = {"我", "爱", "你"};  // target: queries
    c.cross = true;
    c.source_tokens = {"I", "love", "you", "."};  // source: keys and values
    c.C = 8;
    c.NH = 2;
    c.mask = attn::MaskKind::None;
    c.seed = 11;
    return c;
}

}  // namespace

TEST_CASE("cross-attention is target x source", "[cross]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config c = translation();
    attn::Result r;
    REQUIRE(attn::compute(c, r, implementation).empty());
    CHECK(r.T == 3);
    CHECK(r.Tk == 4);
    CHECK(r.q.rows == 3);
    CHECK(r.k.rows == 4);
    CHECK(r.v.rows == 4);
    CHECK(r.xs.rows == 4);
    CHECK(r.heads[0].weights.rows == 3);
    CHECK(r.heads[0].weights.cols == 4);
    CHECK(r.output.rows == 3);
    const ref64::Forward f = ref64::forward(c);
    for (int h = 0; h < 2; ++h) {
        CHECK(ref64::worst(r.heads[h].scores, f.heads[h].scores) <= 1.0);
        CHECK(ref64::worst(r.heads[h].weights, f.heads[h].weights) <= 1.0);
    }
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
}

TEST_CASE("padding in cross-attention masks source tokens, and causal applies only when asked", "[cross][mask]") {
    attn::Config c = translation();
    c.padding = {0, 0, 0, 1};  // the "." is padding
    attn::Result r;
    REQUIRE(attn::compute(c, r).empty());
    for (int i = 0; i < 3; ++i) CHECK(r.heads[0].weights(i, 3) == 0.0f);
    CHECK(r.heads[0].weights(0, 2) > 0.0f);  // no causal mask unless asked
    c.mask = attn::MaskKind::Causal;
    REQUIRE(attn::compute(c, r).empty());
    CHECK(r.heads[0].weights(0, 2) == 0.0f);
    CHECK(attn::validate([] { auto b = translation(); b.padding = {1, 0, 0}; return b; }()) ==
          "padding must have one entry per source token (4), got 3");
}

TEST_CASE("cross-attention validates its source", "[cross][validation]") {
    attn::Config c = translation();
    c.source_tokens.clear();
    CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("no source tokens"));
    c = translation();
    c.has_source_embeddings = true;
    c.source_embeddings = attn::Matrix(3, 8);
    CHECK_THAT(attn::validate(c), Catch::Matchers::Contains("source.embeddings must be 4\u00d78"));
}

TEST_CASE("sinusoidal positions follow the paper's formula", "[positional]") {
    const attn::Matrix p = attn::sinusoidal_positions(4, 6);
    CHECK(p(0, 0) == 0.0f);  // sin 0
    CHECK(p(0, 1) == 1.0f);  // cos 0
    CHECK_THAT(p(3, 0), WithinAbs(std::sin(3.0), 1e-7));
    CHECK_THAT(p(3, 3), WithinAbs(std::cos(3.0 / std::pow(10000.0, 2.0 / 6)), 1e-7));
    attn::Config c;
    c.tokens = {"a", "b"};
    c.C = 6;
    c.positional = attn::Positional::Sinusoidal;
    attn::Result r;
    REQUIRE(attn::compute(c, r).empty());
    for (std::size_t n = 0; n < r.x.data.size(); ++n)
        CHECK(r.x.data[n] == r.embeddings.data[n] + r.positions.data[n]);
}

TEST_CASE("without positions, shuffling tokens only shuffles the outputs", "[positional]") {
    // Bidirectional self-attention is permutation-equivariant: attention(P·X) = P·attention(X).
    // Positional encoding breaks this, which is why Transformers need it.
    attn::Config c;
    c.tokens = {"the", "cat", "sat", "on", "mat"};
    c.C = 8;
    c.NH = 2;
    c.mask = attn::MaskKind::None;
    const std::vector<int> order = {3, 0, 4, 1, 2};
    attn::Config shuffled = c;
    for (int t = 0; t < 5; ++t) shuffled.tokens[t] = c.tokens[order[t]];

    auto max_row_difference = [&](const attn::Result& a, const attn::Result& b) {
        float worst = 0.0f;
        for (int t = 0; t < 5; ++t)
            for (int e = 0; e < 8; ++e)
                worst = std::max(worst, std::fabs(b.output(t, e) - a.output(order[t], e)));
        return worst;
    };
    attn::Result a, b;
    REQUIRE(attn::compute(c, a).empty());
    REQUIRE(attn::compute(shuffled, b).empty());
    CHECK(max_row_difference(a, b) <= 1e-5f);

    c.positional = shuffled.positional = attn::Positional::Sinusoidal;
    REQUIRE(attn::compute(c, a).empty());
    REQUIRE(attn::compute(shuffled, b).empty());
    CHECK(max_row_difference(a, b) > 1e-3f);
}
