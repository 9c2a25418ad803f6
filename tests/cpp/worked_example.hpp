// The course's worked example, "Your journey starts with one step": six tokens, d_model = 3, one
// head, W_Q = W_K = W_V = W_O = I₃, causal mask, scores divided by √3.
#pragma once

#include "attention.hpp"

inline attn::Config worked_example_config() {
    attn::Config config;
    config.tokens = {"Your", "journey", "starts", "with", "one", "step"};
    config.C = 3;
    config.NH = 1;
    config.has_embeddings = true;
    config.embeddings = attn::Matrix(6, 3);
    config.embeddings.data = {
        0.43f, 0.15f, 0.89f,  // Your     x¹
        0.55f, 0.87f, 0.66f,  // journey  x²
        0.57f, 0.85f, 0.64f,  // starts   x³
        0.22f, 0.58f, 0.33f,  // with     x⁴
        0.77f, 0.25f, 0.10f,  // one      x⁵
        0.05f, 0.80f, 0.55f,  // step     x⁶
    };
    config.weights = attn::WeightsKind::Identity;
    config.mask = attn::MaskKind::Causal;
    config.scale = true;
    return config;
}
