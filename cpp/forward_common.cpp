#include "forward_common.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "alibi.hpp"
#include "row_softmax.hpp"

namespace attn::detail {

void shape_result(const Problem& p, Result& r) {
    const int HS = p.HS();
    r.T = p.T;
    r.Tk = p.Tk;
    r.C = p.C;
    r.NH = p.NH;
    r.KVH = p.KVH;
    r.HS = HS;
    r.x = *p.x;
    if (p.cross) {
        r.xs = *p.xs;
    } else {
        r.xs.resize(0, 0);
    }
    r.wq = *p.wq;
    r.wk = *p.wk;
    r.wv = *p.wv;
    r.wo = *p.wo;
    for (auto [to, from] : {std::pair{&r.bq, p.bq}, {&r.bk, p.bk}, {&r.bv, p.bv}, {&r.bo, p.bo}}) {
        if (from) *to = *from;
        else to->resize(0, 0);
    }
    r.mask.resize(p.T, p.Tk);
    std::transform(p.mask.begin(), p.mask.end(), r.mask.data.begin(),
                   [](std::uint8_t m) { return m ? 1.0f : 0.0f; });
    r.q.resize(p.T, p.C);
    r.k.resize(p.Tk, p.KVH * HS);
    r.v.resize(p.Tk, p.KVH * HS);
    r.heads.resize(p.NH);
    for (HeadResult& head : r.heads) {
        head.q.resize(p.T, HS);
        head.k.resize(p.Tk, HS);
        head.v.resize(p.Tk, HS);
        head.scores.resize(p.T, p.Tk);
        if (p.alibi) head.bias.resize(p.T, p.Tk);
        else head.bias.resize(0, 0);
        head.masked.resize(p.T, p.Tk);
        head.exps.resize(p.T, p.Tk);
        head.weights.resize(p.T, p.Tk);
        head.context.resize(p.T, HS);
        head.row_max.resize(p.T);
        head.row_sum.resize(p.T);
        head.entropy.resize(p.T);
        head.weight_sum.resize(p.T);
        head.later_weight.resize(p.T);
    }
    r.concat.resize(p.T, p.C);
    r.output.resize(p.T, p.C);
}

void add_bias(float* row, const Matrix* bias) {
    if (!bias) return;
    for (int c = 0; c < bias->cols; ++c) row[c] += bias->data[c];
}

void add_bias(Matrix& m, const Matrix* bias) {
    if (!bias) return;
    for (int t = 0; t < m.rows; ++t) add_bias(m.row(t), bias);
}

void copy_head_columns(const Matrix& src, int h, Matrix& dst) {
    for (int t = 0; t < src.rows; ++t) {
        const float* from = src.row(t) + h * dst.cols;
        std::copy(from, from + dst.cols, dst.row(t));
    }
}

void paste_head_columns(const Matrix& src, int h, Matrix& dst) {
    for (int t = 0; t < src.rows; ++t) {
        std::copy(src.row(t), src.row(t) + src.cols, dst.row(t) + h * src.cols);
    }
}

void fill_alibi_bias(const Problem& p, int h, Matrix& bias) {
    for (int i = 0; i < bias.rows; ++i)
        for (int j = 0; j < bias.cols; ++j) bias(i, j) = alibi_bias(p.alibi_slopes[h], i, j);
}

void rotate_head(const Problem& p, Matrix& m) {
    rotate_rows(m.data.data(), m.rows, m.cols, m.cols, p.rotary);
}

float entropy_of(const float* weights, int n) {
    double h = 0.0;
    for (int j = 0; j < n; ++j) {
        if (weights[j] > 0.0f) h -= double(weights[j]) * std::log(double(weights[j]));
        else if (std::isnan(weights[j])) return weights[j];
    }
    return static_cast<float>(h);
}

void softmax_over_queries(const Problem& p, HeadResult& head) {
    const int T = p.T, Tk = p.Tk;
    // Each key column is gathered into a row, softmaxed as one (row_softmax.hpp), and put back.
    std::vector<float> z(T), weights(T), exps(T);
    for (int j = 0; j < Tk; ++j) {
        for (int i = 0; i < T; ++i) z[i] = head.masked(i, j) / p.temperature;
        softmax_row(z.data(), weights.data(), T, {.naive = p.naive_softmax, .exps = exps.data()});
        for (int i = 0; i < T; ++i) {
            head.weights(i, j) = weights[i];
            head.exps(i, j) = exps[i];
        }
    }
    // The row statistics still describe rows: each row's max of z and Σ of its exps.
    for (int i = 0; i < T; ++i) {
        float z_max = -std::numeric_limits<float>::infinity(), sum = 0.0f;
        for (int j = 0; j < Tk; ++j) {
            z_max = std::fmax(z_max, head.masked(i, j) / p.temperature);
            sum += head.exps(i, j);
        }
        head.row_max[i] = z_max;
        head.row_sum[i] = sum;
        head.entropy[i] = entropy_of(head.weights.row(i), Tk);
    }
}

void fill_weight_sums(HeadResult& head) {
    for (int i = 0; i < head.weights.rows; ++i) {
        const float* a = head.weights.row(i);
        head.weight_sum[i] = std::accumulate(a, a + head.weights.cols, 0.0f);
        head.later_weight[i] = i + 1 < head.weights.cols ? std::accumulate(a + i + 1, a + head.weights.cols, 0.0f) : 0.0f;
    }
}

}  // namespace attn::detail
