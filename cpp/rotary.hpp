// Rotary position embedding (RoPE, Su et al., "RoFormer", 2021): inside each head, q and k are
// rotated pair by pair by an angle proportional to the token's position, so that q_i·k_j depends
// on the positions only through i − j.
//
// Pairing: adjacent dimensions (2p, 2p+1), as in the RoFormer paper, or the halves (p, p + d_k/2),
// as GPT-NeoX, Llama and Hugging Face's `rotate_half` pair them (the two differ by a fixed
// permutation of W_Q and W_K's columns). Pair p turns by angle (offset + t)·θ_p with
// θ_p = base^(−2p/d_k), p = 0 … ⌊d_k/2⌋ − 1; the base is 10000 unless a model says otherwise
// (its `rope_theta`). With adjacent pairs an odd d_k leaves its last dimension unrotated (it has no
// partner), as partial-rotary models leave their unrotated dimensions; halves need an even d_k.
#pragma once

#include "matrix.hpp"

namespace attn {

enum class RopePairing {
    Adjacent,
    Half
};

struct RotaryTable {
    Matrix angle;     // (T, ⌊HS/2⌋)  (offset + t)·θ_p, in radians
    Matrix cos, sin;  // (T, ⌊HS/2⌋)  of those angles, computed in double and rounded once
    RopePairing pairing = RopePairing::Adjacent;
};

RotaryTable rotary_table(int T, int HS, int offset, double base = 10000.0,
                         RopePairing pairing = RopePairing::Adjacent);

// Rotates `rows` rows of HS values each (row t at data + t·stride, at position first + t of the
// table): (x, y) of pair p becomes (x·cos − y·sin, x·sin + y·cos).
void rotate_rows(float* data, int rows, int stride, int HS, const RotaryTable& table, int first = 0);

}  // namespace attn
