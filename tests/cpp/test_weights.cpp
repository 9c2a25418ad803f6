// Deterministic inputs: identity, seeded random weights and per-token embeddings give the same
// bits on every platform. The pinned values below are also checked in the browser build
// (tests/js/engine.test.mjs), which is what "the same seed gives the same bits natively and in
// every browser" means in practice.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "attention.hpp"
#include "weights.hpp"

namespace {

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

}  // namespace

TEST_CASE("identity weights are the identity", "[weights]") {
    const attn::Matrix i3 = attn::identity(3);
    CHECK(i3.data == std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1});
}

TEST_CASE("seeded random weights are reproducible and bounded and differ by role and seed",
          "[weights]") {
    const attn::Matrix a = attn::random_weights(8, 8, 3, attn::WeightRole::Query);
    const attn::Matrix b = attn::random_weights(8, 8, 3, attn::WeightRole::Query);
    CHECK(a.data == b.data);
    CHECK(a.data != attn::random_weights(8, 8, 3, attn::WeightRole::Key).data);
    CHECK(a.data != attn::random_weights(8, 8, 4, attn::WeightRole::Query).data);
    const float bound = 1.0f / std::sqrt(8.0f);
    for (float w : a.data) {
        CHECK(w >= -bound);
        CHECK(w < bound);
    }
}

TEST_CASE("the same word always gets the same embedding", "[weights]") {
    const attn::Matrix x = attn::token_embeddings({"the", "cat", "the"}, 5);
    for (int c = 0; c < 5; ++c) CHECK(x(0, c) == x(2, c));
    CHECK(x(0, 0) != x(1, 0));
    for (float v : x.data) CHECK((v >= -1.0f && v < 1.0f));
    // A wider d_model appends components; the first ones stay.
    const attn::Matrix wider = attn::token_embeddings({"the"}, 9);
    for (int c = 0; c < 5; ++c) CHECK(wider(0, c) == x(0, c));
}

TEST_CASE("pinned bits of seed 0 weights and of the embedding of attention", "[weights]") {
    // These exact bit patterns are the contract with every other build (wasm SIMD, wasm scalar).
    const attn::Matrix wq = attn::random_weights(4, 4, 0, attn::WeightRole::Query);
    const attn::Matrix wo = attn::random_weights(4, 4, 0, attn::WeightRole::Output);
    const attn::Matrix x = attn::token_embeddings({"attention"}, 3);
    CHECK(bits(wq(0, 0)) == 0x3EC44150u);  // 0.383310795
    CHECK(bits(wo(3, 3)) == 0xBDBE6810u);  // -0.092971921
    CHECK(bits(x(0, 2)) == 0x3ECF4748u);    // 0.404840708
}
