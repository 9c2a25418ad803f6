#include "forward_common.hpp"

#include <algorithm>

namespace attn::detail {

void shape_result(const Problem& p, Result& r) {
    const int HS = p.HS();
    r.T = p.T;
    r.C = p.C;
    r.NH = p.NH;
    r.HS = HS;
    r.x = p.x;
    r.wq = p.wq;
    r.wk = p.wk;
    r.wv = p.wv;
    r.wo = p.wo;
    r.q.resize(p.T, p.C);
    r.k.resize(p.T, p.C);
    r.v.resize(p.T, p.C);
    r.heads.resize(p.NH);
    for (HeadResult& head : r.heads) {
        head.q.resize(p.T, HS);
        head.k.resize(p.T, HS);
        head.v.resize(p.T, HS);
        head.scores.resize(p.T, p.T);
        head.masked.resize(p.T, p.T);
        head.weights.resize(p.T, p.T);
        head.context.resize(p.T, HS);
    }
    r.concat.resize(p.T, p.C);
    r.output.resize(p.T, p.C);
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

}  // namespace attn::detail
