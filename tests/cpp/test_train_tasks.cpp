// The trainer's tasks and its training loop: sequences are what each task promises, a seed gives
// the same run, every default task learns, bad configs and batches are named, and a step
// allocates nothing once the first has sized its buffers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "train/trainer.hpp"

using namespace attn::train;

// Counts allocations while `counting` is set (this test binary's global operator new).
namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace
void* operator new(std::size_t size) {
    if (counting) ++allocations;
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}

namespace {

std::vector<int> batch_of(const TaskData& data, int B, int T, std::uint64_t seed, std::vector<int>& targets) {
    Random random(seed);
    std::vector<int> inputs(std::size_t(B) * T);
    targets.resize(inputs.size());
    make_batch(data, B, T, random, inputs.data(), targets.data());
    return inputs;
}

}  // namespace

TEST_CASE("task sequences are what each task promises", "[train][tasks]") {
    for (Task task : {Task::Previous, Task::Induction, Task::Reverse, Task::Sort, Task::Text}) {
        const TrainerConfig config = default_config(task);
        INFO(task_name(task));
        REQUIRE(validate(config).empty());
        TaskData data;
        REQUIRE(prepare_task(task, config.vocab, data).empty());
        const int B = 20, T = sequence_length(task, config.context_length);
        std::vector<int> targets;
        const std::vector<int> inputs = batch_of(data, B, T, 5, targets);
        for (int b = 0; b < B; ++b) {
            const std::vector<int> in(inputs.begin() + b * T, inputs.begin() + (b + 1) * T);
            const std::vector<int> target(targets.begin() + b * T, targets.begin() + (b + 1) * T);
            // the generator's targets are the ones the task defines for the sequence (where it asks;
            // text's last target is the character after the window, which the window cannot say)
            const std::vector<int> defined = targets_of(data, in);
            for (int t = 0; t < T; ++t) {
                if (target[t] >= 0 && !(task == Task::Text && t == T - 1)) CHECK(defined[t] == target[t]);
            }
            CHECK(std::count_if(target.begin(), target.end(), [](int x) { return x >= 0; }) > 0);
        }
    }
}

TEST_CASE("an induction segment's length varies, and its second copy repeats the first", "[train][tasks]") {
    TaskData data;
    REQUIRE(prepare_task(Task::Induction, default_vocab(Task::Induction), data).empty());
    const int B = 200, T = 24;
    std::vector<int> targets;
    const std::vector<int> inputs = batch_of(data, B, T, 9, targets);
    std::vector<int> lengths;
    for (int b = 0; b < B; ++b) {
        const int* t = targets.data() + b * T;
        const int first = static_cast<int>(std::find_if(t, t + T, [](int x) { return x >= 0; }) - t);
        const int n = T - first;  // the second copy starts at the first target
        lengths.push_back(n);
        CHECK(n >= 3);
        CHECK(n <= T / 2);
        const int* in = inputs.data() + b * T;
        CHECK(std::equal(in + T - n, in + T, in + T - 2 * n));
    }
    std::sort(lengths.begin(), lengths.end());
    CHECK(lengths.front() == 3);
    CHECK(lengths.back() == T / 2);
}

TEST_CASE("the same seed trains the same model", "[train]") {
    TrainerConfig config = default_config(Task::Previous);
    Trainer a(config), b(config);
    CHECK(a.step(5) == b.step(5));
    CHECK(a.parameters().wte.data == b.parameters().wte.data);
    config.seed = 2;
    Trainer c(config);
    CHECK(c.parameters().wte.data != a.parameters().wte.data);
}

TEST_CASE("the default tasks learn", "[train]") {
    // Steps within which each default reaches its accuracy (native, seed 1: a few seconds in all).
    const struct {
        Task task;
        int steps;
        float accuracy;
    } cases[] = {
        {Task::Previous, 600, 0.95f},
        {Task::Induction, 1500, 0.95f},
        {Task::Reverse, 300, 0.95f},
        {Task::Sort, 300, 0.95f},
    };
    for (const auto& c : cases) {
        INFO(task_name(c.task));
        Trainer trainer(default_config(c.task));
        const float first = trainer.evaluate(64).loss;
        float accuracy = 0;
        for (int done = 0; done < c.steps && accuracy < c.accuracy; done += 100) {
            trainer.step(100);
            accuracy = trainer.evaluate(256).accuracy;
        }
        CHECK(accuracy >= c.accuracy);
        CHECK(trainer.evaluate(64).loss < first);
    }
}

TEST_CASE("bad configs and batches are named, and leave the trainer as it was", "[train]") {
    TrainerConfig config = default_config(Task::Sort);
    config.heads = 5;
    CHECK(validate(config) == "heads (5) must divide dModel (32)");
    config = default_config(Task::Sort);
    config.vocab.pop_back();
    CHECK(validate(config) == "the sort task needs the separator \"|\" in vocab");
    config = default_config(Task::Previous);
    config.vocab = {"a", "a"};
    CHECK(validate(config) == "vocab must list distinct tokens");
    config = default_config(Task::Previous);
    config.context_length = 1000;
    CHECK(validate(config) == "contextLength must be between 2 and 128 (got 1000)");

    Trainer trainer(default_config(Task::Previous));
    const std::vector<float> before = trainer.parameters().wte.data;
    CHECK(trainer.check_batch({0, 1, 99}, nullptr, 1, 3) == "token id 99 is not in the vocabulary (0 to 11)");
    const std::vector<int> targets = {1, -2, 0};
    CHECK(trainer.check_batch({0, 1, 2}, &targets, 1, 3) == "target -2 is not in the vocabulary (0 to 11, or -1)");
    CHECK(trainer.check_batch(std::vector<int>(13, 0), nullptr, 1, 13) ==
          "sequences of 13 tokens are longer than the context length (12)");
    CHECK(trainer.parameters().wte.data == before);
}

TEST_CASE("a training step allocates nothing once the first has sized its buffers", "[train]") {
    for (Task task : {Task::Induction, Task::Text}) {
        Trainer trainer(default_config(task));
        trainer.step(1);
        allocations = 0;
        counting = true;
        trainer.step(3);
        counting = false;
        INFO(task_name(task));
        CHECK(allocations == 0);
    }
}
