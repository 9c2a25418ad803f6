// The xsimd implementation against the scalar reference and the float64 reference, over shapes
// that are not multiples of the batch width (4 in wasm, 8 with AVX2): T = 1, 7, 33;
// C = 5, 12, 64; heads that are not powers of two; both masks.
#include <catch2/catch.hpp>

#include <limits>

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
    const auto [C, NH] = GENERATE(table<int, int>({
        {5, 1},
        {5, 5},
        {12, 1},
        {12, 3},
        {12, 12},
        {64, 1},
        {64, 4},
        {64, 16},
    }));
    const auto mask = GENERATE(attn::MaskKind::Causal, attn::MaskKind::None);
    CAPTURE(T, C, NH, mask == attn::MaskKind::Causal ? "causal" : "none");

    attn::Config config;
    for (int t = 0; t < T; ++t) config.tokens.push_back("t" + std::to_string(t));
    config.C = C;
    config.NH = NH;
    config.mask = mask;
    config.seed = 1234;
    const ref64::Forward f = ref64::forward(config);

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

TEST_CASE("SIMD and scalar reference match float64 for every mask and softmax option", "[simd][mask][softmax]") {
    // One row per feature combination; shapes stay odd so every tail is exercised.
    struct Case {
        const char* name;
        attn::MaskKind mask;
        float fill;
        bool before;
        float tau;
        int KVH;
        bool cross;
        bool pad;
    };
    const float inf = std::numeric_limits<float>::infinity();
    const Case c = GENERATE_COPY(values<Case>({
        {"window 3", attn::MaskKind::Window, -inf, false, 1.0f, 0, false, false},
        {"prefix 4", attn::MaskKind::Prefix, -inf, false, 1.0f, 0, false, false},
        {"custom", attn::MaskKind::Custom, -inf, false, 1.0f, 0, false, false},
        {"causal, fill -1e9, before scale", attn::MaskKind::Causal, -1e9f, true, 1.0f, 0, false, false},
        {"causal, fill 0", attn::MaskKind::Causal, 0.0f, false, 1.0f, 0, false, false},
        {"none + padding, tau 0.3", attn::MaskKind::None, -inf, false, 0.3f, 0, false, true},
        {"causal, tau 7, GQA 2", attn::MaskKind::Causal, -inf, false, 7.0f, 2, false, false},
        {"MQA + padding, fill -1e4", attn::MaskKind::None, -1e4f, false, 1.0f, 1, false, true},
        {"cross + padding", attn::MaskKind::None, -inf, false, 1.0f, 0, true, true},
        {"cross causal, GQA", attn::MaskKind::Causal, -inf, false, 2.0f, 2, true, false},
    }));
    CAPTURE(c.name);
    attn::Config config;
    for (int t = 0; t < 9; ++t) config.tokens.push_back("q" + std::to_string(t));
    config.C = 12;
    config.NH = 6;
    config.KVH = c.KVH;
    config.mask = c.mask;
    config.window = 3;
    config.prefix = 4;
    config.mask_fill = c.fill;
    config.mask_before_scale = c.before;
    config.temperature = c.tau;
    config.cross = c.cross;
    if (c.cross)
        for (int t = 0; t < 7; ++t) config.source_tokens.push_back("s" + std::to_string(t));
    const int Tk = c.cross ? 7 : 9;
    if (c.mask == attn::MaskKind::Custom) {
        for (int n = 0; n < 9 * Tk; ++n) config.custom_mask.push_back((n * 7 + 3) % 5 == 0);
        for (int j = 0; j < Tk; ++j) config.custom_mask[4 * Tk + j] = 1;  // a fully masked row
    }
    if (c.pad) {
        config.padding.assign(Tk, 0);
        config.padding[1] = config.padding[Tk - 1] = 1;
    }
    const ref64::Forward f = ref64::forward(config);
    for (auto implementation : {attn::Implementation::Reference, attn::Implementation::Simd}) {
        INFO((implementation == attn::Implementation::Simd ? "SIMD" : "reference"));
        attn::Result r;
        REQUIRE(attn::compute(config, r, implementation).empty());
        require_matches_float64(r, f);
        for (int h = 0; h < r.NH; ++h) {
            INFO("head " << h);
            CHECK(ref64::worst(r.heads[h].row_max, f.heads[h].row_max) <= 1.0);
            CHECK(ref64::worst(r.heads[h].row_sum, f.heads[h].row_sum) <= 1.0);
            CHECK(ref64::worst(r.heads[h].entropy, f.heads[h].entropy) <= 1.0);
        }
        for (int i = 0; i < r.T; ++i)
            for (int j = 0; j < r.Tk; ++j) CHECK((r.mask(i, j) == 1.0f) == bool(f.mask[i][j]));
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
