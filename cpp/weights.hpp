// Deterministic inputs: identity and seeded random weight matrices, and one embedding vector per
// token string. "Deterministic" means the same bits natively and in every browser: only integer
// arithmetic and exactly-rounded float operations are used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix.hpp"

namespace attn {

// Which weight matrix a random stream is for, so that W_Q, W_K, W_V and W_O differ for one seed.
enum class WeightRole : std::uint32_t {
    Query = 0,
    Key = 1,
    Value = 2,
    Output = 3
};

Matrix identity(int n);

// (rows, cols) with ones on the diagonal: the first `cols` columns of I_rows.
Matrix identity_columns(int rows, int cols);

// (rows, cols), uniform in [−1/√rows, 1/√rows): the range of PyTorch's default nn.Linear
// initialisation for `rows` inputs. A narrower matrix is the left part of the square one.
Matrix random_weights(int rows, int cols, std::uint32_t seed, WeightRole role);

// One vector per token string, uniform in [−1, 1): the same word always gets the same vector,
// and a wider d_model only appends components (the first C stay the same).
Matrix token_embeddings(const std::vector<std::string>& tokens, int C);

}  // namespace attn
