// Native benchmark of the core, for comparison with the wasm builds that `npm run bench` measures.
// For each size it times the full forward pass (every intermediate kept, when within its token
// limit) and the forward-only path, and prints one JSON line per (size, mode): the median
// milliseconds over several samples after a warm-up. Figures only; it never passes or fails.
//
//   bench_native [samples] [T,C,NH ...]      e.g. bench_native 7 64,64,4 256,256,8
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "attention.hpp"

namespace {

double median_ms(int samples, const std::function<void()>& run) {
    run();  // warm-up, and sizes the result once
    std::vector<double> ms;
    for (int s = 0; s < samples; ++s) {
        const auto start = std::chrono::steady_clock::now();
        run();
        const auto stop = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int samples = argc > 1 ? std::stoi(argv[1]) : 7;
    std::vector<std::array<int, 3>> sizes;
    for (int a = 2; a < argc; ++a) {
        std::array<int, 3> s{};
        if (std::sscanf(argv[a], "%d,%d,%d", &s[0], &s[1], &s[2]) == 3) sizes.push_back(s);
    }
    if (sizes.empty()) sizes = {{6, 3, 1}, {64, 64, 4}, {256, 256, 8}, {1024, 512, 8}, {2048, 768, 12}};

    for (const auto& [T, C, NH] : sizes) {
        attn::Config config;
        for (int t = 0; t < T; ++t) config.tokens.push_back("tok" + std::to_string(t));
        config.C = C;
        config.NH = NH;
        config.seed = 1;
        attn::Result full;
        attn::OutputOnlyResult fast;
        const auto print = [&](const char* mode, double ms) {
            std::printf("{\"T\":%d,\"C\":%d,\"NH\":%d,\"mode\":\"%s\",\"medianMs\":%.4f,\"arch\":\"%s\"}\n",
                        T, C, NH, mode, ms, attn::simd_arch_name().c_str());
            std::fflush(stdout);
        };
        if (T <= attn::kMaxTokens) print("full", median_ms(samples, [&] { attn::compute(config, full); }));
        print("outputOnly", median_ms(samples, [&] { attn::compute_output_only(config, {}, fast); }));
    }
    return 0;
}
