// Multi-head attention: heads are column slices, computed independently, concatenated back and
// mixed by W_O. Checked against the float64 reference, which applies the single-head formula
// head by head.
#include <catch2/catch.hpp>

#include "attention.hpp"
#include "reference64.hpp"

namespace {

attn::Config config_with(int T, int C, int NH) {
    attn::Config config;
    for (int t = 0; t < T; ++t) config.tokens.push_back("w" + std::to_string(t * 31 % 17));
    config.C = C;
    config.NH = NH;
    config.seed = 42;
    return config;
}

}  // namespace

TEST_CASE("one head equals the single-head formula softmax(QKᵀ/√d_model + M)·V·W_O", "[heads]") {
    const attn::Config config = config_with(7, 6, 1);
    attn::Result r;
    REQUIRE(attn::compute(config, r).empty());
    REQUIRE(r.HS == 6);  // one head: d_k = d_model
    const ref64::Forward f = ref64::forward(config);
    CHECK(ref64::worst(r.heads[0].scores, f.heads[0].scores) <= 1.0);
    CHECK(ref64::worst(r.heads[0].weights, f.heads[0].weights) <= 1.0);
    CHECK(ref64::worst(r.heads[0].context, f.heads[0].context) <= 1.0);
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
    // The head's Q, K, V are the whole Q, K, V.
    CHECK(r.heads[0].q.data == r.q.data);
    CHECK(r.heads[0].k.data == r.k.data);
    CHECK(r.heads[0].v.data == r.v.data);
}

TEST_CASE("head h works on its own d_k columns and concat puts them back", "[heads]") {
    auto NH = GENERATE(2, 3, 6);
    const attn::Config config = config_with(5, 6, NH);
    attn::Result r;
    REQUIRE(attn::compute(config, r).empty());
    REQUIRE(r.HS == 6 / NH);
    for (int h = 0; h < NH; ++h) {
        for (int t = 0; t < r.T; ++t) {
            for (int c = 0; c < r.HS; ++c) {
                CHECK(r.heads[h].q(t, c) == r.q(t, h * r.HS + c));
                CHECK(r.heads[h].k(t, c) == r.k(t, h * r.HS + c));
                CHECK(r.heads[h].v(t, c) == r.v(t, h * r.HS + c));
                CHECK(r.concat(t, h * r.HS + c) == r.heads[h].context(t, c));
            }
        }
    }
    const ref64::Forward f = ref64::forward(config);
    for (int h = 0; h < NH; ++h) {
        INFO("head " << h);
        CHECK(ref64::worst(r.heads[h].weights, f.heads[h].weights) <= 1.0);
        CHECK(ref64::worst(r.heads[h].context, f.heads[h].context) <= 1.0);
    }
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
}

TEST_CASE("heads see different subspaces so their attention maps differ", "[heads]") {
    const attn::Config config = config_with(6, 8, 2);
    attn::Result r;
    REQUIRE(attn::compute(config, r).empty());
    CHECK(r.heads[0].weights.data != r.heads[1].weights.data);
}

TEST_CASE("concat after split is the identity", "[heads]") {
    // Splitting Q into heads and pasting the slices back gives Q again, for any head count.
    const attn::Config config = config_with(4, 12, 1);
    attn::Result r;
    REQUIRE(attn::compute(config, r).empty());
    for (int NH : {1, 2, 3, 4, 6, 12}) {
        const int HS = 12 / NH;
        attn::Matrix rebuilt(r.T, 12), slice(r.T, HS);
        for (int h = 0; h < NH; ++h) {
            for (int t = 0; t < r.T; ++t)
                for (int c = 0; c < HS; ++c) slice(t, c) = r.q(t, h * HS + c);
            for (int t = 0; t < r.T; ++t)
                for (int c = 0; c < HS; ++c) rebuilt(t, h * HS + c) = slice(t, c);
        }
        CHECK(rebuilt.data == r.q.data);
    }
}

TEST_CASE("grouped-query and multi-query attention share key/value heads", "[heads]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    const int KVH = GENERATE(1, 2, 3, 6);  // 1 = multi-query; 6 = every head its own
    attn::Config config = config_with(7, 12, 6);
    config.KVH = KVH;
    attn::Result r;
    REQUIRE(attn::compute(config, r, implementation).empty());
    CHECK(r.k.cols == KVH * 2);
    CHECK(r.v.cols == KVH * 2);
    const int group = 6 / KVH;
    for (int h = 0; h < 6; ++h) {
        INFO("query head " << h << " reads key/value head " << h / group);
        CHECK(r.heads[h].k.data == r.heads[(h / group) * group].k.data);
        CHECK(r.heads[h].v.data == r.heads[(h / group) * group].v.data);
    }
    const ref64::Forward f = ref64::forward(config);
    for (int h = 0; h < 6; ++h) {
        CHECK(ref64::worst(r.heads[h].weights, f.heads[h].weights) <= 1.0);
        CHECK(ref64::worst(r.heads[h].context, f.heads[h].context) <= 1.0);
    }
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
}

TEST_CASE("kvHeads must divide heads", "[heads][validation]") {
    attn::Config config = config_with(3, 12, 4);
    config.KVH = 3;
    CHECK(attn::validate(config) == "kvHeads (3) must divide heads (4)");
    config.KVH = 2;
    CHECK(attn::validate(config).empty());
}
