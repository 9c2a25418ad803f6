// Biases of the projections (b_q, b_k, b_v, b_o), RoPE's rotate-half pairing and its base θ: what
// a head of a loaded model needs for compute() to reproduce it. Every path (reference, SIMD,
// forward-only, trace, decode) is checked against the float64 reference, on odd sizes.
#include <catch2/catch.hpp>

#include <cmath>

#include "attention.hpp"
#include "reference64.hpp"

namespace {

// A row of n values in about ±0.5 that differs from bias to bias (`salt`).
attn::Matrix bias_row(int n, int salt) {
    attn::Matrix b(1, n);
    for (int c = 0; c < n; ++c) b(0, c) = 0.5f * std::sin(1.7f * c + 0.9f * salt);
    return b;
}

attn::Config sized(int T, int C, int NH, int KVH) {
    attn::Config c;
    for (int t = 0; t < T; ++t) c.tokens.push_back("b" + std::to_string(t * 5 % 3));
    c.C = C;
    c.NH = NH;
    c.KVH = KVH;
    c.seed = 11;
    return c;
}

// Every bias given, RoPE with Hugging Face's pairing and a base of its own.
attn::Config loaded_head(int T, int C, int NH, int KVH) {
    attn::Config c = sized(T, C, NH, KVH);
    const int kv_width = KVH * (C / NH);
    c.bq = bias_row(C, 1);
    c.bk = bias_row(kv_width, 2);
    c.bv = bias_row(kv_width, 3);
    c.bo = bias_row(C, 4);
    c.positional = attn::Positional::Rope;
    c.rope_pairing = attn::RopePairing::Half;
    c.rope_theta = 1e6;
    return c;
}

// Columns [first, first + n) of a float64 matrix.
ref64::Mat columns(const ref64::Mat& m, int first, int n) {
    ref64::Mat out;
    for (const auto& row : m) out.emplace_back(row.begin() + first, row.begin() + first + n);
    return out;
}

}  // namespace

TEST_CASE("biases and rotate-half RoPE match the float64 reference", "[biases][rope]") {
    const auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    const auto [T, C, NH, KVH] = GENERATE(table<int, int, int, int>(
        {{1, 6, 3, 1}, {7, 6, 3, 1}, {7, 12, 3, 3}, {9, 24, 6, 2}, {33, 30, 3, 1}}));
    const int offset = GENERATE(0, 13);
    CAPTURE(T, C, NH, KVH, offset);
    attn::Config c = loaded_head(T, C, NH, KVH);
    c.position_offset = offset;
    attn::Result r;
    REQUIRE(attn::compute(c, r, implementation).empty());
    const ref64::Forward f = ref64::forward(c);
    CHECK(ref64::worst(r.v, f.v) <= 1.0);
    CHECK(ref64::worst(r.output, f.output) <= 1.0);
    for (int h = 0; h < NH; ++h) {
        CAPTURE(h);
        // each head's q and k are rotated: f.q and f.k hold the rotated columns
        const int HS = C / NH, g = h / (NH / KVH);
        CHECK(ref64::worst(r.heads[h].q, columns(f.q, h * HS, HS)) <= 1.0);
        CHECK(ref64::worst(r.heads[h].k, columns(f.k, g * HS, HS)) <= 1.0);
        CHECK(ref64::worst(r.heads[h].scores, f.heads[h].scores) <= 1.0);
        CHECK(ref64::worst(r.heads[h].weights, f.heads[h].weights) <= 1.0);
        CHECK(ref64::worst(r.heads[h].context, f.heads[h].context) <= 1.0);
    }
    // the biases used come back with the result
    CHECK(r.bq.data == c.bq->data);
    CHECK(r.bo.data == c.bo->data);
}

TEST_CASE("each bias is optional and adds to its own projection only", "[biases]") {
    attn::Config c = sized(5, 9, 3, 3);
    attn::Result plain, biased;
    REQUIRE(attn::compute(c, plain).empty());
    c.bv = bias_row(9, 7);
    REQUIRE(attn::compute(c, biased).empty());
    CHECK(biased.q.data == plain.q.data);
    CHECK(biased.k.data == plain.k.data);
    CHECK(biased.bq.data.empty());
    for (int t = 0; t < 5; ++t)
        for (int j = 0; j < 9; ++j) CHECK(biased.v(t, j) == Approx(plain.v(t, j) + c.bv->data[j]).margin(1e-6));
    CHECK(ref64::worst(biased.output, ref64::forward(c).output) <= 1.0);
}

TEST_CASE("rotate-half pairing is adjacent pairing with W_Q's and W_K's columns permuted", "[rope]") {
    // Head column 2p (adjacent pairing) plays the part of column p (halves), 2p + 1 that of
    // p + HS/2: the scores and weights are the same, the rotated q and k permuted the same way.
    const int T = 7, C = 12, NH = 3, KVH = 1, HS = C / NH;
    attn::Config half = sized(T, C, NH, KVH);
    half.positional = attn::Positional::Rope;
    half.rope_pairing = attn::RopePairing::Half;
    half.rope_theta = 500000.0;
    attn::Result by_halves;
    REQUIRE(attn::compute(half, by_halves).empty());

    attn::Config adjacent = half;
    adjacent.rope_pairing = attn::RopePairing::Adjacent;
    adjacent.weights = attn::WeightsKind::Explicit;
    const auto permuted = [&](const attn::Matrix& w) {
        attn::Matrix out(w.rows, w.cols);
        for (int r = 0; r < w.rows; ++r)
            for (int head = 0; head < w.cols / HS; ++head)
                for (int p = 0; p < HS / 2; ++p) {
                    out(r, head * HS + 2 * p) = w(r, head * HS + p);
                    out(r, head * HS + 2 * p + 1) = w(r, head * HS + p + HS / 2);
                }
        return out;
    };
    adjacent.wq = permuted(by_halves.wq);
    adjacent.wk = permuted(by_halves.wk);
    adjacent.wv = by_halves.wv;
    adjacent.wo = by_halves.wo;
    attn::Result by_pairs;
    REQUIRE(attn::compute(adjacent, by_pairs).empty());
    for (int h = 0; h < NH; ++h) {
        CHECK(ref64::worst(by_pairs.heads[h].weights, ref64::from(by_halves.heads[h].weights)) <= 1.0);
        CHECK(ref64::worst(permuted(by_halves.heads[h].q), ref64::from(by_pairs.heads[h].q)) <= 1.0);
    }
    CHECK(ref64::worst(by_pairs.output, ref64::from(by_halves.output)) <= 1.0);
}

TEST_CASE("the forward-only path, the trace and the decode add the biases and turn by halves too",
          "[biases][rope][output-only][decode]") {
    const auto [T, C, NH, KVH] = GENERATE(table<int, int, int, int>({{1, 6, 3, 1}, {7, 12, 3, 3}, {20, 24, 6, 2}}));
    CAPTURE(T, C, NH, KVH);
    const attn::Config c = loaded_head(T, C, NH, KVH);
    const ref64::Forward f = ref64::forward(c);
    attn::OutputOnlyResult only;
    REQUIRE(attn::compute_output_only(c, {0, T - 1}, only).empty());
    CHECK(ref64::worst(only.output, f.output) <= 1.0);
    for (int h = 0; h < NH; ++h) {
        for (int j = 0; j < T; ++j) {
            CHECK(ref64::close(only.row_weights[h](0, j), f.heads[h].weights[0][j]));
            CHECK(ref64::close(only.row_weights[h](1, j), f.heads[h].weights[T - 1][j]));
        }
    }
    attn::FlashTrace trace;
    REQUIRE(attn::trace_output_only(c, 2, 3, trace).empty());
    CHECK(ref64::worst(trace.output, f.output) <= 1.0);
    attn::DecodeResult d;
    REQUIRE(attn::decode_incremental(c, d).empty());
    CHECK(ref64::worst(d.output, f.output) <= 1.0);
    for (int h = 0; h < NH; ++h) CHECK(ref64::worst(d.weights[h], f.heads[h].weights) <= 1.0);
}

TEST_CASE("biases, the pairing and the base are validated", "[biases][rope][validation]") {
    attn::Config c = loaded_head(3, 12, 4, 2);  // d_k = 3, key/value width 6
    c.rope_pairing = attn::RopePairing::Adjacent;
    attn::Result r;
    REQUIRE(attn::compute(c, r).empty());
    const attn::Result before = r;

    attn::Config bad = c;
    bad.bk = bias_row(12, 0);
    CHECK(attn::compute(bad, r) == "biases.bk must be 6 numbers (kvHeads\u00b7dK), got 12");
    bad = c;
    bad.bo = attn::Matrix(2, 12);
    CHECK(attn::compute(bad, r) == "biases.bo must be 12 numbers (dModel), got a matrix of another shape");
    bad = c;
    bad.bq->data[5] = std::nanf("");
    CHECK(attn::compute(bad, r) == "biases.bq[5] is not a finite number");
    bad = c;
    bad.bv->data[1] = 2e6f;
    CHECK(attn::compute(bad, r) == "biases.bv[1] = 2000000 is too large (the limit is \u00b11000000)");
    bad = c;
    bad.rope_pairing = attn::RopePairing::Half;
    CHECK(attn::compute(bad, r) ==
          "ropePairing \"half\" turns dimension i with i + dK/2, so dK must be even (got dK = 3)");
    bad.positional = attn::Positional::None;  // without RoPE the pairing does not matter
    CHECK(attn::compute(bad, r).empty());
    r = before;
    for (const double theta : {1.0, 0.5, -3.0, 2e10, double(NAN)}) {
        CAPTURE(theta);
        bad = c;
        bad.rope_theta = theta;
        CHECK(attn::compute(bad, r).find("ropeTheta must be a number above 1 and at most 10000000000 (got ") == 0);
    }
    CHECK(r.output.data == before.output.data);  // refused calls left the result as it was
}
