// A dense float32 matrix, row-major: element (r, c) lives at data[r * cols + c].
// The core keeps every intermediate of the attention computation in one of these so that a
// visualiser can show it; `resize` reuses capacity, so recomputing at the same size allocates
// nothing.
#pragma once

#include <cstddef>
#include <vector>

namespace attn {

struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<float> data;

    Matrix() = default;
    Matrix(int r, int c, float fill = 0.0f)
        : rows(r), cols(c), data(std::size_t(r) * c, fill) {}

    void resize(int r, int c) {
        rows = r;
        cols = c;
        data.resize(std::size_t(r) * c);
    }
    float* row(int r) { return data.data() + std::size_t(r) * cols; }
    const float* row(int r) const { return data.data() + std::size_t(r) * cols; }
    float& operator()(int r, int c) { return data[std::size_t(r) * cols + c]; }
    float operator()(int r, int c) const { return data[std::size_t(r) * cols + c]; }
};

}  // namespace attn
