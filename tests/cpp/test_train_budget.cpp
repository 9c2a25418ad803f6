// The trainer's budgets: the memory a model and its batch need is known from shapes alone (and is
// what the passes really size), a config or batch past the memory budget is refused saying the
// largest batch that fits, and work past about kMaxCallSeconds is refused with its estimate.
#include <catch2/catch.hpp>

#include <string>

#include "train/trainer.hpp"

using namespace attn::train;

namespace {

// Floats every buffer of the activations holds after a forward and a backward pass.
std::size_t held_floats(const Activations& a) {
    std::size_t n = a.x0.data.size() + a.sinusoid.data.size() + a.hf.data.size() + a.lnf_mean.size() +
                    a.lnf_rstd.size() + a.logits.data.size() + a.probs.data.size() + a.scratch.size();
    for (const LayerActivations& l : a.layers) {
        n += l.h1.data.size() + l.ln1_mean.size() + l.ln1_rstd.size() + l.q.data.size() + l.k.data.size() +
             l.v.data.size() + l.attention.size() + l.context.data.size() + l.mid.data.size() + l.h2.data.size() +
             l.ln2_mean.size() + l.ln2_rstd.size() + l.fc1.data.size() + l.gelu.data.size() + l.out.data.size();
    }
    const AttentionScratch& s = a.attention_scratch;
    for (const auto* v : {&s.q, &s.k, &s.v, &s.kt, &s.dq, &s.dk, &s.dv, &s.dcontext, &s.at}) n += v->size();
    for (const attn::Matrix* m : {&a.d_x, &a.d_h, &a.d_big, &a.d_q, &a.d_k, &a.d_v, &a.d_context, &a.d_logits}) {
        n += m->data.size();
    }
    return n;
}

}  // namespace

TEST_CASE("the activations' size is known from the shapes alone, and is what the passes size", "[train][budget]") {
    // odd sizes: d_model 6 with 3 heads, T = 7, a vocabulary of 5; with and without MLP and LayerNorm
    for (bool mlp : {false, true}) {
        for (bool norm : {false, true}) {
            for (Positions positions : {Positions::Learned, Positions::Sinusoidal}) {
                ModelConfig config;
                config.V = 5;
                config.Tmax = 9;
                config.C = 6;
                config.NH = 3;
                config.L = 2;
                config.mlp = mlp;
                config.layer_norm = norm;
                config.positions = positions;
                Parameters p, g;
                initialise(config, 1, p);
                shape_parameters(config, g);
                std::size_t counted = 0;
                for (const NamedTensor& t : named_tensors(config, p)) counted += t.tensor->data.size();
                CHECK(parameter_floats(config) == counted);
                const int B = 3, T = 7;
                std::vector<int> ids(B * T), targets(B * T);
                for (int n = 0; n < B * T; ++n) ids[n] = n % config.V, targets[n] = (n + 1) % config.V;
                Activations a;
                forward(config, p, ids.data(), targets.data(), B, T, a);
                backward(config, p, ids.data(), targets.data(), a, g);
                CHECK(activation_floats(config, B, T) == held_floats(a));
            }
        }
    }
}

TEST_CASE("a model or a batch past the memory budget is refused, naming the largest batch that fits", "[train][budget]") {
    TrainerConfig big = default_config(Task::Previous);
    big.context_length = 128;
    big.d_model = 256;
    big.layers = 4;
    big.batch_size = 256;
    big.mlp = true;
    big.layer_norm = true;
    const std::string problem = validate(big);
    CHECK_THAT(problem, Catch::Matchers::StartsWith("batchSize: a batch of 256 sequences of 128 tokens needs about "));
    CHECK_THAT(problem, Catch::Matchers::EndsWith("more than the trainer's limit of 512 MiB: at most 44 sequences of 128 tokens fit"));
    CHECK(trainer_bytes(big, 44, 128) <= kTrainMemoryBudgetBytes);
    CHECK(trainer_bytes(big, 45, 128) > kTrainMemoryBudgetBytes);
    CHECK(check_memory(big, 44, 128).empty());

    TrainerConfig small = default_config(Task::Previous);
    CHECK(validate(small).empty());
    CHECK(check_memory(small, 256, 12).empty());
}

TEST_CASE("work past about two seconds a call is refused with its estimate", "[train][budget]") {
    TrainerConfig text = default_config(Task::Text);
    text.layers = 4;
    text.heads = 8;
    text.d_model = 128;
    const double step = step_seconds(text);
    CHECK(step > 0.05);
    CHECK(step < kMaxCallSeconds);
    const int most = static_cast<int>(kMaxCallSeconds / step);
    CHECK(check_steps(text, most).empty());
    CHECK_THAT(check_steps(text, 100000), Catch::Matchers::StartsWith("step(100000) would take about "));
    CHECK_THAT(check_steps(text, 100000), Catch::Matchers::EndsWith(": at most " + std::to_string(most) + " steps per call; call it again for more"));
    CHECK_THAT(check_evaluation(text, 100000), Catch::Matchers::StartsWith("evaluate(100000) would take about "));

    TrainerConfig huge = text;
    huge.context_length = 128;
    huge.batch_size = 64;
    CHECK_THAT(validate(huge), Catch::Matchers::StartsWith("one training step of this model would take about "));
}
