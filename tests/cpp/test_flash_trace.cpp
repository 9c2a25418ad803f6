// The FlashAttention trace: the forward-only path run with the caller's Br × Bc tiles, every step
// recorded. Replaying the recorded steps gives the output; every running (m, ℓ) is what float64
// gives for the keys seen so far; exactly the tiles a −∞ mask hides entirely (causal, window,
// padding, custom cells) are listed as skipped. In cross-attention the keys are the source's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "attention.hpp"
#include "reference64.hpp"
#include "worked_example.hpp"

namespace {

attn::Config sized(int T, int C, int NH, int KVH = 0) {
    attn::Config c;
    for (int t = 0; t < T; ++t) c.tokens.push_back("f" + std::to_string(t));
    c.C = C;
    c.NH = NH;
    c.KVH = KVH;
    c.seed = 21;
    return c;
}

struct Tile {
    int head, row0, rows, key0, keys;
    bool skipped;
};

std::vector<Tile> tiles_of(const attn::FlashTrace& t) {
    std::vector<Tile> tiles;
    for (int n = 0; n < t.tiles.rows; ++n) {
        const float* r = t.tiles.row(n);
        tiles.push_back({int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), r[5] != 0.0f});
    }
    return tiles;
}

bool all_masked(const ref64::Forward& f, const Tile& tile) {
    for (int a = 0; a < tile.rows; ++a)
        for (int b = 0; b < tile.keys; ++b)
            if (!f.mask[tile.row0 + a][tile.key0 + b]) return false;
    return true;
}

// Every head's tiles cover the T × Tk grid once, each tile inside it.
void check_grid(const attn::FlashTrace& trace) {
    std::vector<int> seen(std::size_t(trace.NH) * trace.T * trace.Tk);
    for (const Tile& tile : tiles_of(trace)) {
        REQUIRE(tile.row0 + tile.rows <= trace.T);
        REQUIRE(tile.key0 + tile.keys <= trace.Tk);
        for (int a = 0; a < tile.rows; ++a)
            for (int b = 0; b < tile.keys; ++b)
                seen[(std::size_t(tile.head) * trace.T + tile.row0 + a) * trace.Tk + tile.key0 + b] += 1;
    }
    CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

// Replays the trace: for every tile, o ← rescale·o + Σ_j e^(z − m)·v_j from the recorded logits,
// max and rescale, checked against the recorded partial output; (m, ℓ) against float64 over the
// keys seen so far; at the end o/ℓ against the head's output. V comes from the full path.
void replay(const attn::Config& c, const attn::FlashTrace& trace) {
    attn::Result full;
    REQUIRE(attn::compute(c, full).empty());
    const ref64::Forward f = ref64::forward(c);
    const int T = trace.T, HS = trace.HS;
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(trace.Tk == full.Tk);
    check_grid(trace);
    std::size_t at_logit = 0, at_row = 0, at_partial = 0;
    std::vector<std::vector<double>> o(T, std::vector<double>(HS));
    std::vector<double> l_last(T);  // ℓ after the last tile that row i met
    // At the end of a head, o/ℓ of every row is the head's output row (0 for a row that saw nothing).
    const auto check_head = [&](int h) {
        for (int i = 0; i < T; ++i)
            for (int e = 0; e < HS; ++e)
                CHECK(ref64::close(float(l_last[i] > 0 ? o[i][e] / l_last[i] : 0.0), f.heads[h].context[i][e]));
    };
    int current_head = -1;
    for (const Tile& tile : tiles_of(trace)) {
        if (tile.head != current_head) {
            if (current_head >= 0) check_head(current_head);
            current_head = tile.head;
            for (auto& row : o) std::fill(row.begin(), row.end(), 0.0);
            std::fill(l_last.begin(), l_last.end(), 0.0);
        }
        // Skipped exactly when a −∞ mask hides every pair of the tile (a finite fill still counts).
        CAPTURE(tile.head, tile.row0, tile.key0);
        CHECK(tile.skipped == (std::isinf(c.mask_fill) && all_masked(f, tile)));
        if (tile.skipped) continue;
        const attn::HeadResult& head = full.heads[tile.head];
        for (int a = 0; a < tile.rows; ++a) {
            const int i = tile.row0 + a;
            CAPTURE(tile.head, i, tile.key0);
            const float* z = trace.logits.data() + at_logit + std::size_t(a) * tile.keys;
            const float m = trace.max[at_row + a], l = trace.sum[at_row + a], rescale = trace.rescale[at_row + a];
            // float64: m and ℓ of the logits of keys [0, key0 + keys)
            const auto& logits = f.heads[tile.head].masked[i];
            double m64 = -inf, l64 = 0.0;
            for (int j = 0; j < tile.key0 + tile.keys; ++j) m64 = std::max(m64, logits[j] / c.temperature);
            if (c.naive_softmax) m64 = 0.0;  // the naive form never shifts
            if (m64 > -inf)
                for (int j = 0; j < tile.key0 + tile.keys; ++j) l64 += std::exp(logits[j] / c.temperature - m64);
            CHECK(ref64::close(m, m64));
            CHECK(ref64::close(l, l64));
            l_last[i] = l;
            for (int b = 0; b < tile.keys; ++b) CHECK(ref64::close(z[b], logits[tile.key0 + b] / c.temperature));
            // the step: o ← rescale·o + Σ e^(z − m)·v
            for (int e = 0; e < HS; ++e) {
                double sum = rescale * o[i][e];
                for (int b = 0; b < tile.keys; ++b) {
                    if (m > -std::numeric_limits<float>::infinity()) sum += std::exp(double(z[b]) - m) * head.v(tile.key0 + b, e);
                }
                o[i][e] = sum;
                CHECK(ref64::close(trace.partial[at_partial + std::size_t(a) * HS + e], sum));
            }
        }
        at_logit += std::size_t(tile.rows) * tile.keys;
        at_row += tile.rows;
        at_partial += std::size_t(tile.rows) * HS;
    }
    check_head(current_head);
    CHECK(at_logit == trace.logits.size());
    CHECK(at_partial == trace.partial.size());
    CHECK(ref64::worst(trace.output, f.output) <= 1.0);
    for (int h = 0; h < trace.NH; ++h) CHECK(ref64::worst(trace.context[h], f.heads[h].context) <= 1.0);
}

}  // namespace

TEST_CASE("the worked example in 2 x 2 tiles: nine tiles, three skipped", "[flash][golden]") {
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(worked_example_config(), 2, 2, trace).empty());
    const std::vector<Tile> tiles = tiles_of(trace);
    REQUIRE(tiles.size() == 9);
    // block of queries 0–1 meets keys 0–1, then 2–3 and 4–5, which the causal mask hides
    CHECK_FALSE(tiles[0].skipped);
    CHECK(tiles[1].skipped);
    CHECK(tiles[2].skipped);
    CHECK(std::count_if(tiles.begin(), tiles.end(), [](const Tile& t) { return t.skipped; }) == 3);
    // Row 2 ("journey") after its only tile: m = 0.863 (its own key), ℓ = 1 + e^(0.551 − 0.863)
    CHECK_THAT(trace.max[1], Catch::Matchers::WithinAbs(0.863, 5e-4));
    CHECK_THAT(trace.sum[1], Catch::Matchers::WithinAbs(1.732, 5e-3));
    CHECK_THAT(trace.output(1, 0), Catch::Matchers::WithinAbs(0.499, 5e-4));
    replay(worked_example_config(), trace);
}

TEST_CASE("replaying the trace gives the output, and every (m, l) matches float64", "[flash]") {
    const auto [T, C, NH, KVH] = GENERATE(table<int, int, int, int>(
        {{1, 4, 1, 0}, {7, 5, 5, 0}, {7, 3, 1, 0}, {20, 12, 3, 1}, {64, 16, 2, 0}}));
    const auto [Br, Bc] = GENERATE(table<int, int>({{1, 1}, {2, 3}, {4, 4}, {5, 2}, {16, 7}, {64, 64}}));
    const auto mask = GENERATE(attn::MaskKind::Causal, attn::MaskKind::None, attn::MaskKind::Window);
    CAPTURE(T, C, NH, KVH, Br, Bc);
    attn::Config c = sized(T, C, NH, KVH);
    c.mask = mask;
    c.window = 3;
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, Br, Bc, trace).empty());
    replay(c, trace);
    attn::OutputOnlyResult fast;  // the same output as the fast path's
    REQUIRE(attn::compute_output_only(c, {}, fast).empty());
    CHECK(ref64::worst(trace.output, ref64::from(fast.output)) <= 1.0);
}

TEST_CASE("the trace follows every option of the forward-only path", "[flash][rope][alibi]") {
    attn::Config c = sized(13, 10, 5);
    SECTION("RoPE and ALiBi") {
        c.positional = attn::Positional::Rope;
        c.alibi = true;
    }
    SECTION("temperature and a finite fill") {
        c.temperature = 0.5f;
        c.mask_fill = -1e9f;
    }
    SECTION("padding") {
        c.padding.assign(13, 0);
        c.padding[3] = c.padding[4] = 1;
    }
    SECTION("naive softmax") {
        c.naive_softmax = true;
    }
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, 3, 4, trace).empty());
    replay(c, trace);
}

namespace {

// Cross-attention: 7 target tokens ask, 5 source tokens answer.
attn::Config translation() {
    attn::Config c = sized(7, 6, 2);
    c.cross = true;
    for (int t = 0; t < 5; ++t) c.source_tokens.push_back("s" + std::to_string(t));
    c.mask = attn::MaskKind::None;
    return c;
}

// (T, Tk) custom mask, 1 = hidden: rows [i0, i1) × keys [j0, j1) hidden, the rest visible.
std::vector<std::uint8_t> hiding_block(int T, int Tk, int i0, int i1, int j0, int j1) {
    std::vector<std::uint8_t> mask(std::size_t(T) * Tk);
    for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j) mask[std::size_t(i) * Tk + j] = 1;
    return mask;
}

int skipped_count(const attn::FlashTrace& trace) {
    const std::vector<Tile> tiles = tiles_of(trace);
    return int(std::count_if(tiles.begin(), tiles.end(), [](const Tile& t) { return t.skipped; }));
}

}  // namespace

TEST_CASE("cross-attention traces T x T_source, the source's tokens on the key axis", "[flash][cross]") {
    const auto [Br, Bc] = GENERATE(table<int, int>({{1, 1}, {2, 2}, {3, 2}, {4, 4}, {7, 5}, {2, 3}, {64, 64}}));
    const auto mask = GENERATE(attn::MaskKind::None, attn::MaskKind::Causal, attn::MaskKind::Window);
    CAPTURE(Br, Bc);
    attn::Config c = translation();
    c.mask = mask;
    c.window = 2;
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, Br, Bc, trace).empty());
    CHECK(trace.T == 7);
    CHECK(trace.Tk == 5);
    replay(c, trace);
    attn::OutputOnlyResult fast;
    REQUIRE(attn::compute_output_only(c, {}, fast).empty());
    CHECK(ref64::worst(trace.output, ref64::from(fast.output)) <= 1.0);
}

TEST_CASE("tiles that padding hides entirely are skipped", "[flash][mask]") {
    SECTION("self-attention: keys 3 and 4 of 7 are padding, tiles of 2 keys from key 3") {
        attn::Config c = sized(7, 6, 2);
        c.mask = attn::MaskKind::None;
        c.padding = {0, 0, 0, 1, 1, 0, 0};
        attn::FlashTrace trace;
        // Bc = 3 cuts keys 0–2, 3–5, 6: no tile is all padding
        REQUIRE(attn::trace_output_only(c, 3, 3, trace).empty());
        CHECK(skipped_count(trace) == 0);
        replay(c, trace);
        // Bc = 1: keys 3 and 4 are tiles of their own, hidden from all three blocks of each head
        REQUIRE(attn::trace_output_only(c, 3, 1, trace).empty());
        CHECK(skipped_count(trace) == 2 * 3 * 2);
        replay(c, trace);
    }
    SECTION("cross-attention: the last three of five source tokens are padding") {
        attn::Config c = translation();
        c.padding = {0, 0, 1, 1, 1};
        const auto mask = GENERATE(attn::MaskKind::None, attn::MaskKind::Causal);
        c.mask = mask;
        attn::FlashTrace trace;
        REQUIRE(attn::trace_output_only(c, 3, 2, trace).empty());
        for (const Tile& tile : tiles_of(trace))
            if (tile.key0 >= 2) CHECK(tile.skipped);
        replay(c, trace);
    }
}

TEST_CASE("a tile a custom mask hides entirely is skipped, a finite fill computes it", "[flash][mask]") {
    attn::Config c = sized(7, 6, 2);
    c.mask = attn::MaskKind::Custom;
    c.custom_mask = hiding_block(7, 7, 0, 4, 3, 6);  // queries 1–4 see none of keys 4–6
    c.custom_mask[std::size_t(5) * 7 + 1] = 1;       // and one pair elsewhere
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, 4, 3, trace).empty());
    const std::vector<Tile> tiles = tiles_of(trace);
    REQUIRE(tiles.size() == 2 * 2 * 3);
    CHECK(tiles[1].skipped);  // queries 0–3 × keys 3–5
    CHECK(skipped_count(trace) == 2);
    replay(c, trace);
    c.mask_fill = -1e9f;  // a hidden key then has weight 0 only beside a visible one: no skipping
    REQUIRE(attn::trace_output_only(c, 4, 3, trace).empty());
    CHECK(skipped_count(trace) == 0);
    replay(c, trace);
}

TEST_CASE("a row that sees no key gives zeros, its tiles skipped where it is alone", "[flash][mask]") {
    attn::Config c = translation();
    c.mask = attn::MaskKind::Custom;
    c.custom_mask = hiding_block(7, 5, 3, 4, 0, 5);  // target token 4 sees no source token
    const int Br = GENERATE(1, 2, 7);
    CAPTURE(Br);
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, Br, 2, trace).empty());
    CHECK(skipped_count(trace) == (Br == 1 ? 2 * 3 : 0));
    for (int h = 0; h < trace.NH; ++h)
        for (int e = 0; e < trace.HS; ++e) CHECK(trace.context[h](3, e) == 0.0f);
    replay(c, trace);
}

TEST_CASE("the trace refuses long inputs and impossible tiles", "[flash][validation]") {
    attn::FlashTrace trace;
    CHECK(attn::trace_output_only(sized(65, 4, 1), 2, 2, trace).find("the FlashAttention trace takes at most 64 tokens (got 65)") == 0);
    CHECK(attn::trace_output_only(sized(6, 4, 1), 0, 2, trace) == "blockRows must be a whole number between 1 and 64 (got 0)");
    CHECK(attn::trace_output_only(sized(6, 4, 1), 2, 65, trace) == "blockKeys must be a whole number between 1 and 64 (got 65)");
}
