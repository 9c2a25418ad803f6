// Incremental decoding with a KV cache: each step computes only the new token's q, k, v and its
// row against the cache, and the rows equal the full causal computation's — for multi-head,
// grouped-query and multi-query attention, with RoPE and ALiBi too.
#include <catch2/catch.hpp>

#include <cmath>

#include "attention.hpp"
#include "reference64.hpp"

namespace {

attn::Config sized(int T, int C, int NH, int KVH = 0) {
    attn::Config c;
    for (int t = 0; t < T; ++t) c.tokens.push_back("d" + std::to_string(t % 4));
    c.C = C;
    c.NH = NH;
    c.KVH = KVH;
    c.seed = 8;
    return c;
}

}  // namespace

TEST_CASE("incremental rows equal the full causal rows (MHA, GQA, MQA)", "[decode][heads]") {
    const auto [T, C, NH, KVH] = GENERATE(table<int, int, int, int>({{1, 4, 1, 0}, {7, 5, 5, 0},  // multi-head
                                                                     {9, 12, 6, 2},
                                                                     {12, 24, 4, 2},  // grouped-query
                                                                     {7, 12, 3, 1},
                                                                     {30, 16, 4, 1}}));  // multi-query
    const auto positional = GENERATE(attn::Positional::None, attn::Positional::Sinusoidal, attn::Positional::Rope);
    const bool alibi = GENERATE(false, true);
    CAPTURE(T, C, NH, KVH, alibi);
    attn::Config c = sized(T, C, NH, KVH);
    c.positional = positional;
    c.alibi = alibi;
    attn::DecodeResult d;
    REQUIRE(attn::decode_incremental(c, d).empty());
    const ref64::Forward f = ref64::forward(c);
    CHECK(ref64::worst(d.output, f.output) <= 1.0);
    for (int h = 0; h < NH; ++h) CHECK(ref64::worst(d.weights[h], f.heads[h].weights) <= 1.0);
    for (int t = 0; t < T; ++t) CHECK(d.difference[t] <= 1e-5f);
    // the cache: K and V of every token (rotated keys with RoPE), KVH·d_k wide
    attn::Result full;
    REQUIRE(attn::compute(c, full).empty());
    CHECK(d.k_cache.cols == full.k.cols);
    CHECK(ref64::worst(d.v_cache, ref64::from(full.v)) <= 1.0);
    CHECK(d.cache_bytes_per_token == 2.0 * full.k.cols * 4);
}

TEST_CASE("the cache saves multiply-adds that grow with the step", "[decode]") {
    attn::Config c = sized(6, 8, 2, 1);  // d_k = 4, one key/value head: K and V are 6×4
    attn::DecodeResult d;
    REQUIRE(attn::decode_incremental(c, d).empty());
    const double projections = 2 * 8 * 8 + 2 * 8 * 4;  // q and the output, k and v
    CHECK(d.madds_cached[0] == d.madds_uncached[0]);   // the first step is the same either way
    CHECK(d.madds_cached[5] == projections + 2 * 2 * 4 * 6);
    CHECK(d.madds_uncached[5] == 6 * projections + 2 * 2 * 4 * 21);
    CHECK(d.cache_bytes_per_token == 2 * 4 * 4);
}

TEST_CASE("incremental decoding refuses what a KV cache cannot do", "[decode][validation]") {
    attn::DecodeResult d;
    attn::Config c = sized(4, 4, 2);
    c.mask = attn::MaskKind::None;
    CHECK(attn::decode_incremental(c, d).find("the incremental decode needs mask \"causal\" without padding") == 0);
    c = sized(4, 4, 2);
    c.padding = {0, 1, 0, 0};
    CHECK(attn::decode_incremental(c, d).find("the incremental decode needs mask \"causal\"") == 0);
    c = sized(4, 4, 2);
    c.mask_fill = -1e9f;
    CHECK(attn::decode_incremental(c, d).find("the incremental decode needs maskFill -Infinity") == 0);
    c = sized(4, 4, 2);
    c.cross = true;
    c.source_tokens = {"x"};
    CHECK(attn::decode_incremental(c, d) == "the incremental decode is self-attention only: leave out source");
    CHECK(attn::decode_incremental(sized(257, 4, 1), d) == "the incremental decode takes at most 256 tokens (got 257)");
}
