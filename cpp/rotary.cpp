// RoPE: the table of angles and the rotation, shared by every forward implementation so that the
// full path, the forward-only path and the incremental decode rotate to the same bits.
#include "rotary.hpp"

#include <cmath>

namespace attn {

RotaryTable rotary_table(int T, int HS, int offset) {
    const int pairs = HS / 2;
    RotaryTable table{Matrix(T, pairs), Matrix(T, pairs), Matrix(T, pairs)};
    for (int t = 0; t < T; ++t) {
        for (int p = 0; p < pairs; ++p) {
            // (angles in double: at an offset of 10⁶ a float angle would be off by a tenth of a turn)
            const double angle = (double(offset) + t) * std::pow(10000.0, -2.0 * p / HS);
            table.angle(t, p) = static_cast<float>(angle);
            table.cos(t, p) = static_cast<float>(std::cos(angle));
            table.sin(t, p) = static_cast<float>(std::sin(angle));
        }
    }
    return table;
}

void rotate_rows(float* data, int rows, int stride, int HS, const RotaryTable& table, int first) {
    const int pairs = HS / 2;
    for (int t = 0; t < rows; ++t) {
        float* r = data + std::size_t(t) * stride;
        const float* c = table.cos.row(first + t);
        const float* s = table.sin.row(first + t);
        for (int p = 0; p < pairs; ++p) {
            const float x = r[2 * p], y = r[2 * p + 1];
            r[2 * p] = x * c[p] - y * s[p];
            r[2 * p + 1] = x * s[p] + y * c[p];
        }
    }
}

}  // namespace attn
