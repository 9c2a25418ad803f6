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
    std::vector<std::string> vocab;    // token id i is vocab[i]
    int context_length = 0;            // Tmax
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

// "" when the config can be trained, else a message naming the problem.
std::string validate(const TrainerConfig& config);

struct Evaluation {
    float loss = 0;
    float accuracy = 0;   // fraction of targets whose most likely token is right
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
