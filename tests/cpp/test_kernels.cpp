// The SIMD building blocks on their own: the vectorised exp against float64 over its whole range
// (overflow, underflow through denormals, ±∞, NaN), the row softmax (scalar and SIMD), and the packed and cache-blocked matrix
// products against a float64 product for shapes that cross strip, row-block and panel edges.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "row_softmax.hpp"
#include "simd_packed_gemm.hpp"

namespace {

using attn::simd::batch;
using attn::simd::W;

float exp_of(float x) {
    alignas(64) float lanes[W];
    attn::simd::exp_batch(batch(x)).store_aligned(lanes);
    return lanes[0];
}

std::vector<float> random_values(std::size_t n, std::uint32_t seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(gen);
    return v;
}

// out (M×N, leading dimension ldo) against Σ_k a(i,k)·b(k,j) in float64 (+ the initial out).
double worst_error(const std::vector<float>& a, int lda, const std::vector<float>& b, int ldb,
                   const std::vector<float>& before, const std::vector<float>& out, int ldo, int M,
                   int K, int N, bool accumulate) {
    double worst = 0.0;
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            double want = accumulate ? before[std::size_t(i) * ldo + j] : 0.0;
            for (int k = 0; k < K; ++k) want += double(a[std::size_t(i) * lda + k]) * b[std::size_t(k) * ldb + j];
            const double got = out[std::size_t(i) * ldo + j];
            worst = std::max(worst, std::fabs(got - want) / std::max(1.0, std::fabs(want)));
        }
    }
    return worst;
}

}  // namespace

TEST_CASE("the vectorised exp matches float64 to 2 ulp over the float32 range", "[kernels][softmax]") {
    double worst = 0.0;
    for (double x = -110.0; x <= 95.0; x += 0.0137) {
        const float xf = static_cast<float>(x);
        const double want = std::exp(double(xf));
        const float got = exp_of(xf);
        if (want > double(std::numeric_limits<float>::max())) {
            INFO("x = " << xf);
            REQUIRE(std::isinf(got));
        } else if (want >= double(std::numeric_limits<float>::min())) {
            worst = std::max(worst, std::fabs(got - want) / want);
        } else {  // denormal results: within a rounding step of the smallest denormal
            INFO("x = " << xf);
            REQUIRE(std::fabs(got - want) <= 1.5e-45);
        }
    }
    CHECK(worst <= 2.5e-7);
    CHECK(exp_of(0.0f) == 1.0f);
    CHECK(exp_of(-std::numeric_limits<float>::infinity()) == 0.0f);
    CHECK(std::isinf(exp_of(std::numeric_limits<float>::infinity())));
    CHECK(std::isnan(exp_of(std::numeric_limits<float>::quiet_NaN())));
    CHECK(std::isfinite(exp_of(88.72f)));  // e^88.72 ≈ 3.4e38 is still a float
    CHECK(std::isinf(exp_of(88.73f)));
    CHECK(exp_of(-103.0f) > 0.0f);  // a denormal, as std::exp gives
}

TEST_CASE("the softmax's exp (x <= 0) is as exact, and flushes only below float32's normals", "[kernels][softmax]") {
    double worst = 0.0;
    for (double x = -110.0; x <= 0.0; x += 0.0071) {
        const float xf = static_cast<float>(x);
        alignas(64) float lanes[W];
        attn::simd::exp_batch<true>(batch(xf), attn::simd::ExpConstants()).store_aligned(lanes);
        const double want = std::exp(double(xf));
        if (xf >= -87.0f) {
            worst = std::max(worst, std::fabs(lanes[0] - want) / want);
        } else {
            INFO("x = " << xf);
            REQUIRE(std::fabs(lanes[0] - want) <= 2e-38);
        }
    }
    CHECK(worst <= 2.5e-7);
    alignas(64) float lanes[W];
    attn::simd::exp_batch<true>(batch(-std::numeric_limits<float>::infinity()), attn::simd::ExpConstants()).store_aligned(lanes);
    CHECK(lanes[0] == 0.0f);
    attn::simd::exp_batch<true>(batch(std::numeric_limits<float>::quiet_NaN()), attn::simd::ExpConstants()).store_aligned(lanes);
    CHECK(std::isnan(lanes[0]));
}

TEST_CASE("exp_shifted sums what it writes, tails included", "[kernels][softmax]") {
    for (int n : {1, 3, W, W + 1, 4 * W + 3}) {
        std::vector<float> in = random_values(n, 7), out(n);
        for (float& x : in) x *= 20.0f;
        const float max = *std::max_element(in.begin(), in.end());
        for (bool below_max : {false, true}) {
            const float shift = below_max ? max : 5.0f;
            const float sum = below_max ? attn::simd::exp_shifted<true>(in.data(), shift, out.data(), n)
                                        : attn::simd::exp_shifted(in.data(), shift, out.data(), n);
            double want_sum = 0.0;
            for (int j = 0; j < n; ++j) {
                const double want = std::exp(double(in[j] - shift));  // the shift is done in float32
                CHECK(std::fabs(out[j] - want) <= 3e-7 * want);
                want_sum += want;
            }
            CHECK(std::fabs(sum - want_sum) <= 1e-6 * want_sum);
        }
    }
}

TEST_CASE("softmax_row, scalar and SIMD, matches float64 and gives masked keys and masked rows 0", "[kernels][softmax][mask]") {
    constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();
    for (int n : {1, 3, W, W + 1, 4 * W + 3, 37}) {
        std::vector<float> z = random_values(n, 11);
        for (float& x : z) x *= 20.0f;
        for (int j = 1; j < n; j += 3) z[j] = kMinusInfinity;  // every third key masked, never the first
        for (bool naive : {false, true}) {
            INFO("n = " << n << ", naive = " << naive);
            // float64: e^(z − shift) / Σ over the visible keys (the shift is done in float32)
            float max = kMinusInfinity;
            for (float x : z) max = std::max(max, x);
            const float shift = naive ? 0.0f : max;
            double sum = 0.0;
            for (float x : z) sum += std::exp(double(x - shift));
            for (bool simd : {false, true}) {
                std::vector<float> weights = z, exps(n);  // in place for the SIMD variant
                const attn::SoftmaxOptions options{.naive = naive, .exps = exps.data()};
                const attn::RowSoftmax got = simd ? attn::simd::softmax_row(weights.data(), weights.data(), n, options)
                                                  : attn::softmax_row(z.data(), weights.data(), n, options);
                CHECK(got.max == max);
                CHECK(std::fabs(got.sum - sum) <= 1e-6 * sum);
                for (int j = 0; j < n; ++j) {
                    const double e = std::exp(double(z[j] - shift));
                    CHECK(std::fabs(exps[j] - e) <= 3e-7 * e);
                    CHECK(std::fabs(weights[j] - e / sum) <= 1e-6);
                    if (z[j] == kMinusInfinity) CHECK(weights[j] == 0.0f);
                }
            }
        }
    }
    // Every key masked with −∞: zeros (not 0/0 = NaN), max −∞, sum 0.
    for (bool simd : {false, true}) {
        const std::vector<float> z(7, kMinusInfinity);
        std::vector<float> weights(7, 1.0f), exps(7, 1.0f);
        const attn::RowSoftmax got = simd ? attn::simd::softmax_row(z.data(), weights.data(), 7, {.exps = exps.data()})
                                          : attn::softmax_row(z.data(), weights.data(), 7, {.exps = exps.data()});
        CHECK(got.max == kMinusInfinity);
        CHECK(got.sum == 0.0f);
        CHECK(weights == std::vector<float>(7, 0.0f));
        CHECK(exps == std::vector<float>(7, 0.0f));
    }
}

TEST_CASE("packed, blocked and auto matrix products match float64 across edges", "[kernels][simd]") {
    struct Shape {
        int M, K, N;
    };
    // strips of 2W columns, row blocks of 64, panels of 256×256: odd sizes on both sides of each
    const Shape shapes[] = {
        {1, 1, 1},
        {3, 5, 7},
        {4, 8, 2 * W},
        {37, 29, 45},
        {65, 300, 270},
        {130, 257, 513},
        {64, 128, 128},
    };
    for (const Shape s : shapes) {
        for (bool accumulate : {false, true}) {
            INFO("M=" << s.M << " K=" << s.K << " N=" << s.N << " accumulate=" << accumulate);
            const int lda = s.K + 3, ldb = s.N + 5, ldo = s.N + 2;  // leading dimensions wider than the rows
            const auto a = random_values(std::size_t(s.M) * lda, 1);
            const auto b = random_values(std::size_t(s.K) * ldb, 2);
            const auto before = random_values(std::size_t(s.M) * ldo, 3);

            std::vector<float> packed(attn::packed_size<attn::simd::kStrip>(s.K, s.N));
            attn::pack_strips<attn::simd::kStrip>(b.data(), ldb, s.K, s.N, packed.data(),
                                                  std::size_t(s.K) * attn::simd::kStrip);
            auto out = before;
            if (accumulate) {
                attn::simd::gemm_packed<true>(a.data(), lda, packed.data(), std::size_t(s.K) * attn::simd::kStrip,
                                              out.data(), ldo, s.M, s.K, s.N);
            } else {
                attn::simd::gemm_packed<false>(a.data(), lda, packed.data(), std::size_t(s.K) * attn::simd::kStrip,
                                               out.data(), ldo, s.M, s.K, s.N);
            }
            CHECK(worst_error(a, lda, b, ldb, before, out, ldo, s.M, s.K, s.N, accumulate) <= 1e-5);

            out = before;
            std::vector<float> panel(attn::simd::kPanelFloats);
            if (accumulate) {
                attn::simd::gemm_blocked<true>(a.data(), lda, b.data(), ldb, out.data(), ldo, s.M, s.K, s.N, panel.data());
            } else {
                attn::simd::gemm_blocked<false>(a.data(), lda, b.data(), ldb, out.data(), ldo, s.M, s.K, s.N, panel.data());
            }
            CHECK(worst_error(a, lda, b, ldb, before, out, ldo, s.M, s.K, s.N, accumulate) <= 1e-5);

            out = before;
            if (accumulate) {
                attn::simd::gemm_auto<true>(a.data(), lda, b.data(), ldb, out.data(), ldo, s.M, s.K, s.N);
            } else {
                attn::simd::gemm_auto<false>(a.data(), lda, b.data(), ldb, out.data(), ldo, s.M, s.K, s.N);
            }
            CHECK(worst_error(a, lda, b, ldb, before, out, ldo, s.M, s.K, s.N, accumulate) <= 1e-5);
        }
    }
}

TEST_CASE("a transposed pack is the pack of the transpose", "[kernels]") {
    const int N = 19, K = 6;  // b is (N, K): think of K rows of a head's keys
    const auto b = random_values(std::size_t(N) * K, 4);
    std::vector<float> bt(std::size_t(K) * N);
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k) bt[std::size_t(k) * N + n] = b[std::size_t(n) * K + k];
    constexpr int S = attn::simd::kStrip;
    std::vector<float> direct(attn::packed_size<S>(K, N)), via_transpose(direct.size());
    attn::pack_transposed_strips<S>(b.data(), K, N, K, direct.data());
    attn::pack_strips<S>(bt.data(), N, K, N, via_transpose.data(), std::size_t(K) * S);
    CHECK(direct == via_transpose);
}
