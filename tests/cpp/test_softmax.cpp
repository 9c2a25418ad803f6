// The softmax step: every row is a probability distribution, future tokens get exactly zero
// weight under the causal mask, and large scores do not overflow.
#include <catch2/catch.hpp>

#include <cmath>

#include "attention.hpp"

using Catch::Matchers::WithinAbs;

namespace {

attn::Config random_config(int T, int C, int NH, attn::MaskKind mask) {
    attn::Config config;
    for (int t = 0; t < T; ++t) config.tokens.push_back("token" + std::to_string(t));
    config.C = C;
    config.NH = NH;
    config.mask = mask;
    config.seed = 7;
    return config;
}

}  // namespace

TEST_CASE("softmax rows sum to one", "[softmax]") {
    auto mask = GENERATE(attn::MaskKind::Causal, attn::MaskKind::None);
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Result r;
    REQUIRE(attn::compute(random_config(9, 12, 3, mask), r, implementation).empty());
    for (const auto& head : r.heads) {
        for (int i = 0; i < r.T; ++i) {
            double sum = 0.0;
            for (int j = 0; j < r.T; ++j) {
                CHECK(head.weights(i, j) >= 0.0f);
                sum += head.weights(i, j);
            }
            CHECK_THAT(sum, WithinAbs(1.0, 1e-6));
        }
    }
}

TEST_CASE("the causal mask gives future tokens exactly zero weight", "[softmax][mask]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Result r;
    REQUIRE(attn::compute(random_config(11, 8, 2, attn::MaskKind::Causal), r, implementation).empty());
    for (const auto& head : r.heads) {
        for (int i = 0; i < r.T; ++i) {
            for (int j = i + 1; j < r.T; ++j) {
                CHECK(std::isinf(head.masked(i, j)));
                CHECK(head.masked(i, j) < 0.0f);
                CHECK(head.weights(i, j) == 0.0f);
            }
            // ...and the past keeps a positive weight.
            for (int j = 0; j <= i; ++j) CHECK(head.weights(i, j) > 0.0f);
        }
    }
}

TEST_CASE("without a mask every token attends to every token", "[softmax][mask]") {
    attn::Result r;
    REQUIRE(attn::compute(random_config(5, 4, 1, attn::MaskKind::None), r).empty());
    const auto& head = r.heads[0];
    CHECK(head.masked.data == head.scores.data);
    for (float w : head.weights.data) CHECK(w > 0.0f);
}

TEST_CASE("the softmax subtracts the row max so large scores do not overflow", "[softmax]") {
    // Embeddings of 1000 with identity weights give scores of 1e6 / √2: e^score alone would be
    // ∞ in float32; the stable softmax still gives a proper distribution.
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config config;
    config.tokens = {"a", "b", "c"};
    config.C = 2;
    config.NH = 1;
    config.weights = attn::WeightsKind::Identity;
    config.mask = attn::MaskKind::None;
    config.has_embeddings = true;
    config.embeddings = attn::Matrix(3, 2);
    config.embeddings.data = {1000.0f, 0.0f, 999.0f, 1.0f, 0.0f, 1000.0f};
    attn::Result r;
    REQUIRE(attn::compute(config, r, implementation).empty());
    for (float w : r.heads[0].weights.data) CHECK(std::isfinite(w));
    CHECK_THAT(r.heads[0].weights(0, 0), WithinAbs(1.0, 1e-6));
}

TEST_CASE("turning scaling off leaves the raw dot products", "[softmax]") {
    attn::Config config = random_config(4, 4, 1, attn::MaskKind::Causal);
    attn::Result scaled, raw;
    REQUIRE(attn::compute(config, scaled).empty());
    config.scale = false;
    REQUIRE(attn::compute(config, raw).empty());
    // d_k = 4: √d_k = 2, so the unscaled scores are twice the scaled ones.
    for (std::size_t n = 0; n < raw.heads[0].scores.data.size(); ++n) {
        CHECK_THAT(raw.heads[0].scores.data[n], WithinAbs(2.0 * scaled.heads[0].scores.data[n], 1e-5));
    }
}

TEST_CASE("temperature divides the logits: low tau sharpens and high tau flattens", "[softmax]") {
    attn::Config config = random_config(6, 8, 2, attn::MaskKind::None);
    std::vector<float> entropies;
    for (float tau : {0.25f, 1.0f, 4.0f}) {
        config.temperature = tau;
        attn::Result r;
        REQUIRE(attn::compute(config, r).empty());
        entropies.push_back(r.heads[0].entropy[3]);
        // Row statistics agree with the definition: weights = e^(z − max) / rowSum.
        const auto& head = r.heads[0];
        for (int j = 0; j < r.Tk; ++j) {
            CHECK_THAT(head.exps(3, j) / head.row_sum[3], WithinAbs(head.weights(3, j), 1e-6));
            const float z = head.masked(3, j) / tau;
            CHECK_THAT(head.weights(3, j), WithinAbs(std::exp(z - head.row_max[3]) / head.row_sum[3], 1e-6));
        }
    }
    CHECK(entropies[0] < entropies[1]);
    CHECK(entropies[1] < entropies[2]);
    CHECK(entropies[2] <= std::log(6.0f) + 1e-6f);  // never above the uniform distribution's
}

TEST_CASE("naive softmax overflows for large scores where the stable one does not", "[softmax]") {
    // Scores near 1e4: e^s is ∞ in float32 (the largest float is about e^88.7), so the naive
    // e^s / Σ e^s is ∞/∞ = NaN. Subtracting the row max first keeps every exponent ≤ 0.
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config config;
    config.tokens = {"a", "b", "c"};
    config.C = 2;
    config.weights = attn::WeightsKind::Identity;
    config.mask = attn::MaskKind::None;
    config.scale = false;
    config.has_embeddings = true;
    config.embeddings = attn::Matrix(3, 2);
    config.embeddings.data = {100.0f, 0.0f, 99.0f, 1.0f, 0.0f, 100.0f};
    attn::Result stable, naive;
    REQUIRE(attn::compute(config, stable, implementation).empty());
    config.naive_softmax = true;
    REQUIRE(attn::compute(config, naive, implementation).empty());
    CHECK(std::isinf(naive.heads[0].row_sum[0]));
    CHECK(std::isnan(naive.heads[0].weights(0, 0)));
    CHECK(std::isfinite(stable.heads[0].row_sum[0]));
    for (float w : stable.heads[0].weights.data) CHECK(std::isfinite(w));

    SECTION("for small scores the two agree") {
        config.embeddings.data = {0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.2f};
        REQUIRE(attn::compute(config, naive, implementation).empty());
        config.naive_softmax = false;
        REQUIRE(attn::compute(config, stable, implementation).empty());
        for (std::size_t n = 0; n < stable.heads[0].weights.data.size(); ++n)
            CHECK_THAT(naive.heads[0].weights.data[n], WithinAbs(stable.heads[0].weights.data[n], 1e-6));
    }
}
