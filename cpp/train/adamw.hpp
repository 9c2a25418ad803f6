// AdamW (Loshchilov & Hutter): Adam's moment estimates with bias correction, and weight decay
// applied to the parameter directly (not through the gradient).
//   m = β₁·m + (1 − β₁)·g        v = β₂·v + (1 − β₂)·g²
//   p −= lr · ( (m / (1 − β₁ᵗ)) / (√(v / (1 − β₂ᵗ)) + ε)  +  λ·p )    λ only where it decays
#pragma once

#include <vector>

#include "train/model.hpp"

namespace attn::train {

struct AdamWSettings {
    float beta1 = 0.9f;
    float beta2 = 0.99f;
    float epsilon = 1e-8f;
    float weight_decay = 0.01f;  // on the matrices of products (wq, wk, wv, wo, fc1.w, fc2.w, unembed)
};

// Bound to one model's parameters and gradients (their tensors must keep their storage).
class AdamW {
public:
    AdamW(const ModelConfig& config, Parameters& parameters, Parameters& gradients, AdamWSettings settings = {});

    // One update of the parameters from the gradients (step t counts from 1). Allocates nothing.
    void update(float learning_rate);

    int steps() const { return t_; }

private:
    struct Slot {
        Matrix* parameter;
        const Matrix* gradient;
        Matrix* m;
        Matrix* v;
        bool decays;
    };
    AdamWSettings settings_;
    Parameters m_, v_;
    std::vector<Slot> slots_;
    int t_ = 0;
};

}  // namespace attn::train
