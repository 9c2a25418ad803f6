// A model, its optimizer and its task: what the page's Train panel and the JavaScript API drive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "train/adamw.hpp"
#include "train/model.hpp"
#include "train/tasks.hpp"

namespace attn::train {

struct TrainerConfig {
    Task task = Task::Induction;
    std::vector<std::string> vocab;  // token id i is vocab[i]
    int context_length = 0;          // Tmax
    int d_model = 0;
    int heads = 1;
    int layers = 1;
    bool mlp = false;
    bool layer_norm = false;
    Positions positions = Positions::Learned;
    double learning_rate = 0;
    int batch_size = 0;
    std::uint32_t seed = 0;
};

// The task's defaults: chosen so that it trains to high accuracy in seconds.
TrainerConfig default_config(Task task);

// Limits of the trainer (a page trains in seconds; these keep a step within a few hundred ms).
inline constexpr int kMaxTrainVocab = 256;
inline constexpr int kMaxTrainContext = 128;
inline constexpr int kMaxTrainWidth = 256;
inline constexpr int kMaxTrainLayers = 4;
inline constexpr int kMaxTrainBatch = 256;

// One trainer's memory: its parameters, gradients and AdamW's two moments, and the activations
// of one batch (its own, or one handed to loss_and_gradients).
inline constexpr double kTrainMemoryBudgetBytes = 512.0 * 1024 * 1024;

// The longest a synchronous call (a step, an evaluation) may take: longer work is done in slices
// (several calls), so that a caller never waits minutes without a way out.
inline constexpr double kMaxCallSeconds = 2.0;

// Floating-point operations per second this build reaches in a training step (docs/performance.md,
// "The trainer's work estimate"): what turns a model's FLOPs into seconds.
double train_flops_per_second();

// Bytes a trainer of `config` holds with activations for B sequences of T tokens.
double trainer_bytes(const TrainerConfig& config, int B, int T);

// "" when a trainer of `config` with activations for B sequences of T tokens fits
// kTrainMemoryBudgetBytes, else a message naming the sizes and the largest batch that fits.
std::string check_memory(const TrainerConfig& config, int B, int T);

// Estimated seconds of one optimizer step, and of an evaluation on `count` sequences.
double step_seconds(const TrainerConfig& config);
double evaluate_seconds(const TrainerConfig& config, int count);

// "" when `count` steps (or evaluated sequences) take at most about kMaxCallSeconds, else a
// message with the estimate and the most one call may do.
std::string check_steps(const TrainerConfig& config, int count);
std::string check_evaluation(const TrainerConfig& config, int count);
// The same for the loss and gradients of one batch of B sequences of T tokens.
std::string check_batch_work(const TrainerConfig& config, int B, int T);

// "" when the config can be trained, else a message naming the problem (its memory and the time
// of one step included).
std::string validate(const TrainerConfig& config);

struct Evaluation {
    float loss = 0;
    float accuracy = 0;  // fraction of targets whose most likely token is right
};

class Trainer {
public:
    explicit Trainer(const TrainerConfig& config);  // the config must have passed validate

    const TrainerConfig& config() const { return config_; }
    const ModelConfig& model() const { return model_; }
    const TaskData& task() const { return task_; }

    // n optimizer steps on fresh batches of the task; returns the last step's loss.
    float step(int n);
    int steps() const { return optimizer_.steps(); }

    // Loss and accuracy on `count` fresh sequences (a stream of its own, never trained on).
    Evaluation evaluate(int count);

    // The forward pass on one sequence of ids (length ≤ context length); its activations, for
    // display, stay in activations() until the next call.
    void run(const std::vector<int>& ids);

    // Loss and gradients of an explicit batch (B sequences of T ids, targets −1 = ignored),
    // without an update; the gradients stay in gradients().
    float loss_and_gradients(const std::vector<int>& inputs, const std::vector<int>& targets, int B, int T);

    // "" when every id is in [0, V) (targets may also be −1) and T fits the context, else a message.
    std::string check_batch(const std::vector<int>& inputs, const std::vector<int>* targets, int B, int T) const;

    Parameters& parameters() { return parameters_; }
    Parameters& gradients() { return gradients_; }
    const Activations& activations() const { return activations_; }

private:
    TrainerConfig config_;
    ModelConfig model_;
    TaskData task_;
    Parameters parameters_, gradients_;
    AdamW optimizer_;
    Random batches_, evaluations_;
    std::vector<int> inputs_, targets_;
    Activations activations_;
};

}  // namespace attn::train
