#include "train/adamw.hpp"

#include <cmath>

namespace attn::train {

AdamW::AdamW(const ModelConfig& config, Parameters& parameters, Parameters& gradients, AdamWSettings settings)
    : settings_(settings) {
    shape_parameters(config, m_);
    shape_parameters(config, v_);
    std::vector<Matrix*> g, m, v;
    for_each_tensor(gradients, [&g](Matrix& t, bool) { g.push_back(&t); });
    for_each_tensor(m_, [&m](Matrix& t, bool) { m.push_back(&t); });
    for_each_tensor(v_, [&v](Matrix& t, bool) { v.push_back(&t); });
    for_each_tensor(parameters, [&](Matrix& t, bool decays) {
        const std::size_t n = slots_.size();
        slots_.push_back({&t, g[n], m[n], v[n], decays});
    });
}

void AdamW::update(float learning_rate) {
    ++t_;
    const float b1 = settings_.beta1, b2 = settings_.beta2;
    const float correction1 = 1.0f - static_cast<float>(std::pow(b1, t_));
    const float correction2 = 1.0f - static_cast<float>(std::pow(b2, t_));
    for (const Slot& slot : slots_) {
        const float decay = slot.decays ? settings_.weight_decay : 0.0f;
        float* p = slot.parameter->data.data();
        const float* g = slot.gradient->data.data();
        float* m = slot.m->data.data();
        float* v = slot.v->data.data();
        for (std::size_t i = 0; i < slot.parameter->data.size(); ++i) {
            m[i] = b1 * m[i] + (1.0f - b1) * g[i];
            v[i] = b2 * v[i] + (1.0f - b2) * g[i] * g[i];
            const float step = (m[i] / correction1) / (std::sqrt(v[i] / correction2) + settings_.epsilon);
            p[i] -= learning_rate * (step + decay * p[i]);
        }
    }
}

}  // namespace attn::train
