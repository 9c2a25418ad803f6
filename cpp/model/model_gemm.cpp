// Packing a stored tensor into float32 strips, panel by panel, and the products over them.
#include "model/model_gemm.hpp"

#include <algorithm>
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
// A panel of kPanelK inputs × kPanelN outputs (256 KiB of float32: it stays in L2 while every row
// of the left-hand side passes over it).
constexpr int kPanelK = 256, kPanelN = 256;

// Panel (k inputs from k0, n outputs from n0) of W packed into strips of S outputs: output j of
// strip s, input kk at panel[s·k·S + kk·S + j]; outputs past N are zeros.
void pack_panel(const Tensor& w, int k0, int k, int n0, int n, float* panel, float* line) {
    const std::size_t strip_stride = std::size_t(k) * S;
    if (w.layout == Layout::InOut) {
        // W is [K, N]: input kk is a row; its n outputs are contiguous
        for (int kk = 0; kk < k; ++kk) {
            load_values(w, std::size_t(k0 + kk) * w.cols() + n0, n, line);
            for (int j0 = 0, s = 0; j0 < n; j0 += S, ++s) {
                float* dst = panel + s * strip_stride + std::size_t(kk) * S;
                const int cols = std::min(S, n - j0);
                for (int c = 0; c < cols; ++c) dst[c] = line[j0 + c];
                for (int c = cols; c < S; ++c) dst[c] = 0.0f;
            }
        }
    } else {
        // W is [N, K]: output j is a row; its k inputs are contiguous
        for (int j = 0; j < n; ++j) {
            load_values(w, std::size_t(n0 + j) * w.cols() + k0, k, line);
            float* dst = panel + (j / S) * strip_stride + j % S;
            for (int kk = 0; kk < k; ++kk) dst[std::size_t(kk) * S] = line[kk];
        }
        for (int j = n; j % S != 0; ++j) {  // the last strip's missing outputs
            float* dst = panel + (j / S) * strip_stride + j % S;
            for (int kk = 0; kk < k; ++kk) dst[std::size_t(kk) * S] = 0.0f;
        }
    }
}

}  // namespace

void load_values(const Tensor& t, std::size_t first, int n, float* out) {
    if (t.dtype == DType::F32 || (t.committed && t.bits.empty())) {
        std::memcpy(out, t.f32.data() + first, std::size_t(n) * sizeof(float));
        return;
    }
    const std::uint16_t* in = t.bits.data() + first;
    if (t.dtype == DType::BF16) {
        for (int i = 0; i < n; ++i) out[i] = bf16_to_f32(in[i]);
    } else {
        for (int i = 0; i < n; ++i) out[i] = f16_to_f32(in[i]);
    }
}

int inputs_of(const Tensor& w) {
    return w.layout == Layout::InOut ? w.rows() : w.cols();
}
int outputs_of(const Tensor& w) {
    return w.layout == Layout::InOut ? w.cols() : w.rows();
}

void weight_product(const float* a, int lda, int M, const Tensor& w, float* out, int ldo, std::vector<float>& panel) {
    const int K = inputs_of(w), N = outputs_of(w);
    const std::size_t line = std::max(kPanelK, kPanelN);
    if (panel.size() < std::size_t(kPanelK) * kPanelN + line) panel.resize(std::size_t(kPanelK) * kPanelN + line);
    float* packed = panel.data();
    float* row = packed + std::size_t(kPanelK) * kPanelN;
    for (int n0 = 0; n0 < N; n0 += kPanelN) {
        const int n = std::min(kPanelN, N - n0);
        for (int k0 = 0; k0 < K; k0 += kPanelK) {
            const int k = std::min(kPanelK, K - k0);
            pack_panel(w, k0, k, n0, n, packed, row);
            // the first panel of inputs writes the outputs, the others add to them
            if (k0 == 0) {
                kernels::gemm_packed<false>(a + k0, lda, packed, std::size_t(k) * S, out + n0, ldo, M, k, n);
            } else {
                kernels::gemm_packed<true>(a + k0, lda, packed, std::size_t(k) * S, out + n0, ldo, M, k, n);
            }
        }
    }
}

}  // namespace attn::model
