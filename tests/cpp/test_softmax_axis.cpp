// Softmax over the queries (each key column) instead of the keys (each query row): the course's
// misconception, computed by both implementations and checked against the float64 reference.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "attention.hpp"
#include "reference64.hpp"

namespace {

attn::Config config_of(int T, int C, int NH, attn::MaskKind mask) {
    attn::Config config;
    for (int t = 0; t < T; ++t) config.tokens.push_back("w" + std::to_string(t));
    config.C = C;
    config.NH = NH;
    config.mask = mask;
    config.seed = 11;
    config.softmax_over = attn::SoftmaxAxis::Queries;
    return config;
}

void check_against_reference(const attn::Config& config, attn::Implementation implementation) {
    attn::Result r;
    REQUIRE(attn::compute(config, r, implementation).empty());
    const ref64::Forward f = ref64::forward(config);
    for (int h = 0; h < r.NH; ++h) {
        CHECK(ref64::worst(r.heads[h].weights, f.heads[h].weights) <= 1.0);
        CHECK(ref64::worst(r.heads[h].context, f.heads[h].context) <= 1.0);
        CHECK(ref64::worst(r.heads[h].weight_sum, f.heads[h].weight_sum) <= 1.0);
        CHECK(ref64::worst(r.heads[h].row_max, f.heads[h].row_max) <= 1.0);
        CHECK(ref64::worst(r.heads[h].row_sum, f.heads[h].row_sum) <= 1.0);
        CHECK(ref64::worst(r.heads[h].entropy, f.heads[h].entropy) <= 1.0);
    }
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
}

}  // namespace

TEST_CASE("softmax over queries matches the float64 reference", "[softmax][axis]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    auto mask = GENERATE(attn::MaskKind::None, attn::MaskKind::Causal, attn::MaskKind::Window, attn::MaskKind::Prefix);
    auto T = GENERATE(1, 7, 33);
    attn::Config config = config_of(T, 12, 3, mask);
    config.window = 2;
    config.prefix = 3;
    check_against_reference(config, implementation);
}

TEST_CASE("softmax over queries with padding, a finite fill, τ and naive softmax", "[softmax][axis]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config config = config_of(7, 5, 1, attn::MaskKind::Causal);
    SECTION("a padded key is a column no query sees: all zeros") {
        config.padding = {0, 0, 1, 0, 0, 0, 1};
        check_against_reference(config, implementation);
        attn::Result r;
        REQUIRE(attn::compute(config, r, implementation).empty());
        for (int i = 0; i < r.T; ++i) CHECK(r.heads[0].weights(i, 2) == 0.0f);
    }
    SECTION("a finite fill") {
        config.mask_fill = -1e9f;
        check_against_reference(config, implementation);
    }
    SECTION("temperature and naive softmax") {
        config.temperature = 0.5f;
        config.naive_softmax = true;
        check_against_reference(config, implementation);
    }
}

TEST_CASE("over queries the columns sum to one and the rows do not", "[softmax][axis]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Result r;
    REQUIRE(attn::compute(config_of(7, 8, 2, attn::MaskKind::Causal), r, implementation).empty());
    for (const auto& head : r.heads) {
        for (int j = 0; j < r.Tk; ++j) {
            double column = 0.0;
            for (int i = 0; i < r.T; ++i) column += head.weights(i, j);
            CHECK(std::fabs(column - 1.0) < 1e-5);
        }
        // The last key is seen by the last query only: its whole column is that one weight, so
        // the last row takes more than 1 in total, and the first row (one key of T) less.
        CHECK(head.weights(r.T - 1, r.T - 1) == 1.0f);
        CHECK(head.weight_sum[r.T - 1] > 1.0f);
        CHECK(head.weight_sum[0] < 1.0f);
    }
}

TEST_CASE("over keys every visible row's weight sum is 1", "[softmax][axis]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Config config = config_of(7, 8, 2, attn::MaskKind::Causal);
    config.softmax_over = attn::SoftmaxAxis::Keys;
    config.padding = {1, 0, 0, 0, 0, 0, 0};  // row 0 sees no key: its sum is 0
    attn::Result r;
    REQUIRE(attn::compute(config, r, implementation).empty());
    const ref64::Forward f = ref64::forward(config);
    for (const auto& head : r.heads) {
        CHECK(head.weight_sum[0] == 0.0f);
        for (int i = 1; i < r.T; ++i) CHECK(std::fabs(head.weight_sum[i] - 1.0f) < 1e-6f);
    }
    CHECK(ref64::worst(r.heads[1].weight_sum, f.heads[1].weight_sum) <= 1.0);
}

TEST_CASE("softmax over queries is refused where rows are normalised one at a time", "[softmax][axis][validation]") {
    attn::Config config = config_of(7, 8, 2, attn::MaskKind::Causal);
    attn::OutputOnlyResult out;
    CHECK(attn::compute_output_only(config, {}, out).find("softmaxOver") != std::string::npos);
    attn::DecodeResult decode;
    CHECK(attn::decode_incremental(config, decode).find("softmaxOver") != std::string::npos);
    attn::FlashTrace trace;
    CHECK(attn::trace_output_only(config, 2, 2, trace).find("softmaxOver") != std::string::npos);
}

TEST_CASE("later_weight is what a row takes from the keys after it", "[softmax][mask]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    auto mask = GENERATE(attn::MaskKind::None, attn::MaskKind::Causal);
    auto T = GENERATE(1, 7);
    attn::Config config = config_of(T, 6, 2, mask);
    config.softmax_over = attn::SoftmaxAxis::Keys;
    attn::Result r;
    REQUIRE(attn::compute(config, r, implementation).empty());
    const ref64::Forward f = ref64::forward(config);
    for (int h = 0; h < r.NH; ++h) {
        CHECK(ref64::worst(r.heads[h].later_weight, f.heads[h].later_weight) <= 1.0);
        // the causal mask leaves nothing after the row; the last row has nothing after it anyway
        CHECK(r.heads[h].later_weight[T - 1] == 0.0f);
        if (mask == attn::MaskKind::Causal)
            for (float w : r.heads[h].later_weight) CHECK(w == 0.0f);
        else if (T > 1)
            CHECK(r.heads[h].later_weight[0] > 0.0f);
    }
}
