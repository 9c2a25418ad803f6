// The backward pass of the trainable model: every parameter's gradient against central finite
// differences of an independent float64 forward, on odd shapes (V = 7, C = 6, 3 heads, T = 5,
// 2 layers), with and without LN and MLP, for each kind of positions.
#include <catch2/catch.hpp>

#include <cmath>

#include "train/layers.hpp"
#include "train/model.hpp"
#include "train/random.hpp"
#include "train_reference64.hpp"

using attn::train::ModelConfig;
using attn::train::Parameters;
using attn::train::Positions;

namespace {

// Two sequences of 5 tokens; some targets ignored (−1).
const std::vector<std::vector<int>> kInputs = {{0, 3, 6, 2, 2}, {5, 1, 4, 0, 6}};
const std::vector<std::vector<int>> kTargets = {{3, 6, -1, 2, 1}, {1, -1, 0, 6, 5}};

std::vector<int> flat(const std::vector<std::vector<int>>& rows) {
    std::vector<int> out;
    for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
    return out;
}

// Each parameter moved from its initial value by a few random steps, so that LN gains and biases
// are not at 1 and 0 and every path of the gradient is exercised.
void scramble(const ModelConfig& config, Parameters& p) {
    attn::train::Random random(99);
    for (const auto& t : attn::train::named_tensors(config, p)) {
        for (float& v : t.tensor->data) v += random.uniform(0.5f);
    }
}

void check_gradients(const ModelConfig& config) {
    Parameters p, g;
    attn::train::initialise(config, 7, p);
    scramble(config, p);
    attn::train::shape_parameters(config, g);
    attn::train::Activations act;
    const std::vector<int> inputs = flat(kInputs), targets = flat(kTargets);
    const float loss = attn::train::forward(config, p, inputs.data(), targets.data(), 2, 5, act);
    CHECK(loss == Approx(reference64::loss(config, p, kInputs, kTargets)).epsilon(1e-5));
    attn::train::backward(config, p, inputs.data(), targets.data(), act, g);

    const auto named_g = attn::train::named_tensors(config, g);
    const auto named_p = attn::train::named_tensors(config, p);
    REQUIRE(named_g.size() == named_p.size());
    double worst = 0;
    for (std::size_t n = 0; n < named_p.size(); ++n) {
        const attn::Matrix& tensor = *named_p[n].tensor;
        for (std::size_t i = 0; i < tensor.data.size(); ++i) {
            const double h = 1e-4;
            reference64::perturbation = {&tensor, i, h};
            const double up = reference64::loss(config, p, kInputs, kTargets);
            reference64::perturbation = {&tensor, i, -h};
            const double down = reference64::loss(config, p, kInputs, kTargets);
            reference64::perturbation = {};
            const double numeric = (up - down) / (2 * h);
            const double analytic = named_g[n].tensor->data[i];
            const double error = std::fabs(analytic - numeric) / std::max(1.0, std::fabs(numeric));
            worst = std::max(worst, error);
            INFO(named_p[n].name << "[" << i << "]: analytic " << analytic << ", numeric " << numeric);
            REQUIRE(error < 2e-4);
        }
    }
    INFO("worst relative error " << worst);
    CHECK(worst < 2e-4);
}

}  // namespace

TEST_CASE("every gradient matches finite differences of a float64 forward", "[train][gradients]") {
    ModelConfig config;
    config.V = 7;
    config.Tmax = 5;
    config.C = 6;
    config.NH = 3;
    config.L = 2;
    for (bool layer_norm : {false, true}) {
        for (bool mlp : {false, true}) {
            for (Positions positions : {Positions::Learned, Positions::Sinusoidal, Positions::None}) {
                config.layer_norm = layer_norm;
                config.mlp = mlp;
                config.positions = positions;
                INFO("layerNorm " << layer_norm << ", mlp " << mlp << ", positions " << int(positions));
                check_gradients(config);
            }
        }
    }
}

TEST_CASE("a row whose keys are all masked gets zero weights and zero gradients, never NaN", "[train][gradients]") {
    const int T = 3, C = 4, NH = 2;
    std::vector<float> q(T * C), k(T * C), v(T * C), attention(NH * T * T), context(T * C);
    attn::train::Random random(3);
    for (auto* m : {&q, &k, &v})
        for (float& x : *m) x = random.uniform(1.0f);
    const std::uint8_t mask[T * T] = {1, 1, 1,  // row 0 sees nothing
                                      0, 1, 1,
                                      0, 0, 0};
    attn::train::AttentionScratch scratch;
    attn::train::attention_forward(q.data(), k.data(), v.data(), attention.data(), context.data(), 1, T, C, NH, mask, scratch);
    for (int c = 0; c < C; ++c) CHECK(context[c] == 0.0f);
    for (int j = 0; j < T; ++j) CHECK(attention[j] == 0.0f);
    std::vector<float> dcontext(T * C, 1.0f), dq(T * C), dk(T * C), dv(T * C);
    attn::train::attention_backward(dcontext.data(), q.data(), k.data(), v.data(), attention.data(), dq.data(), dk.data(),
                                    dv.data(), 1, T, C, NH, scratch);
    for (const auto* m : {&dq, &dk, &dv})
        for (float x : *m) CHECK(std::isfinite(x));
    for (int c = 0; c < C; ++c) CHECK(dq[c] == 0.0f);
}
