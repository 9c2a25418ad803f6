// How a loaded model stores its weights, and the products over them.
//
// A matrix used as a product's right-hand side (W in y = x·W: every projection, and the
// unembedding) is stored, in its file's type, already in the layout the core's micro-kernel reads
// (packing.hpp): panels of kPanelInputs inputs, each cut into strips of S outputs, a strip's
// inputs one after another, S values each:
//
//   input k, output j  →  k0·Npad + s·kp·S + (k − k0)·S + (j mod S)
//   (k0 = k rounded down to the panel, kp the panel's inputs, s = ⌊j/S⌋, Npad = N rounded up to S)
//
// so that a product reads every weight once, in order, with no copy: float32 strips are the
// kernel's operand as they are; float16 and bfloat16 strips are turned into float32 a panel at a
// time (a model in 16 bits stays in 16 bits). Other tensors (vectors, GPT-2's wpe, an untied
// embedding) keep the file's row-major order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model.hpp"

namespace attn::model {

// Inputs per panel: a panel of the strips in float32 stays in L2 while a block of rows passes it.
inline constexpr int kPanelInputs = 256;

// The product's inner and outer sizes for a matrix tensor: K inputs, N outputs.
int inputs_of(const Tensor& w);
int outputs_of(const Tensor& w);

// Elements the tensor's storage holds (padded to whole strips for products).
std::size_t stored_elements(const Tensor& t);

// Values [first, first + n) of the tensor in its file's row-major order, as float32.
void load_values(const Tensor& t, std::size_t first, int n, float* out);

// Writes n values, from `bytes` (the file's little-endian bytes of elements [first, first + n) in
// its order), into the tensor's storage. Returns the file index of the first value that is ∞ or
// NaN (and then writes none of the n values), or first + n.
std::size_t write_values(Tensor& t, std::size_t first, std::size_t n, const std::uint8_t* bytes);

// out (M, N) = a (M, K) · W, with row strides lda and ldo; `scratch` holds a panel turned into
// float32 (16-bit weights only), sized here once.
void weight_product(const float* a, int lda, int M, const Tensor& w, float* out, int ldo, std::vector<float>& scratch);

}  // namespace attn::model
