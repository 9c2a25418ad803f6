// The xsimd implementation against the scalar reference and the float64 reference, over shapes
// that are not multiples of the batch width (4 in wasm, 8 with AVX2): T = 1, 7, 33;
// C = 5, 12, 64; heads that are not powers of two; both masks.
#include <catch2/catch.hpp>

#include "attention.hpp"
#include "reference64.hpp"

namespace {

void require_close(const char* what, const attn::Matrix& got, const ref64::Mat& ref) {
    INFO(what << " (" << got.rows << "\u00d7" << got.cols << ")");
    CHECK(ref64::worst(got, ref) <= 1.0);
}

void require_matches_float64(const attn::Result& r, const ref64::Forward& f) {
    require_close("q", r.q, f.q);
    require_close("k", r.k, f.k);
    require_close("v", r.v, f.v);
    for (int h = 0; h < r.NH; ++h) {
        INFO("head " << h);
        require_close("scores", r.heads[h].scores, f.heads[h].scores);
        require_close("masked", r.heads[h].masked, f.heads[h].masked);
        require_close("weights", r.heads[h].weights, f.heads[h].weights);
        require_close("context", r.heads[h].context, f.heads[h].context);
    }
    require_close("concat", r.concat, f.concat);
    require_close("output", r.output, f.output);
}

}  // namespace

TEST_CASE("SIMD and scalar reference both match float64 for odd shapes", "[simd]") {
    const int T = GENERATE(1, 7, 33);
    const auto [C, NH] = GENERATE(table<int, int>({{5, 1}, {5, 5}, {12, 1}, {12, 3}, {12, 12},
                                                   {64, 1}, {64, 4}, {64, 16}}));
    const auto mask = GENERATE(attn::MaskKind::Causal, attn::MaskKind::None);
    CAPTURE(T, C, NH, mask == attn::MaskKind::Causal ? "causal" : "none");

    attn::Config config;
    for (int t = 0; t < T; ++t) config.tokens.push_back("t" + std::to_string(t));
    config.C = C;
    config.NH = NH;
    config.mask = mask;
    config.seed = 1234;
    const ref64::Forward f = ref64::forward(attn::resolve(config));

    attn::Result reference, simd;
    REQUIRE(attn::compute(config, reference, attn::Implementation::Reference).empty());
    REQUIRE(attn::compute(config, simd, attn::Implementation::Simd).empty());
    {
        INFO("scalar reference");
        require_matches_float64(reference, f);
    }
    {
        INFO("SIMD (" << attn::simd_arch_name() << ")");
        require_matches_float64(simd, f);
    }
}

TEST_CASE("recomputing at another size reuses the result without stale values", "[simd]") {
    attn::Config big;
    for (int t = 0; t < 9; ++t) big.tokens.push_back("x" + std::to_string(t));
    big.C = 12;
    big.NH = 3;
    attn::Config small = big;
    small.tokens.resize(2);
    small.C = 4;
    small.NH = 2;

    attn::Result reused, fresh;
    REQUIRE(attn::compute(big, reused).empty());
    REQUIRE(attn::compute(small, reused).empty());
    REQUIRE(attn::compute(small, fresh).empty());
    CHECK(reused.heads.size() == 2);
    CHECK(reused.output.data == fresh.output.data);
    CHECK(reused.heads[1].weights.data == fresh.heads[1].weights.data);
}

TEST_CASE("the SIMD build names its instruction set", "[simd]") {
    CHECK_FALSE(attn::simd_arch_name().empty());
    CHECK(attn::simd_arch_name() != "scalar");
}
