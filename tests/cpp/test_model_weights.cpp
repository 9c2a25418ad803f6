// The weights of a loaded model: 16-bit values converted exactly, products over every stored type
// and layout across panel edges, tensors named and shaped as Hugging Face's files, and everything
// a config, a tensor or a run can get wrong refused with a message that names it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "model/half_float.hpp"
#include "model/model.hpp"
#include "model/model_gemm.hpp"
#include "reference64.hpp"
#include "tiny_models.hpp"

using attn::model::Architecture;
using attn::model::DType;
using attn::model::Layout;

TEST_CASE("every float16 and bfloat16 value converts exactly", "[model]") {
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const auto bits = static_cast<std::uint16_t>(h);
        const double sign = h & 0x8000 ? -1.0 : 1.0;
        // float16 from its definition: 5 exponent bits (bias 15), 10 mantissa bits
        const int e = (h >> 10) & 31, m = h & 1023;
        const float f16 = attn::model::f16_to_f32(bits);
        if (e == 31) {
            CHECK((m == 0 ? std::isinf(f16) && std::signbit(f16) == bool(h & 0x8000) : std::isnan(f16)));
        } else {
            const double exact = sign * (e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25));
            CHECK(double(f16) == exact);
            CHECK(std::signbit(f16) == bool(h & 0x8000));  // −0 stays −0
        }
        // bfloat16: 8 exponent bits (bias 127), 7 mantissa bits
        const int be = (h >> 7) & 255, bm = h & 127;
        const float bf16 = attn::model::bf16_to_f32(bits);
        if (be == 255) {
            CHECK((bm == 0 ? std::isinf(bf16) : std::isnan(bf16)));
        } else {
            const double exact = sign * (be == 0 ? std::ldexp(bm, -133) : std::ldexp(128 + bm, be - 134));
            CHECK(double(bf16) == exact);
        }
        CHECK(attn::model::f16_not_finite(bits) == (e == 31));
        CHECK(attn::model::bf16_not_finite(bits) == (be == 255));
    }
}

TEST_CASE("products with a stored weight match float64 for every type and layout, across panel edges", "[model]") {
    const auto [M, K, N] = GENERATE(table<int, int, int>({{1, 5, 3}, {7, 13, 9}, {5, 300, 270}, {67, 257, 33}, {4, 9, 513}}));
    const auto dtype = GENERATE(DType::F32, DType::F16, DType::BF16);
    const auto layout = GENERATE(Layout::InOut, Layout::OutIn);
    CAPTURE(M, K, N, int(dtype), layout == Layout::InOut);
    attn::model::Tensor w;
    w.name = "w";
    w.shape = layout == Layout::InOut ? std::vector<int>{K, N} : std::vector<int>{N, K};
    w.layout = layout;
    w.product = true;
    w.dtype = dtype;
    attn::model::allocate(w);
    tiny::Stream stream{3};
    std::vector<double> exact(w.elements());
    for (double& value : exact) value = stream.next(-255, 255) / 512.0;
    REQUIRE(tiny::write_file_order(w, exact, dtype).empty());
    attn::model::commit(w);
    // read back in the file's order from the strips
    std::vector<float> row(w.cols());
    attn::model::load_values(w, std::size_t(w.rows() - 1) * w.cols(), w.cols(), row.data());
    for (int c = 0; c < w.cols(); ++c) CHECK(double(row[c]) == exact[std::size_t(w.rows() - 1) * w.cols() + c]);
    std::vector<float> a(std::size_t(M) * K);
    model64::Mat a64(M, std::vector<double>(K));
    for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k) a[std::size_t(i) * K + k] = float(a64[i][k] = stream.next(-100, 100) / 64.0);
    // written into a wider matrix (ldo > N) whose extra column must stay untouched
    attn::Matrix out(M, N + 1, 42.0f);
    std::vector<float> panel;
    attn::model::weight_product(a.data(), K, M, w, out.data.data(), N + 1, panel);
    const model64::Mat ref = model64::product(a64, exact, K, N, layout == Layout::OutIn);
    double worst = 0;
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) worst = std::max(worst, std::fabs(out(i, j) - ref[i][j]) / (1e-5 * std::max(1.0, std::fabs(ref[i][j]))));
        CHECK(out(i, N) == 42.0f);
    }
    CHECK(worst <= 1.0);
}

TEST_CASE("tensors are named and shaped as Hugging Face's files hold them", "[model]") {
    const auto find = [](const attn::model::Model& m, const std::string& name) -> const attn::model::Tensor* {
        for (const auto& t : m.tensors)
            if (t.name == name) return &t;
        return nullptr;
    };
    const auto shapes = tiny::shapes();
    const attn::model::Model gpt2 = attn::model::describe(shapes[0].config);  // C 15, F 23, V 11, untied
    CHECK(gpt2.tensors.size() == 2 + 2 * 12 + 2 + 1);
    CHECK(find(gpt2, "h.1.attn.c_attn.weight")->shape == std::vector<int>{15, 45});
    CHECK(find(gpt2, "h.1.attn.c_attn.weight")->layout == Layout::InOut);
    CHECK(find(gpt2, "h.0.mlp.c_proj.weight")->shape == std::vector<int>{23, 15});
    CHECK(find(gpt2, "wpe.weight")->shape == std::vector<int>{9, 15});
    CHECK(find(gpt2, "lm_head.weight")->shape == std::vector<int>{11, 15});
    CHECK(find(attn::model::describe(shapes[1].config), "lm_head.weight") == nullptr);  // tied
    // in strips: what products read; in the file's order: what is looked up, and vectors
    CHECK(find(gpt2, "lm_head.weight")->product);
    CHECK(find(gpt2, "h.0.mlp.c_fc.weight")->product);
    CHECK_FALSE(find(gpt2, "wte.weight")->product);  // untied: looked up only
    CHECK_FALSE(find(gpt2, "wpe.weight")->product);
    CHECK_FALSE(find(gpt2, "h.0.ln_1.weight")->product);
    CHECK(find(attn::model::describe(shapes[1].config), "wte.weight")->product);  // tied: the unembedding too

    const attn::model::Model llama = attn::model::describe(shapes[2].config);  // C 18, 3 heads, 1 kv head
    CHECK(find(llama, "model.layers.1.self_attn.k_proj.weight")->shape == std::vector<int>{6, 18});
    CHECK(find(llama, "model.layers.1.self_attn.k_proj.weight")->layout == Layout::OutIn);
    CHECK(find(llama, "model.layers.0.mlp.down_proj.weight")->shape == std::vector<int>{18, 13});
    CHECK(find(llama, "model.layers.0.self_attn.q_proj.bias") == nullptr);
    CHECK(llama.unembed == llama.wte);
    const attn::model::Model biased = attn::model::describe(shapes[3].config);  // attention_bias, mlp_bias
    CHECK(find(biased, "model.layers.1.self_attn.o_proj.bias")->shape == std::vector<int>{12});
    CHECK(find(biased, "model.layers.1.mlp.up_proj.bias")->shape == std::vector<int>{7});
    const attn::model::Model qwen2 = attn::model::describe(shapes[4].config);  // q, k, v biases; o none
    CHECK(find(qwen2, "model.layers.0.self_attn.v_proj.bias")->shape == std::vector<int>{8});
    CHECK(find(qwen2, "model.layers.0.self_attn.o_proj.bias") == nullptr);
    CHECK(find(qwen2, "lm_head.weight") != nullptr);

    // bytes as stored: 16-bit tensors take half
    attn::model::Model m = attn::model::describe(shapes[2].config);
    const double f32 = attn::model::weight_bytes(m);
    for (auto& t : m.tensors) t.dtype = DType::BF16;
    CHECK(attn::model::weight_bytes(m) == f32 / 2);
}

TEST_CASE("configs are checked, in config.json's own names", "[model][validation]") {
    auto c = tiny::shapes()[2].config;  // llama
    CHECK(attn::model::validate(c).empty());
    auto bad = c;
    bad.NH = 4;
    CHECK(attn::model::validate(bad) == "num_attention_heads (4) must divide hidden_size (18)");
    bad = c;
    bad.KVH = 2;
    CHECK(attn::model::validate(bad) == "num_key_value_heads (2) must divide num_attention_heads (3)");
    bad = c;
    bad.L = 0;
    CHECK(attn::model::validate(bad) == "num_hidden_layers must be between 1 and 1024 (got 0)");
    bad = c;
    bad.rope_theta = 1;
    CHECK(attn::model::validate(bad) == "rope_theta must be above 1 and at most 10000000000 (got 1)");
    bad = c;
    bad.C = 15, bad.NH = 3, bad.KVH = 1;
    CHECK(attn::model::validate(bad) == "hidden_size / num_attention_heads (the head size, 5) must be even: rotary positions turn its halves together");
    bad = c;
    bad.norm_epsilon = 0;
    CHECK(attn::model::validate(bad) == "rms_norm_eps must be between 1e-12 and 0.1 (got 0)");
    auto gpt2 = tiny::shapes()[0].config;
    gpt2.V = 0;
    CHECK(attn::model::validate(gpt2) == "vocab_size must be between 1 and 1048576 (got 0)");
    gpt2 = tiny::shapes()[0].config;
    gpt2.NH = 4;
    gpt2.KVH = 4;
    CHECK(attn::model::validate(gpt2) == "n_head (4) must divide n_embd (15)");
    gpt2 = tiny::shapes()[0].config;
    gpt2.C = 16, gpt2.NH = 4, gpt2.KVH = 4;  // an even or odd head size is fine without RoPE
    CHECK(attn::model::validate(gpt2).empty());
}

TEST_CASE("a tensor holding a value that is not a finite number is refused by name and entry", "[model][validation]") {
    for (const auto dtype : {DType::F32, DType::F16, DType::BF16}) {
        CAPTURE(int(dtype));
        attn::model::Model m = attn::model::describe(tiny::shapes()[0].config);
        attn::model::Tensor& w = m.tensors[4];  // h.0.attn.c_attn.weight, 15 × 45, in strips
        REQUIRE(w.name == "h.0.attn.c_attn.weight");
        w.dtype = dtype;
        attn::model::allocate(w);
        std::vector<double> values(w.elements(), 0.25);
        values[2 * 45 + 7] = INFINITY;
        CHECK(tiny::write_file_order(w, values, dtype).find("h.0.attn.c_attn.weight[2][7] is not a finite number (got inf)") == 0);
        attn::model::Tensor& gain = m.tensors[2];  // h.0.ln_1.weight, a vector
        gain.dtype = dtype;
        attn::model::allocate(gain);
        std::vector<std::uint8_t> bytes(15 * attn::model::bytes_of(dtype));
        const std::uint32_t nan32 = 0x7fc00001;
        const std::uint16_t nan16 = dtype == DType::F16 ? 0x7e01 : 0x7fc1;  // NaN in each type
        if (dtype == DType::F32) std::memcpy(bytes.data() + 4 * 3, &nan32, 4);
        else std::memcpy(bytes.data() + 2 * 3, &nan16, 2);
        CHECK(attn::model::write(gain, 0, 15, bytes.data()) == "h.0.ln_1.weight[3] is not a finite number (got nan)");
    }
}

TEST_CASE("runs are checked: ids, length and memory", "[model][validation]") {
    model64::Weights values;
    std::string problem;
    const attn::model::Model m = tiny::filled(tiny::shapes()[0].config, DType::F32, values, problem);  // context 9, V 11
    REQUIRE(problem.empty());
    CHECK(attn::model::validate_run(m, {}, 1e9) == "no tokens: give at least one token id");
    CHECK(attn::model::validate_run(m, std::vector<int>(10, 1), 1e9) == "too many tokens: 10 (the model knows 9 positions)");
    CHECK(attn::model::validate_run(m, {1, 11}, 1e9) == "ids[1] = 11 is not a token of the vocabulary (0 to 10)");
    CHECK(attn::model::validate_run(m, {-1}, 1e9) == "ids[0] = -1 is not a token of the vocabulary (0 to 10)");
    // memory: what fits is said exactly
    const auto c = m.config;
    const double available = attn::model::run_bytes(c, 5) + 1;
    const std::string message = attn::model::validate_run(m, std::vector<int>(9, 0), available);
    CHECK(message.find("a run of 9 tokens needs about 1 MiB of the engine's memory (every layer's attention maps and the logits), and 0 MiB are free: at most 5 tokens fit") == 0);
    CHECK(attn::model::validate_run(m, std::vector<int>(5, 0), available).empty());
    CHECK(attn::model::run_bytes(c, 6) > available);
}
