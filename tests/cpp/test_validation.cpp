// Every bad input is refused before any computation, with a message that names the problem, and
// leaves the previous result untouched.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "attention.hpp"
#include "weights.hpp"
#include "worked_example.hpp"

using Catch::Matchers::Contains;

namespace {

std::string problem_with(const attn::Config& config) {
    return attn::validate(config);
}

}  // namespace

TEST_CASE("the worked example is valid", "[validation]") {
    CHECK(problem_with(worked_example_config()).empty());
}

TEST_CASE("bad inputs are named", "[validation]") {
    attn::Config c = worked_example_config();

    SECTION("no tokens") {
        c.tokens.clear();
        CHECK_THAT(problem_with(c), Contains("no tokens"));
    }
    SECTION("too many tokens") {
        c.has_embeddings = false;
        c.tokens.assign(attn::kMaxTokens + 1, "a");
        CHECK_THAT(problem_with(c), Contains("too many tokens: 1025"));
        c.tokens.assign(attn::kMaxTokens, "a");
        CHECK(problem_with(c).empty());
    }
    SECTION("d_model out of range") {
        c.has_embeddings = false;
        c.C = 0;
        CHECK_THAT(problem_with(c), Contains("dModel must be between 1 and"));
        c.C = attn::kMaxModelWidth + 1;
        CHECK_THAT(problem_with(c), Contains("dModel must be between 1 and"));
    }
    SECTION("heads out of range") {
        c.NH = 0;
        CHECK_THAT(problem_with(c), Contains("heads must be between 1 and dModel"));
        c.NH = 4;
        CHECK_THAT(problem_with(c), Contains("heads must be between 1 and dModel"));
    }
    SECTION("heads that do not divide d_model") {
        c.has_embeddings = false;
        c.C = 6;
        c.NH = 4;
        CHECK(problem_with(c) == "heads (4) must divide dModel (6)");
    }
    SECTION("embeddings of the wrong shape") {
        c.embeddings.resize(5, 3);
        CHECK_THAT(problem_with(c), Contains("embeddings must be 6\u00d73"));
        CHECK_THAT(problem_with(c), Contains("got 5\u00d73"));
    }
    SECTION("a NaN or infinite embedding") {
        c.embeddings(2, 1) = std::numeric_limits<float>::quiet_NaN();
        CHECK(problem_with(c) == "embeddings[2][1] is not a finite number");
        c.embeddings(2, 1) = std::numeric_limits<float>::infinity();
        CHECK(problem_with(c) == "embeddings[2][1] is not a finite number");
    }
    SECTION("an entry too large to compute with safely") {
        c.embeddings(0, 0) = 1e7f;
        CHECK_THAT(problem_with(c), Contains("embeddings[0][0]") && Contains("too large"));
    }
    SECTION("explicit weights of the wrong shape or with NaN") {
        c.weights = attn::WeightsKind::Explicit;
        c.wq = c.wk = c.wv = c.wo = attn::identity(3);
        CHECK(problem_with(c).empty());
        c.wk = attn::identity(2);
        CHECK_THAT(problem_with(c), Contains("wk must be 3\u00d73"));
        c.wk = attn::identity(3);
        c.wo(1, 2) = std::nanf("");
        CHECK(problem_with(c) == "wo[1][2] is not a finite number");
    }
}

TEST_CASE("a refused input leaves the previous result as it was", "[validation]") {
    attn::Result r;
    REQUIRE(attn::compute(worked_example_config(), r).empty());
    const std::vector<float> before = r.output.data;

    attn::Config bad = worked_example_config();
    bad.NH = 2;
    CHECK_FALSE(attn::compute(bad, r).empty());
    CHECK(r.output.data == before);
    CHECK(r.T == 6);

    // ...and the next good call works.
    REQUIRE(attn::compute(worked_example_config(), r).empty());
    CHECK(r.output.data == before);
}
