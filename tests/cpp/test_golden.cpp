// The course's worked example, reproduced to three decimals by both implementations. The
// comments walk through the arithmetic the way the lesson does.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "attention.hpp"
#include "worked_example.hpp"

using Catch::Matchers::WithinAbs;

namespace {

// Three decimals, as printed on the page and in the course: |got − expected| < 0.0005.
void require_row(const attn::Matrix& m, int row, std::initializer_list<double> expected) {
    int col = 0;
    for (double want : expected) {
        INFO("row " << row + 1 << ", column " << col + 1);
        REQUIRE_THAT(m(row, col), WithinAbs(want, 0.0005));
        ++col;
    }
}

}  // namespace

TEST_CASE("the worked example 'Your journey starts with one step' reproduces to 3 decimals",
          "[golden]") {
    auto implementation = GENERATE(attn::Implementation::Reference, attn::Implementation::Simd);
    attn::Result r;
    REQUIRE(attn::compute(worked_example_config(), r, implementation).empty());
    const attn::HeadResult& head = r.heads.at(0);

    // With identity weights Q = K = V = X: the projections change nothing.
    CHECK(r.q.data == r.x.data);
    CHECK(r.k.data == r.x.data);
    CHECK(r.v.data == r.x.data);

    // Scores, row 1: s_1j = x¹·xʲ / √3. For example
    //   s_12 = (0.43·0.55 + 0.15·0.87 + 0.66·0.89) / √3 = 0.954 / 1.732 ≈ 0.551.
    require_row(head.scores, 0, {0.577, 0.551, 0.544, 0.274, 0.264, 0.364});
    // and s_21 = (0.55·0.43 + 0.87·0.15 + 0.66·0.89) / √3 ≈ 0.551 (the matrix is symmetric),
    //     s_22 = x²·x² / √3 ≈ 0.863: "journey" matches itself best.
    CHECK_THAT(head.scores(1, 1), WithinAbs(0.863, 0.0005));

    // The causal mask hides the future: above the diagonal the masked scores are −∞.
    const float minus_infinity = -std::numeric_limits<float>::infinity();
    CHECK(head.masked(0, 1) == minus_infinity);
    CHECK(head.masked(1, 2) == minus_infinity);
    CHECK(head.masked(1, 1) == head.scores(1, 1));

    // Weights, row 2: softmax over [0.551, 0.863]:
    //   a_21 = e^(0.551−0.863) / (e^(0.551−0.863) + e^0) = 0.732 / 1.732 ≈ 0.423, a_22 ≈ 0.577,
    //   and exactly 0 for the four future tokens.
    require_row(head.weights, 1, {0.423, 0.577, 0, 0, 0, 0});
    for (int j = 2; j < 6; ++j) CHECK(head.weights(1, j) == 0.0f);
    // Row 6 sees every token.
    require_row(head.weights, 5, {0.151, 0.197, 0.194, 0.153, 0.124, 0.181});

    // Context row 2: o_2 = 0.423·x¹ + 0.577·x² ≈ (0.499, 0.566, 0.757).
    require_row(head.context, 1, {0.499, 0.566, 0.757});
    require_row(head.context, 5, {0.422, 0.623, 0.551});

    // Row 1 sees only itself, with weight 1, so its output equals its input exactly.
    CHECK(head.weights(0, 0) == 1.0f);
    for (int c = 0; c < 3; ++c) CHECK(r.output(0, c) == r.x(0, c));

    // W_O = I₃ and one head: output = concat = context.
    CHECK(r.output.data == head.context.data);
    CHECK(r.concat.data == head.context.data);
}
