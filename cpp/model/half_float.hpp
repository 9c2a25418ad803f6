// float16 and bfloat16 values turned into float32, exactly: every 16-bit value is a float32 value.
// Written without branches, so that the loops over a row of them vectorise.
#pragma once

#include <cstdint>
#include <cstring>

namespace attn::model {

inline float bits_to_float(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline std::uint32_t float_to_bits(float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

// bfloat16 is the top half of a float32.
inline float bf16_to_f32(std::uint16_t h) {
    return bits_to_float(std::uint32_t(h) << 16);
}

// float16: 1 sign, 5 exponent (bias 15), 10 mantissa bits. Exponent and mantissa are moved into
// float32's fields as they are, then scaled by 2¹¹² (= 2^(127 − 15)): exact for normal values and
// for subnormal ones (which become normal float32s). Exponent 31 (∞, NaN) then stands at 2¹⁶ and
// gets float32's all-ones exponent, keeping its mantissa.
inline float f16_to_f32(std::uint16_t h) {
    const float scaled = bits_to_float(std::uint32_t(h & 0x7fffu) << 13) * 0x1p112f;
    std::uint32_t bits = float_to_bits(scaled);
    bits |= (h & 0x7c00u) == 0x7c00u ? 0x7f800000u : 0u;
    bits |= std::uint32_t(h & 0x8000u) << 16;
    return bits_to_float(bits);
}

// Whether a 16-bit value is ∞ or NaN (its exponent all ones).
inline bool f16_not_finite(std::uint16_t h) {
    return (h & 0x7c00u) == 0x7c00u;
}
inline bool bf16_not_finite(std::uint16_t h) {
    return (h & 0x7f80u) == 0x7f80u;
}

}  // namespace attn::model
