// A loaded model's weights in the micro-kernel's strips (model_gemm.hpp), and the products.
#include "model/model_gemm.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/half_float.hpp"

#if ATTN_HAVE_SIMD
#include "simd_packed_gemm.hpp"
namespace kernels = attn::simd;
#else
#include "scalar_kernels.hpp"
namespace kernels = attn::scalar;
#endif

namespace attn::model {
namespace {

constexpr int S = kernels::kStrip;
// Outputs per block of a product: 256 outputs × kPanelInputs inputs of float32 (256 KiB) for 16-bit
// weights turned into float32.
constexpr int kBlockOutputs = 256;
static_assert(kBlockOutputs % S == 0 && (S & (S - 1)) == 0 && (kPanelInputs & (kPanelInputs - 1)) == 0);

int padded(int N) {
    return (N + S - 1) / S * S;
}

// Where input k, output j of a product tensor lives in its storage.
struct Strips {
    int K, N, Npad;
    explicit Strips(const Tensor& w)
        : K(inputs_of(w)), N(outputs_of(w)), Npad(padded(outputs_of(w))) {}
    std::size_t at(int k, int j) const {
        const int k0 = k & ~(kPanelInputs - 1), kp = std::min(kPanelInputs, K - k0);
        return std::size_t(k0) * Npad + std::size_t(j / S) * kp * S + std::size_t(k - k0) * S + j % S;
    }
};

float value_of(const Tensor& t, std::size_t i) {
    if (t.dtype == DType::F32 || t.bits.empty()) return t.f32[i];
    return t.dtype == DType::BF16 ? bf16_to_f32(t.bits[i]) : f16_to_f32(t.bits[i]);
}

template <typename Bits>
bool not_finite(DType d, Bits v) {
    if constexpr (sizeof(Bits) == 4) {
        return !std::isfinite(bits_to_float(v));
    } else {
        return d == DType::F16 ? f16_not_finite(v) : bf16_not_finite(v);
    }
}

// Writes elements [first, first + n) (file order) of values `from` into `to` (the storage), at
// the stored index `place(r, c)` of row r, column c of the file's matrix (rows × cols).
template <typename Bits, typename Place>
std::size_t scatter(DType d, const std::uint8_t* bytes, std::size_t first, std::size_t n, int cols, Bits* to, Place place) {
    int r = static_cast<int>(first / cols), c = static_cast<int>(first % cols);  // (one division, not one a value)
    for (std::size_t i = 0; i < n; ++i) {
        Bits v;
        std::memcpy(&v, bytes + i * sizeof(Bits), sizeof(Bits));
        if (not_finite(d, v)) return first + i;
        to[place(r, c)] = v;
        if (++c == cols) c = 0, ++r;
    }
    return first + n;
}

template <typename Bits>
std::size_t write_into(Tensor& t, Bits* storage, std::size_t first, std::size_t n, const std::uint8_t* bytes) {
    const int cols = t.cols();
    if (!t.product) return scatter<Bits>(t.dtype, bytes, first, n, cols, storage, [cols](int r, int c) { return std::size_t(r) * cols + c; });
    const Strips strips(t);
    if (t.layout == Layout::InOut) return scatter<Bits>(t.dtype, bytes, first, n, cols, storage, [&strips](int r, int c) { return strips.at(r, c); });
    return scatter<Bits>(t.dtype, bytes, first, n, cols, storage, [&strips](int r, int c) { return strips.at(c, r); });
}

// n float32 values from 16-bit ones (a whole block of strips at once: the loops vectorise).
void widen(DType d, const std::uint16_t* in, std::size_t n, float* out) {
    if (d == DType::BF16) {
        for (std::size_t i = 0; i < n; ++i) out[i] = bf16_to_f32(in[i]);
    } else {
        for (std::size_t i = 0; i < n; ++i) out[i] = f16_to_f32(in[i]);
    }
}

}  // namespace

int inputs_of(const Tensor& w) {
    return w.layout == Layout::InOut ? w.rows() : w.cols();
}
int outputs_of(const Tensor& w) {
    return w.layout == Layout::InOut ? w.cols() : w.rows();
}

std::size_t stored_elements(const Tensor& t) {
    return t.product ? std::size_t(inputs_of(t)) * padded(outputs_of(t)) : t.elements();
}

void load_values(const Tensor& t, std::size_t first, int n, float* out) {
    if (!t.product) {
        if (t.dtype == DType::F32 || t.bits.empty()) {
            std::memcpy(out, t.f32.data() + first, std::size_t(n) * sizeof(float));
        } else {
            widen(t.dtype, t.bits.data() + first, n, out);
        }
        return;
    }
    // a row of a matrix stored in strips (an embedding looked up, a weight shown in the lesson)
    const Strips strips(t);
    const int cols = t.cols();
    for (int i = 0; i < n; ++i) {
        const int r = static_cast<int>((first + i) / cols), c = static_cast<int>((first + i) % cols);
        out[i] = value_of(t, t.layout == Layout::InOut ? strips.at(r, c) : strips.at(c, r));
    }
}

std::size_t write_values(Tensor& t, std::size_t first, std::size_t n, const std::uint8_t* bytes) {
    if (t.dtype == DType::F32) {
        // (float32 handled as its bits, so that a NaN's payload is kept as the file has it)
        return write_into(t, reinterpret_cast<std::uint32_t*>(t.f32.data()), first, n, bytes);
    }
    return write_into(t, t.bits.data(), first, n, bytes);
}

void weight_product(const float* a, int lda, int M, const Tensor& w, float* out, int ldo, std::vector<float>& scratch) {
    const int K = inputs_of(w), N = outputs_of(w), Npad = padded(N);
    const bool wide = w.dtype != DType::F32;
    if (wide && scratch.size() < std::size_t(kPanelInputs) * kBlockOutputs) scratch.resize(std::size_t(kPanelInputs) * kBlockOutputs);
    // panels of inputs, then blocks of outputs: the block of a's columns stays hot across the blocks
    for (int k0 = 0; k0 < K; k0 += kPanelInputs) {
        const int kp = std::min(kPanelInputs, K - k0);
        for (int n0 = 0; n0 < N; n0 += kBlockOutputs) {
            const int n = std::min(kBlockOutputs, N - n0);
            // the block's strips, contiguous in storage
            const std::size_t offset = std::size_t(k0) * Npad + std::size_t(n0) * kp;
            const float* strips = w.f32.data() + offset;
            if (wide) {
                widen(w.dtype, w.bits.data() + offset, std::size_t(kp) * padded(n), scratch.data());
                strips = scratch.data();
            }
            if (k0 == 0) {
                kernels::gemm_packed<false>(a + k0, lda, strips, std::size_t(kp) * S, out + n0, ldo, M, kp, n);
            } else {
                kernels::gemm_packed<true>(a + k0, lda, strips, std::size_t(kp) * S, out + n0, ldo, M, kp, n);
            }
        }
    }
}

}  // namespace attn::model
