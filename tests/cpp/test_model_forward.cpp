// A loaded model's forward pass against the independent float64 forward (model_reference64.hpp):
// tiny GPT-2, Llama and Qwen2 models at odd sizes, in float32, float16 and bfloat16, for T = 1 and
// T = 7 — every layer's input, every head's q, k, v and attention map, and the logits. Then every
// head opened in compute() (the lesson's path) gives the model's own map.
#include <catch2/catch.hpp>

#include "attention.hpp"
#include "model/model.hpp"
#include "model_reference64.hpp"
#include "reference64.hpp"
#include "tiny_models.hpp"

namespace {

// (rows, cols) of `data` from `first` as a Matrix, to compare with the reference's matrices.
attn::Matrix part(const std::vector<float>& data, std::size_t first, int rows, int cols) {
    attn::Matrix m(rows, cols);
    std::copy(data.begin() + first, data.begin() + first + std::size_t(rows) * cols, m.data.begin());
    return m;
}

const char* name_of(attn::model::DType d) {
    return d == attn::model::DType::F32 ? "F32" : d == attn::model::DType::F16 ? "F16"
                                                                               : "BF16";
}

}  // namespace

TEST_CASE("tiny models match the float64 forward in every layer, head and logit", "[model]") {
    const auto shapes = tiny::shapes();
    const std::size_t which = GENERATE(range(std::size_t(0), std::size_t(5)));
    const auto dtype = GENERATE(attn::model::DType::F32, attn::model::DType::F16, attn::model::DType::BF16);
    const int T = GENERATE(1, 7);
    const tiny::Shape& shape = shapes.at(which);
    CAPTURE(shape.label, name_of(dtype), T);
    model64::Weights values;
    std::string problem;
    const attn::model::Model model = tiny::filled(shape.config, dtype, values, problem);
    REQUIRE(problem.empty());
    const std::vector<int> ids = tiny::ids_for(T, shape.config.V);
    REQUIRE(attn::model::validate_run(model, ids, 1e9).empty());
    attn::model::Run run;
    attn::model::forward(model, ids, run);
    const model64::Forward ref = model64::forward(shape.config, values, ids);

    const int NH = shape.config.NH, KVH = shape.config.KVH, HS = shape.config.HS();
    REQUIRE(int(run.layers.size()) == shape.config.L);
    for (int l = 0; l < shape.config.L; ++l) {
        CAPTURE(l);
        const attn::model::LayerTrace& layer = run.layers[l];
        CHECK(ref64::worst(layer.input, ref.layers[l].input) <= 1.0);
        CHECK(ref64::worst(layer.normed, ref.layers[l].normed) <= 1.0);
        for (int h = 0; h < NH; ++h) {
            CAPTURE(h);
            const std::size_t head = std::size_t(h) * T;
            CHECK(ref64::worst(part(layer.attention, head * T, T, T), ref.layers[l].attention[h]) <= 1.0);
            CHECK(ref64::worst(part(layer.q, head * HS, T, HS), ref.layers[l].q[h]) <= 1.0);
        }
        for (int g = 0; g < KVH; ++g) {
            CHECK(ref64::worst(part(layer.k, std::size_t(g) * T * HS, T, HS), ref.layers[l].k[g]) <= 1.0);
            CHECK(ref64::worst(part(layer.v, std::size_t(g) * T * HS, T, HS), ref.layers[l].v[g]) <= 1.0);
        }
    }
    CHECK(ref64::worst(run.logits, ref.logits) <= 1.0);
}

TEST_CASE("every head of a loaded model opened in compute() gives the model's own map", "[model][rope][biases]") {
    const auto shapes = tiny::shapes();
    const std::size_t which = GENERATE(range(std::size_t(0), std::size_t(5)));
    const int T = GENERATE(1, 7);
    const tiny::Shape& shape = shapes.at(which);
    const attn::model::ModelConfig& c = shape.config;
    CAPTURE(shape.label, T);
    model64::Weights values;
    std::string problem;
    const attn::model::Model model = tiny::filled(c, attn::model::DType::BF16, values, problem);
    REQUIRE(problem.empty());
    attn::model::Run run;
    attn::model::forward(model, tiny::ids_for(T, c.V), run);

    for (int l = 0; l < c.L; ++l) {
        // the lesson's config: X = what the layer's attention sees, the layer's W and b, its RoPE
        const attn::model::AttentionWeights w = attn::model::attention_weights(model, l);
        attn::Config lesson;
        lesson.tokens.assign(T, "t");
        lesson.C = c.C;
        lesson.NH = c.NH;
        lesson.KVH = c.KVH;
        lesson.has_embeddings = true;
        lesson.embeddings = run.layers[l].normed;
        lesson.weights = attn::WeightsKind::Explicit;
        lesson.wq = w.wq, lesson.wk = w.wk, lesson.wv = w.wv, lesson.wo = w.wo;
        for (auto [to, from] : {std::pair{&lesson.bq, &w.bq}, {&lesson.bk, &w.bk}, {&lesson.bv, &w.bv}, {&lesson.bo, &w.bo}}) {
            if (from->rows > 0) *to = *from;
        }
        if (c.architecture != attn::model::Architecture::Gpt2) {
            lesson.positional = attn::Positional::Rope;
            lesson.rope_pairing = attn::RopePairing::Half;
            lesson.rope_theta = c.rope_theta;
        }
        lesson.mask = attn::MaskKind::Causal;
        attn::Result r;
        REQUIRE(attn::compute(lesson, r).empty());
        const int HS = c.HS();
        for (int h = 0; h < c.NH; ++h) {
            CAPTURE(l, h);
            const std::size_t head = std::size_t(h) * T;
            CHECK(ref64::worst(r.heads[h].weights, ref64::from(part(run.layers[l].attention, head * T, T, T))) <= 1.0);
            CHECK(ref64::worst(r.heads[h].q, ref64::from(part(run.layers[l].q, head * HS, T, HS))) <= 1.0);
        }
    }
}

TEST_CASE("a second run of the same length reuses its buffers and gives the same bits", "[model]") {
    model64::Weights values;
    std::string problem;
    const attn::model::Model model = tiny::filled(tiny::shapes()[3].config, attn::model::DType::F16, values, problem);
    REQUIRE(problem.empty());
    attn::model::Run run;
    const std::vector<int> ids = tiny::ids_for(6, 9);
    attn::model::forward(model, ids, run);
    const std::vector<float> first = run.logits.data;
    const float* storage = run.layers[1].attention.data();
    attn::model::forward(model, ids, run);
    CHECK(run.logits.data == first);
    CHECK(run.layers[1].attention.data() == storage);
}
