#include "alibi.hpp"

#include <cmath>

namespace attn {
namespace {

// 2^(−8h/n) for h = 1 … n: computed in double and rounded once.
std::vector<double> power_of_two_slopes(int n) {
    std::vector<double> slopes(n);
    for (int h = 1; h <= n; ++h) slopes[h - 1] = std::pow(2.0, -8.0 * h / n);
    return slopes;
}

}  // namespace

std::vector<float> alibi_slopes(int NH) {
    int closest = 1;  // the largest power of two ≤ NH
    while (closest * 2 <= NH) closest *= 2;
    std::vector<double> slopes = power_of_two_slopes(closest);
    const std::vector<double> doubled = power_of_two_slopes(2 * closest);
    for (int k = 0; static_cast<int>(slopes.size()) < NH; k += 2) slopes.push_back(doubled[k]);
    return std::vector<float>(slopes.begin(), slopes.end());
}

}  // namespace attn
