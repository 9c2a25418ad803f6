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

// Whether a value, as its file's bits, is ∞ or NaN: its exponent is all ones.
template <typename Bits>
bool not_finite(DType d, Bits v) {
    if constexpr (sizeof(Bits) == 4) {
        return (v & 0x7f800000u) == 0x7f800000u;
    } else {
        return d == DType::F16 ? f16_not_finite(v) : bf16_not_finite(v);
    }
}

// Index of the first of n values that is ∞ or NaN, or n. (A flag accumulated over blocks without a
// branch per value, so that the common all-finite case vectorises.)
template <typename Bits>
std::size_t first_not_finite(DType d, const Bits* v, std::size_t n) {
    constexpr std::size_t kBlock = 1024;
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t end = std::min(n, start + kBlock);
        bool any = false;
        for (std::size_t i = start; i < end; ++i) any |= not_finite(d, v[i]);
        if (!any) continue;
        for (std::size_t i = start; i < end; ++i) {
            if (not_finite(d, v[i])) return i;
        }
    }
    return n;
}

// Stores values [first, first + n) (file order) of `from` in `to`, the storage of a tensor of
// `cols` columns: as they are, or into strips.
template <typename Bits>
void store(const Tensor& t, const Bits* from, std::size_t first, std::size_t n, Bits* to) {
    if (!t.product) {
        std::copy(from, from + n, to + first);
        return;
    }
    const Strips strips(t);
    const int cols = t.cols();
    int r = static_cast<int>(first / cols), c = static_cast<int>(first % cols);  // (one division a chunk)
    for (std::size_t i = 0; i < n;) {
        const int run = static_cast<int>(std::min<std::size_t>(n - i, cols - c));  // the rest of row r
        if (t.layout == Layout::InOut) {
            // row r is input k = r: outputs c … c + run − 1, contiguous within each strip
            for (int j = c; j < c + run;) {
                const int piece = std::min(c + run - j, S - j % S);
                std::copy(from + i + (j - c), from + i + (j - c) + piece, to + strips.at(r, j));
                j += piece;
            }
        } else {
            // row r is output j = r: inputs c … c + run − 1, S values apart within a panel
            for (int k = c; k < c + run; ++k) to[strips.at(k, r)] = from[i + (k - c)];
        }
        i += run;
        c = 0;
        ++r;
    }
}

template <typename Bits>
std::size_t write_into(Tensor& t, Bits* storage, std::size_t first, std::size_t n, const std::uint8_t* bytes) {
    // (the staging chunk starts on an allocation's alignment and holds whole values)
    const Bits* values = reinterpret_cast<const Bits*>(bytes);
    const std::size_t bad = first_not_finite(t.dtype, values, n);
    if (bad < n) return first + bad;
    store(t, values, first, n, storage);
    return first + n;
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
