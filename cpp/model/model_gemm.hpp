// Products with a stored weight tensor as the right-hand side: whatever its type (F32, F16, BF16)
// and layout ([in, out] or [out, in]), it is packed panel by panel into the float32 strips the
// core's micro-kernel reads (packing.hpp), converting 16-bit values on the way. The panel is the
// only float32 copy: a model in 16-bit stays in 16-bit.
#pragma once

#include <cstddef>
#include <vector>

#include "model/model.hpp"

namespace attn::model {

// n values of `t` from element `first` (row-major), as float32.
void load_values(const Tensor& t, std::size_t first, int n, float* out);

// The product's inner and outer sizes for a matrix tensor: K inputs, N outputs.
int inputs_of(const Tensor& w);
int outputs_of(const Tensor& w);

// out (M, N) = a (M, K) · W, with row strides lda and ldo; `panel` is scratch, sized here once.
void weight_product(const float* a, int lda, int M, const Tensor& w, float* out, int ldo, std::vector<float>& panel);

}  // namespace attn::model
