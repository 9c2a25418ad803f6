// Native benchmark of the full forward pass (every intermediate kept), for comparison with the
// wasm builds printed by `npm run bench`. Prints one JSON line per size: median milliseconds
// over several samples after warm-up. Figures only; it never passes or fails.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "attention.hpp"

int main(int argc, char** argv) {
    const int samples = argc > 1 ? std::stoi(argv[1]) : 7;
    const int sizes[][3] = {{64, 64, 4}, {256, 256, 8}, {1024, 512, 8}};
    for (const auto& size : sizes) {
        attn::Config config;
        for (int t = 0; t < size[0]; ++t) config.tokens.push_back("tok" + std::to_string(t));
        config.C = size[1];
        config.NH = size[2];
        attn::Result result;
        attn::compute(config, result);  // warm-up (and sizes the result once)
        std::vector<double> ms;
        for (int s = 0; s < samples; ++s) {
            const auto start = std::chrono::steady_clock::now();
            attn::compute(config, result);
            const auto stop = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("{\"T\":%d,\"C\":%d,\"NH\":%d,\"medianMs\":%.4f,\"arch\":\"%s\"}\n", size[0],
                    size[1], size[2], ms[ms.size() / 2], attn::simd_arch_name().c_str());
    }
    return 0;
}
