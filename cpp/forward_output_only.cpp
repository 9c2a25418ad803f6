// The forward-only path for large inputs: the output of multi-head attention without keeping any
// T×Tk matrix. Queries are taken in blocks of kBlockRows, keys in tiles of kTileKeys (in chunks
// of keys small enough for L2); for each query row a running max m and running sum l of the
// softmax are updated tile by tile (the "online softmax" of FlashAttention):
//
//   m' = max(m, max_j z_j)          α = e^(m − m')
//   l' = α·l + Σ_j e^(z_j − m')     o' = α·o + Σ_j e^(z_j − m')·v_j
//
// and at the end o / l is the row of softmax(z)·V. Tiles entirely hidden by a −∞ mask (above the
// diagonal of a causal mask, outside a window, all padding, custom cells) are never computed.
//
// trace_output_only runs the same loops with a tile of the caller's size and records each step
// (FlashTrace): the recording is a branch per tile, not a second implementation.
#include <algorithm>
#include <cmath>
#include <limits>

#include "alibi.hpp"
#include "attention.hpp"
#include "forward_common.hpp"
#include "mask.hpp"
#include "packing.hpp"

#if ATTN_HAVE_SIMD
#include "simd_packed_gemm.hpp"
namespace kernels = attn::simd;
#else
#include "scalar_kernels.hpp"
namespace kernels = attn::scalar;
#endif

namespace attn {
namespace {

constexpr int kBlockRows = 16;                   // queries per block: each K tile load is reused 16 times
constexpr int kTileKeys = 128;                   // keys per tile: a tile of logits is 16×128 floats = 8 KiB
constexpr std::size_t kChunkBytes = 256 * 1024;  // K and V of a chunk of keys: half of a 512 KiB L2
constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

// The logit of query i for key j, from the raw dot product: (dot·s + M)/τ or (dot + M)·s/τ.
struct Logit {
    float score_scale, inverse_temperature, fill;
    bool mask_before_scale;
    float masked(float dot) const {
        return mask_before_scale ? (dot + fill) * score_scale * inverse_temperature
                                 : (dot * score_scale + fill) * inverse_temperature;
    }
};

// The key range [lo, hi) that queries [i0, i1) may see at all. With a −∞ fill, keys outside it
// contribute e^(−∞) = 0 and are skipped; a finite fill makes every key count.
std::pair<int, int> key_range(const MaskRule& rule, bool infinite_fill, int i0, int i1) {
    if (!infinite_fill) return {0, rule.Tk};
    int lo = rule.Tk, hi = 0;
    for (int i = i0; i < i1; ++i) {
        lo = std::min(lo, rule.first_visible(i));
        hi = std::max(hi, rule.last_visible(i) + 1);
    }
    return {lo, std::max(lo, hi)};
}

// The stable softmax's update of one row of a tile when the mask is a band with a −∞ fill (causal,
// window, prefix, none) and Q was scaled beforehand, so that z already holds the logits: only keys
// [lo, hi) are visible, and the others get weight 0 without being looked at. Returns the new
// running max (−∞ while nothing is visible) and adds this tile's Σ e^(z − max) to `sum`, after
// scaling it (and `out`, the row's weighted sum so far) by e^(old max − new max).
float band_row_update(float* z, int keys, int lo, int hi, float max, float& sum, float* out, int out_n) {
    if (hi <= lo) {
        std::fill(z, z + keys, 0.0f);
        return max;
    }
    const float m_new = std::max(max, kernels::row_max(z + lo, hi - lo));
    // e^(−∞) = 0 on the first visible tile; no exp at all while the max stays
    const float alpha = m_new == max ? 1.0f : std::exp(max - m_new);
    // The exps run over whole strips (e^−∞ = 0 for the masked keys added at the end), so that
    // the diagonal's ragged rows take no scalar tail of std::exp calls.
    constexpr int S = kernels::kStrip;
    const int hi_batches = std::min(keys, lo + (hi - lo + S - 1) / S * S);
    std::fill(z + hi, z + hi_batches, kMinusInfinity);
    const float tile_sum = kernels::exp_shifted<true>(z + lo, m_new, z + lo, hi_batches - lo);
    // (Most rows of a tile see all of it: no call to memset for nothing.)
    if (lo > 0) std::fill(z, z + lo, 0.0f);
    if (hi_batches < keys) std::fill(z + hi_batches, z + keys, 0.0f);
    sum = alpha * sum + tile_sum;
    if (alpha != 1.0f) kernels::scale_row(out, out_n, alpha);
    return m_new;
}

// Pass 3 for one row of a tile: z ← logits from raw dot products z of query i with keys
// [j0, j0 + keys). With a band mask (no padding, not custom) the visible keys are one range,
// scaled with SIMD; only the keys outside it are looked at one by one.
void logits_of_row(const MaskRule& rule, const Logit& logit, float visible_scale, int i, int j0,
                   float* z, int keys) {
    if (!rule.is_band()) {
        for (int b = 0; b < keys; ++b) z[b] = rule.masked(i, j0 + b) ? logit.masked(z[b]) : z[b] * visible_scale;
        return;
    }
    const int lo = std::clamp(rule.first_visible(i) - j0, 0, keys);
    const int hi = std::clamp(rule.last_visible(i) + 1 - j0, lo, keys);
    for (int b = 0; b < lo; ++b) z[b] = logit.masked(z[b]);
    kernels::scale_row(z + lo, hi - lo, visible_scale);
    for (int b = hi; b < keys; ++b) z[b] = logit.masked(z[b]);
}

// ALiBi's bias for query i and keys [j0, j0 + keys), divided by τ, added to logits.
void add_alibi_row(float* z, int keys, float slope_over_tau, int i, int j0) {
    for (int b = 0; b < keys; ++b) z[b] += alibi_bias(slope_over_tau, i, j0 + b);
}

// How the keys are cut: the fast path's tiles start on strip boundaries and come in chunks that
// fit L2; a trace's tiles lie on a grid of the caller's size, all in one chunk.
struct Tiling {
    int block_rows = kBlockRows;
    int tile_keys = kTileKeys;
    bool trace = false;
};

// Appends one tile's record to `trace` (see FlashTrace in attention.hpp).
void record_tile(FlashTrace& trace, int h, int i0, int rows, int j0, int keys, bool skipped) {
    const int n = trace.tiles.rows;
    trace.tiles.data.insert(trace.tiles.data.end(), {float(h), float(i0), float(rows), float(j0), float(keys), skipped ? 1.0f : 0.0f});
    trace.tiles.rows = n + 1;
}

std::string run_tiled(const Config& config, const std::vector<int>& weight_rows, OutputOnlyResult& r,
                      const Progress& progress, const Tiling& tiling, FlashTrace* trace) {
    const int T = static_cast<int>(config.tokens.size());
    const Problem p = resolve(config, /*materialize_mask=*/false);
    const MaskRule rule = MaskRule::from(config, p.Tk);
    const int Tk = p.Tk, C = p.C, HS = p.HS();
    const bool infinite_fill = std::isinf(p.mask_fill);
    const Logit logit{p.scale ? 1.0f / std::sqrt(static_cast<float>(HS)) : 1.0f,
                      1.0f / p.temperature, p.mask_fill, p.mask_before_scale};
    const float visible_scale = logit.score_scale * logit.inverse_temperature;
    // The common case — a band mask filled with −∞, stable softmax — takes a shorter road: Q is
    // scaled once (so that Q_h·K_hᵀ are the logits), and each row of a tile is one max and one
    // exp over its visible keys. (Scaling Q rounds once per entry of Q instead of once per
    // logit: a different rounding, well within float32's error of the products themselves.)
    const bool band_path = rule.is_band() && infinite_fill && !p.naive_softmax && !p.alibi;
    const float dot_scale = band_path ? 1.0f : visible_scale;  // logit = dot · this, where visible

    r.T = T;
    r.Tk = Tk;
    r.C = C;
    r.NH = p.NH;
    r.KVH = p.KVH;
    r.HS = HS;
    r.q.resize(T, C);
    r.k.resize(Tk, p.KVH * HS);
    r.v.resize(Tk, p.KVH * HS);
    r.concat.resize(T, C);
    r.output.resize(T, C);
    constexpr int S = kernels::kStrip;
    // (a trace's tile may start inside a strip: room for the products from the strip's start)
    r.tile.resize(tiling.block_rows, tiling.tile_keys + (tiling.trace ? S : 0));
    const int ld_tile = r.tile.cols;
    r.head_out.resize(T, HS);
    r.running_max.resize(T);
    r.running_sum.resize(T);
    r.weight_rows = weight_rows;
    r.row_weights.resize(p.NH);

    // pass 1: projections Q = X·W_Q, K = X_s·W_K, V = X_s·W_V — O(T·C) memory
    kernels::gemm_auto(p.x->data.data(), C, p.wq->data.data(), C, r.q.data.data(), C, T, C, C);
    detail::add_bias(r.q, p.bq);
    // RoPE turns each head's columns of Q and K by position (before Q is scaled, as in the full path)
    if (p.rope) {
        for (int h = 0; h < p.NH; ++h) rotate_rows(r.q.data.data() + h * HS, T, C, HS, p.rotary);
    }
    if (band_path && visible_scale != 1.0f) kernels::scale_row(r.q.data.data(), T * C, visible_scale);
    kernels::gemm_auto(p.xs->data.data(), C, p.wk->data.data(), r.k.cols, r.k.data.data(), r.k.cols, Tk, C, r.k.cols);
    kernels::gemm_auto(p.xs->data.data(), C, p.wv->data.data(), r.v.cols, r.v.data.data(), r.v.cols, Tk, C, r.v.cols);
    detail::add_bias(r.k, p.bk);
    detail::add_bias(r.v, p.bv);
    if (p.rope) {
        for (int g = 0; g < p.KVH; ++g) rotate_rows(r.k.data.data() + g * HS, Tk, r.k.cols, HS, p.rotary);
    }

    // K_gᵀ and V_g are packed in strips of kStrip keys / head columns (packing.hpp): a tile's
    // products then read contiguous memory instead of rows Tk floats apart.
    const std::size_t k_strip_stride = std::size_t(HS) * S;  // a strip of Kᵀ: HS rows × S keys
    const std::size_t v_strip_stride = std::size_t(Tk) * S;  // a strip of V: Tk rows × S columns
    // Keys per chunk: the chunk's K and V together take about kChunkBytes (a whole number of tiles).
    const int chunk_keys = tiling.trace ? std::max(Tk, 1)
                                        : std::max(kTileKeys, int(kChunkBytes / (2 * sizeof(float) * HS)) / kTileKeys * kTileKeys);
    std::vector<float> max_before(trace ? tiling.block_rows : 0);  // a trace's m_old per row
    r.k_packed.resize(packed_size<S>(HS, Tk));
    r.v_packed.resize(packed_size<S>(Tk, HS));

    for (int h = 0; h < p.NH; ++h) {
        const int g = p.kv_head_of(h);
        if (h == 0 || g != p.kv_head_of(h - 1)) {  // once per key/value head
            pack_transposed_strips<S>(r.k.data.data() + g * HS, r.k.cols, Tk, HS, r.k_packed.data());
            pack_strips<S>(r.v.data.data() + g * HS, r.v.cols, Tk, HS, r.v_packed.data(), v_strip_stride);
        }
        const float* q_h = r.q.data.data() + h * HS;  // Q_h, row stride C
        float* const m = r.running_max.data();
        float* const l = r.running_sum.data();
        std::fill(m, m + T, p.naive_softmax ? 0.0f : kMinusInfinity);
        std::fill(l, l + T, 0.0f);
        std::fill(r.head_out.data.begin(), r.head_out.data.end(), 0.0f);

        // Keys chunk by chunk, and within a chunk every block of queries that sees any of its
        // keys: a chunk's part of K and V stays in L2 while the blocks pass over it. (Block by
        // block instead, each block would read all of K and V it sees: at T = 1024 and d_k = 64
        // that is 512 KiB, L2's size, so every tile came from L3.) The online softmax does not
        // mind the order in which a row meets its keys.
        for (int c0 = 0; c0 < Tk; c0 += chunk_keys) {
            const int c1 = std::min(Tk, c0 + chunk_keys);
            for (int i0 = 0; i0 < T; i0 += tiling.block_rows) {
                const int i1 = std::min(T, i0 + tiling.block_rows), rows = i1 - i0;
                const auto [visible_lo, visible_hi] = key_range(rule, infinite_fill, i0, i1);
                // Tiles start on a strip boundary; keys before `lo` that this adds are masked
                // anyway. A trace walks the whole grid and records the tiles it skips; padding and
                // custom cells, which this range does not see, are checked tile by tile below.
                const int lo = tiling.trace ? c0 : std::max(visible_lo - visible_lo % S, c0);
                const int hi = tiling.trace ? c1 : std::min(visible_hi, c1);
                float* const out = r.head_out.row(i0);
                for (int j0 = lo; j0 < hi; j0 += tiling.tile_keys) {
                    const int j1 = std::min(hi, j0 + tiling.tile_keys), keys = j1 - j0;
                    // A tile hidden from every row adds e^(−∞) = 0 to each: skipped whatever hides it.
                    if (infinite_fill && rule.hides_all(i0, i1, j0, j1)) {
                        if (trace) record_tile(*trace, h, i0, rows, j0, keys, true);
                        continue;
                    }
                    // pass 2: raw dot products of the block's queries with the tile's keys
                    // (from the start of the tile's strip: a trace's grid need not lie on strips)
                    const int js = j0 - j0 % S;
                    kernels::gemm_packed(q_h + std::size_t(i0) * C, C, r.k_packed.data() + (js / S) * k_strip_stride,
                                         k_strip_stride, r.tile.data.data(), ld_tile, rows, HS, j1 - js);
                    if (js != j0) {
                        for (int a = 0; a < rows; ++a) std::copy(r.tile.row(a) + (j0 - js), r.tile.row(a) + (j1 - js), r.tile.row(a));
                    }
                    if (trace) {
                        record_tile(*trace, h, i0, rows, j0, keys, false);
                        std::copy(m + i0, m + i1, max_before.begin());
                    }
                    for (int a = 0; a < rows; ++a) {
                        const int i = i0 + a;
                        float* z = r.tile.row(a);
                        if (band_path) {
                            const int row_lo = std::clamp(rule.first_visible(i) - j0, 0, keys);
                            const int row_hi = std::clamp(rule.last_visible(i) + 1 - j0, 0, keys);
                            if (trace) {  // the logits: −∞ outside the band, which the update never reads
                                for (int b = 0; b < keys; ++b) trace->logits.push_back(b >= row_lo && b < row_hi ? z[b] : kMinusInfinity);
                            }
                            m[i] = band_row_update(z, keys, row_lo, row_hi, m[i], l[i], out + std::size_t(a) * HS, HS);
                            continue;
                        }
                        // pass 3: logits z = (scaled score + bias + M)/τ, −∞ where masked with −∞
                        logits_of_row(rule, logit, visible_scale, i, j0, z, keys);
                        if (p.alibi) add_alibi_row(z, keys, p.alibi_slopes[h] * logit.inverse_temperature, i, j0);
                        if (trace) trace->logits.insert(trace->logits.end(), z, z + keys);
                        // pass 4: online softmax update of row i (the naive form keeps m = 0)
                        const float m_new = p.naive_softmax ? 0.0f : std::max(m[i], kernels::row_max(z, keys));
                        if (m_new == kMinusInfinity) {  // nothing visible yet: this tile adds nothing
                            std::fill(z, z + keys, 0.0f);
                            continue;
                        }
                        const float alpha = std::exp(m[i] - m_new);  // e^(−∞) = 0 on the first tile
                        // (m_new is the row's max so far unless the softmax is naive)
                        const float tile_sum = p.naive_softmax ? kernels::exp_shifted(z, m_new, z, keys)
                                                               : kernels::exp_shifted<true>(z, m_new, z, keys);
                        l[i] = alpha * l[i] + tile_sum;
                        m[i] = m_new;
                        if (alpha != 1.0f) kernels::scale_row(out + std::size_t(a) * HS, HS, alpha);
                    }
                    // pass 5: o += e^(z − m)·V over the tile
                    kernels::gemm_packed<true>(r.tile.data.data(), ld_tile, r.v_packed.data() + std::size_t(j0) * S,
                                               v_strip_stride, out, HS, rows, keys, HS);
                    if (trace) {
                        for (int a = 0; a < rows; ++a) {
                            const float m_old = max_before[a], m_new = m[i0 + a];
                            trace->max.push_back(m_new);
                            trace->sum.push_back(l[i0 + a]);
                            trace->rescale.push_back(m_old == m_new ? 1.0f : std::exp(m_old - m_new));
                        }
                        trace->partial.insert(trace->partial.end(), out, out + std::size_t(rows) * HS);
                    }
                }
            }
            // Progress by keys done; with a causal mask later chunks cost less, which a progress
            // bar may show as a slight speed-up.
            if (progress && !progress((h + double(c1) / Tk) / (p.NH + 1))) {
                r = OutputOnlyResult{};  // an incomplete result is of no use: its storage goes back
                return kStoppedMessage;
            }
        }
        // pass 6: o / l, into head h's columns of the concatenation; a row that saw no key at
        // all (l = 0) is defined as zeros, as in the full pass.
        for (int i = 0; i < T; ++i) {
            float* o = r.head_out.row(i);
            if (l[i] > 0.0f || std::isnan(l[i]) || std::isinf(l[i])) {
                kernels::scale_row(o, HS, 1.0f / l[i]);
            } else {
                std::fill(o, o + HS, 0.0f);
            }
            std::copy(o, o + HS, r.concat.row(i) + h * HS);
        }
        if (trace) trace->context[h] = r.head_out;

        // The weights of the rows asked for: e^(z − m)/l with the row's final m and l.
        Matrix& weights = r.row_weights[h];
        weights.resize(static_cast<int>(weight_rows.size()), Tk);
        for (int n = 0; n < weights.rows; ++n) {
            const int i = weight_rows[n];
            float* a = weights.row(n);
            kernels::gemm_packed(q_h + std::size_t(i) * C, C, r.k_packed.data(), k_strip_stride, a, Tk, 1, HS, Tk);
            for (int j = 0; j < Tk; ++j) {
                float z = rule.masked(i, j) ? logit.masked(a[j]) : a[j] * dot_scale;
                if (p.alibi) z += alibi_bias(p.alibi_slopes[h] * logit.inverse_temperature, i, j);
                a[j] = r.running_sum[i] > 0.0f ? std::exp(z - r.running_max[i]) / r.running_sum[i] : 0.0f;
            }
        }
    }
    // pass 7: output = concat · W_O
    kernels::gemm_auto(r.concat.data.data(), C, p.wo->data.data(), C, r.output.data.data(), C, T, C, C);
    detail::add_bias(r.output, p.bo);
    return {};
}

}  // namespace

std::string compute_output_only(const Config& config, const std::vector<int>& weight_rows,
                                OutputOnlyResult& r, const Progress& progress) {
    std::string problem = validate(config, /*output_only=*/true, double(weight_rows.size()));
    if (!problem.empty()) return problem;
    const int T = static_cast<int>(config.tokens.size());
    problem = validate_weight_rows(std::vector<double>(weight_rows.begin(), weight_rows.end()), T);
    if (!problem.empty()) return problem;
    return run_tiled(config, weight_rows, r, progress, Tiling{}, nullptr);
}

std::string trace_output_only(const Config& config, int block_rows, int block_keys, FlashTrace& trace) {
    CallSizes sizes = sizes_of(config, /*output_only=*/true);
    sizes.trace = true;
    sizes.block_rows = block_rows;
    sizes.block_keys = block_keys;
    std::string problem = validate_sizes(sizes);
    if (problem.empty()) problem = validate(config, /*output_only=*/true);
    if (!problem.empty()) return problem;
    trace = FlashTrace{};
    trace.block_rows = block_rows;
    trace.block_keys = block_keys;
    trace.tiles.resize(0, 6);
    trace.context.resize(config.NH);
    OutputOnlyResult scratch;
    run_tiled(config, {}, scratch, {}, Tiling{block_rows, block_keys, true}, &trace);
    trace.T = scratch.T;
    trace.Tk = scratch.Tk;
    trace.C = scratch.C;
    trace.NH = scratch.NH;
    trace.KVH = scratch.KVH;
    trace.HS = scratch.HS;
    trace.output = std::move(scratch.output);
    return {};
}

}  // namespace attn
