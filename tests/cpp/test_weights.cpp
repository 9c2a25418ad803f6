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
    CHECK(bits(x(0, 2)) == 0x3ECF4748u);   // 0.404840708
}

TEST_CASE("resolve borrows the inputs it is given and makes the others", "[weights]") {
    // Borrowing is what lets a large input cross into the core with one copy: the forward pass
    // reads the config's own matrices.
    attn::Config c;
    c.tokens = {"a", "b", "c"};
    c.C = 4;
    c.NH = 2;
    c.has_embeddings = true;
    c.embeddings = attn::token_embeddings(c.tokens, c.C);
    c.weights = attn::WeightsKind::Explicit;
    c.wq = c.wk = c.wv = c.wo = attn::random_weights(4, 4, 1, attn::WeightRole::Query);
    REQUIRE(attn::validate(c).empty());
    {
        const attn::Problem p = attn::resolve(c);
        CHECK(p.x == &c.embeddings);
        CHECK(p.xs == p.x);
        CHECK((p.wq == &c.wq && p.wk == &c.wk && p.wv == &c.wv && p.wo == &c.wo));
        CHECK(p.made.empty());
    }
    // With positions, X is a matrix of its own (the config's embeddings stay as they were), and so
    // are generated weights; their addresses survive moving the Problem.
    c.positional = attn::Positional::Sinusoidal;
    c.weights = attn::WeightsKind::Identity;
    attn::Problem moved = attn::resolve(c);
    const attn::Problem p = std::move(moved);
    CHECK(p.x != &c.embeddings);
    CHECK((*p.x)(1, 0) == c.embeddings(1, 0) + attn::sinusoidal_positions(3, 4)(1, 0));
    CHECK(p.made.size() == 3);  // X, I_C for W_Q and W_O, the identity columns for W_K and W_V
    CHECK(p.wq == p.wo);
    CHECK(&p.made.front() == p.x);
    CHECK((*p.wq)(2, 2) == 1.0f);
}
