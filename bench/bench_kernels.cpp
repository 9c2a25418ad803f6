// How far our causal attention forward is from what this build could possibly do: the forward-only
// path timed side by side with each of its kernels alone and with the machine's multiply-add
// ceiling. `npm run bench` runs it in WebAssembly under Node (build/wasm/bench_kernels.cjs) and
// multiplies its ratios by "ours ÷ fastest peer" (bench/compare.mjs), so that a target out of
// reach shows as such, with figures. Figures only; it never passes or fails.
//
//   bench_kernels [samples] [T,C,NH ...]     e.g. node --no-experimental-fetch build/wasm/bench_kernels.cjs 7 256,256,8
//
// Per size, one JSON line with milliseconds (medians of round-robin samples, so that machine noise
// hits all alike, as in compare.mjs):
//   forwardMs    attn::compute_output_only, causal (what compare.mjs times as "forward-only");
//   projectionsMs  the four products X·W_Q, X·W_K, X·W_V, concat·W_O alone (gemm_auto, as called);
//   attentionMs  Q·Kᵀ and P·V for exactly the causal (query, key) pairs, at the speed of the
//                forward's tile products (16 queries × 128 keys, K and V of T keys);
//   expMs        one exp per causal pair (exp_shifted<true> on rows of 128);
//   floorMs      projections + attention + exp: the forward with nothing but its kernels at full
//                speed (no softmax bookkeeping, no input copies or checks);
//   ceilingMs    the forward's FLOPs (causal pairs only) at the rate of a loop of independent
//                4-lane multiplies and adds with no memory access (ceilingGflops), plus the exps:
//                what no kernel of this build can beat.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "attention.hpp"
#include "packing.hpp"
#include "simd_packed_gemm.hpp"

namespace {

using attn::simd::batch;
using Clock = std::chrono::steady_clock;
using Run = std::function<void()>;

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// A timed thing: `run` is a std::function so that its body stays a function of its own — V8
// swaps optimised code in at a function's next call, never inside a running loop, so a body
// inlined into a timing loop would be timed as baseline code.
struct Contender {
    Run run;
    int reps = 1;
    std::vector<double> ms;
    double median() {
        std::sort(ms.begin(), ms.end());
        return ms[ms.size() / 2];
    }
};

// Warm-up (calls for 300 ms: V8 compiles WebAssembly with a baseline compiler first and
// optimises hot functions in the background), then `samples` rounds, one sample of each
// contender per round; a sample is `reps` calls lasting about 20 ms.
void measure_round_robin(std::vector<Contender*> contenders, int samples) {
    for (Contender* c : contenders) {
        int calls = 0;
        const auto start = Clock::now();
        for (; ms_since(start) < 300.0; ++calls) c->run();
        c->reps = std::max(1, calls / 15);
    }
    for (int s = 0; s < samples; ++s) {
        for (Contender* c : contenders) {
            const auto start = Clock::now();
            for (int r = 0; r < c->reps; ++r) c->run();
            c->ms.push_back(ms_since(start) / c->reps);
        }
    }
}

// Deterministic, finite inputs: the values do not change the speed of these kernels.
std::vector<float> filled(std::size_t n, float scale) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(int(i * 7919 % 201) - 100) / 100.0f;
    return v;
}

float g_sink = 0;  // results folded in here, so that no timed work is optimised away

// Twelve independent multiply-add chains in locals (an array of them would be kept in memory),
// from inputs the compiler cannot see through: 96 FLOPs per step with W = 4. Twelve chains cover
// the latency of a multiply followed by an add (3 + 3 cycles) at two of each per cycle.
constexpr int kCeilingSteps = 1 << 14, kChains = 12;
constexpr double kCeilingFlops = 2.0 * attn::simd::W * kChains * kCeilingSteps;
void ceiling_loop() {
    static volatile float seed = 0.999f;
    const batch m(seed), a(seed * 1e-3f);
    batch c0 = a, c1 = a, c2 = a, c3 = a, c4 = a, c5 = a, c6 = a, c7 = a, c8 = a, c9 = a, c10 = a, c11 = a;
    for (int s = 0; s < kCeilingSteps; ++s) {
        c0 = c0 * m + a;
        c1 = c1 * m + a;
        c2 = c2 * m + a;
        c3 = c3 * m + a;
        c4 = c4 * m + a;
        c5 = c5 * m + a;
        c6 = c6 * m + a;
        c7 = c7 * m + a;
        c8 = c8 * m + a;
        c9 = c9 * m + a;
        c10 = c10 * m + a;
        c11 = c11 * m + a;
    }
    g_sink += xsimd::hadd(c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8 + c9 + c10 + c11);
}

constexpr int kRows = 16, kTile = 128, kExpRow = 128;  // the forward-only path's block and tile

void measure_size(int T, int C, int NH, int samples) {
    constexpr int S = attn::simd::kStrip;
    const int HS = C / NH;

    const std::vector<float> x = filled(std::size_t(T) * C, 1.0f), w = filled(std::size_t(C) * C, 0.05f);
    // Given X and weights, as compare.mjs gives them: no embedding or weight generation timed.
    const auto matrix = [](int rows, int cols, const std::vector<float>& data) {
        attn::Matrix m;
        m.resize(rows, cols);
        m.data = data;
        return m;
    };
    attn::Config config;
    config.tokens.assign(T, "");
    config.C = C;
    config.NH = NH;
    config.has_embeddings = true;
    config.embeddings = matrix(T, C, x);
    config.weights = attn::WeightsKind::Explicit;
    config.wq = config.wk = config.wv = config.wo = matrix(C, C, w);
    config.mask = attn::MaskKind::Causal;
    attn::OutputOnlyResult result;
    std::vector<float> product(std::size_t(T) * C);
    // Tile products over a whole K (or V) of T keys, one block of kRows queries.
    const std::vector<float> q = filled(std::size_t(kRows) * HS, 0.1f), kv = filled(std::size_t(T) * HS, 0.1f);
    const std::vector<float> p = filled(std::size_t(kRows) * kTile, 0.01f);
    std::vector<float> k_packed(attn::packed_size<S>(HS, T)), v_packed(attn::packed_size<S>(T, HS));
    attn::pack_transposed_strips<S>(kv.data(), HS, T, HS, k_packed.data());
    attn::pack_strips<S>(kv.data(), HS, T, HS, v_packed.data(), std::size_t(T) * S);
    std::vector<float> tile(std::size_t(kRows) * kTile), o(std::size_t(kRows) * HS);
    const std::vector<float> logits = filled(kExpRow, 8.0f);
    const float logits_max = *std::max_element(logits.begin(), logits.end());
    std::vector<float> exps(kExpRow);

    Contender forward{[&] { attn::compute_output_only(config, {}, result); }};
    Contender gemm{[&] { attn::simd::gemm_auto(x.data(), C, w.data(), C, product.data(), C, T, C, C); }};
    Contender qk{[&] {
        for (int j0 = 0; j0 < T; j0 += kTile) {
            attn::simd::gemm_packed(q.data(), HS, k_packed.data() + (j0 / S) * std::size_t(HS) * S, std::size_t(HS) * S,
                                    tile.data(), kTile, kRows, HS, std::min(kTile, T - j0));
        }
    }};
    Contender pv{[&] {
        for (int j0 = 0; j0 < T; j0 += kTile) {
            attn::simd::gemm_packed<true>(p.data(), kTile, v_packed.data() + std::size_t(j0) * S, std::size_t(T) * S,
                                          o.data(), HS, kRows, std::min(kTile, T - j0), HS);
        }
    }};
    Contender exp_row{[&] { g_sink += attn::simd::exp_shifted<true>(logits.data(), logits_max, exps.data(), kExpRow); }};
    Contender ceiling{ceiling_loop};
    const std::string problem = attn::compute_output_only(config, {}, result);
    if (!problem.empty()) {
        std::fprintf(stderr, "bench_kernels: the forward refused its inputs: %s\n", problem.c_str());
        std::exit(1);
    }
    measure_round_robin({&forward, &gemm, &qk, &pv, &exp_row, &ceiling}, samples);

    const double causal = NH * (double(T) * (T + 1) / 2);  // (query, key) pairs with key ≤ query
    const double tile_flops = 2.0 * kRows * HS * T;        // of one qk or pv call above
    const double projections = 4 * gemm.median();
    const double attention = 2.0 * HS * causal * (qk.median() + pv.median()) / tile_flops;
    const double exp_ms = causal * exp_row.median() / kExpRow;
    const double ceiling_gflops = kCeilingFlops / (ceiling.median() * 1e6);
    const double flops = 8.0 * T * C * C + 4.0 * HS * causal;
    std::printf(
        "{\"T\":%d,\"C\":%d,\"NH\":%d,\"forwardMs\":%.4f,\"projectionsMs\":%.4f,\"attentionMs\":%.4f,"
        "\"expMs\":%.4f,\"floorMs\":%.4f,\"ceilingGflops\":%.2f,\"ceilingMs\":%.4f}\n",
        T, C, NH, forward.median(), projections, attention, exp_ms, projections + attention + exp_ms,
        ceiling_gflops, flops / (ceiling_gflops * 1e6) + exp_ms);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const int samples = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    std::vector<std::array<int, 3>> sizes;
    for (int a = 2; a < argc; ++a) {
        std::array<int, 3> s{};
        if (std::sscanf(argv[a], "%d,%d,%d", &s[0], &s[1], &s[2]) == 3 && s[2] > 0 && s[1] % s[2] == 0) sizes.push_back(s);
    }
    if (sizes.empty()) sizes = {{256, 256, 8}, {1024, 512, 8}, {2048, 768, 12}};
    for (const auto& [T, C, NH] : sizes) measure_size(T, C, NH, samples);
    if (g_sink == 12345.0f) std::printf("#\n");
    return 0;
}
