// RoPE: the table of angles and the rotation, shared by every forward implementation so that the
// full path, the forward-only path, the incremental decode and the loaded models rotate to the
// same bits.
#include "rotary.hpp"

#include <cmath>

namespace attn {

RotaryTable rotary_table(int T, int HS, int offset, double base, RopePairing pairing) {
    const int pairs = HS / 2;
    RotaryTable table{Matrix(T, pairs), Matrix(T, pairs), Matrix(T, pairs), pairing};
    for (int t = 0; t < T; ++t) {
        for (int p = 0; p < pairs; ++p) {
            // (angles in double: at an offset of 10⁶ a float angle would be off by a tenth of a turn)
            const double angle = (double(offset) + t) * std::pow(base, -2.0 * p / HS);
            table.angle(t, p) = static_cast<float>(angle);
            table.cos(t, p) = static_cast<float>(std::cos(angle));
            table.sin(t, p) = static_cast<float>(std::sin(angle));
        }
    }
    return table;
}

void rotate_rows(float* data, int rows, int stride, int HS, const RotaryTable& table, int first) {
    const int pairs = HS / 2;
    // Pair p is (x, y) = (r[p·step], r[p·step + partner]): adjacent (2p, 2p+1) or halves (p, p + HS/2).
    const bool half = table.pairing == RopePairing::Half;
    const int step = half ? 1 : 2, partner = half ? pairs : 1;
    for (int t = 0; t < rows; ++t) {
        float* r = data + std::size_t(t) * stride;
        const float* c = table.cos.row(first + t);
        const float* s = table.sin.row(first + t);
        for (int p = 0; p < pairs; ++p) {
            float& x = r[p * step];
            float& y = r[p * step + partner];
            const float x0 = x, y0 = y;
            x = x0 * c[p] - y0 * s[p];
            y = x0 * s[p] + y0 * c[p];
        }
    }
}

}  // namespace attn
