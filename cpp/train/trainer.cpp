#include "train/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "attention.hpp"

namespace attn::train {
namespace {

ModelConfig model_of(const TrainerConfig& c) {
    ModelConfig m;
    m.V = static_cast<int>(c.vocab.size());
    m.Tmax = c.context_length;
    m.C = c.d_model;
    m.NH = c.heads;
    m.L = c.layers;
    m.mlp = c.mlp;
    m.layer_norm = c.layer_norm;
    m.positions = c.positions;
    return m;
}

Parameters initialised(const ModelConfig& model, std::uint32_t seed) {
    Parameters p;
    initialise(model, seed, p);
    return p;
}

Parameters shaped(const ModelConfig& model) {
    Parameters p;
    shape_parameters(model, p);
    return p;
}

TaskData task_of(const TrainerConfig& c) {
    TaskData data;
    prepare_task(c.task, c.vocab, data);
    return data;
}

}  // namespace

TrainerConfig default_config(Task task) {
    TrainerConfig c;
    c.task = task;
    c.vocab = default_vocab(task);
    c.seed = 1;
    switch (task) {
        case Task::Previous:
            c.context_length = 12;
            c.d_model = 16;
            c.heads = 1;
            c.layers = 1;
            c.learning_rate = 1e-2;
            c.batch_size = 16;
            break;
        case Task::Induction:
            c.context_length = 24;
            c.d_model = 32;
            c.heads = 2;
            c.layers = 2;
            c.learning_rate = 1e-2;
            c.batch_size = 32;
            break;
        case Task::Reverse:
        case Task::Sort:
            c.context_length = 11;
            c.d_model = 32;
            c.heads = 4;
            c.layers = 2;
            c.layer_norm = true;
            c.learning_rate = 3e-3;
            c.batch_size = 32;
            break;
        case Task::Text:
            c.context_length = 32;
            c.d_model = 48;
            c.heads = 4;
            c.layers = 2;
            c.mlp = true;
            c.layer_norm = true;
            c.learning_rate = 3e-3;
            c.batch_size = 16;
            break;
    }
    return c;
}

double train_flops_per_second() {
    // What a training step reaches in wasm on this machine (2 cores, Node 20), measured by
    // bench/trainer-work.mjs: docs/performance.md, "The trainer's work estimate".
#if ATTN_HAVE_SIMD
    return 10e9;
#else
    return 2.2e9;
#endif
}

double trainer_bytes(const TrainerConfig& c, int B, int T) {
    const ModelConfig model = model_of(c);
    // parameters, gradients, AdamW's m and v; the activations; the batch's ids and targets
    return 4.0 * (4.0 * double(parameter_floats(model)) + double(activation_floats(model, B, T)) + 2.0 * B * T);
}

std::string check_memory(const TrainerConfig& c, int B, int T) {
    const double bytes = trainer_bytes(c, B, T);
    if (bytes <= kTrainMemoryBudgetBytes) return {};
    const double state = 16.0 * double(parameter_floats(model_of(c)));
    std::ostringstream out;
    out << "a batch of " << B << " sequences of " << T << " tokens needs about " << mebibytes(bytes)
        << " (parameters, gradients and AdamW's moments " << mebibytes(state) << ", activations "
        << mebibytes(bytes - state) << "), more than the trainer's limit of " << mebibytes(kTrainMemoryBudgetBytes);
    int fitting = 0;
    for (int low = 1, high = B - 1; low <= high;) {
        const int mid = low + (high - low) / 2;
        if (trainer_bytes(c, mid, T) <= kTrainMemoryBudgetBytes) fitting = mid, low = mid + 1;
        else high = mid - 1;
    }
    if (fitting > 0) out << ": at most " << fitting << " sequences of " << T << " tokens fit";
    else out << ": not even one sequence fits; make dModel, layers or the context length smaller";
    return out.str();
}

double step_seconds(const TrainerConfig& c) {
    const ModelConfig model = model_of(c);
    const int T = sequence_length(c.task, c.context_length);
    // the backward pass does about twice the forward's products; AdamW about 10 operations a parameter
    const double flops = 3 * forward_operations(model, c.batch_size, T) + 10.0 * double(parameter_floats(model));
    return flops / train_flops_per_second();
}

double evaluate_seconds(const TrainerConfig& c, int count) {
    const ModelConfig model = model_of(c);
    return forward_operations(model, count, sequence_length(c.task, c.context_length)) / train_flops_per_second();
}

namespace {

// `subject` (what was asked: "step(100000)") would do `count` units of `each` seconds.
std::string over_time(const std::string& subject, int count, double each, const char* unit, const char* per) {
    if (count * each <= kMaxCallSeconds) return {};
    std::ostringstream out;
    out << subject << " would take about " << duration_text(count * each) << " (about "
        << duration_text(each) << " " << per << " for this model), more than the " << duration_text(kMaxCallSeconds)
        << " one call may take";
    const int most = static_cast<int>(std::floor(kMaxCallSeconds / each));
    if (most >= 1) out << ": at most " << most << " " << unit << " per call; call it again for more";
    return out.str();
}

}  // namespace

std::string check_steps(const TrainerConfig& c, int count) {
    return over_time("step(" + std::to_string(count) + ")", count, step_seconds(c), "steps", "a step");
}

std::string check_evaluation(const TrainerConfig& c, int count) {
    return over_time("evaluate(" + std::to_string(count) + ")", count, evaluate_seconds(c, 1), "sequences", "a sequence");
}

std::string check_batch_work(const TrainerConfig& c, int B, int T) {
    const double each = 3 * forward_operations(model_of(c), 1, T) / train_flops_per_second();
    const std::string subject = "a batch of " + std::to_string(B) + " sequences of " + std::to_string(T) + " tokens";
    return over_time(subject, B, each, "sequences", "a sequence");
}

std::string validate(const TrainerConfig& c) {
    std::ostringstream out;
    TaskData data;
    std::string problem = prepare_task(c.task, c.vocab, data);
    if (!problem.empty()) return problem;
    const auto range = [&out](const char* name, double value, double low, double high) {
        if (value >= low && value <= high) return false;
        out << name << " must be between " << low << " and " << high << " (got " << value << ")";
        return true;
    };
    if (range("vocab.length", double(c.vocab.size()), 2, kMaxTrainVocab) ||
        range("contextLength", c.context_length, minimum_context(c.task), kMaxTrainContext) ||
        range("dModel", c.d_model, 1, kMaxTrainWidth) || range("heads", c.heads, 1, c.d_model) ||
        range("layers", c.layers, 1, kMaxTrainLayers) || range("batchSize", c.batch_size, 1, kMaxTrainBatch) ||
        range("learningRate", c.learning_rate, 1e-6, 1)) {
        return out.str();
    }
    if (c.d_model % c.heads != 0) {
        out << "heads (" << c.heads << ") must divide dModel (" << c.d_model << ")";
        return out.str();
    }
    if (c.task == Task::Text && c.context_length >= static_cast<int>(data.corpus.size())) {
        out << "contextLength must be shorter than the corpus (" << data.corpus.size() << " characters)";
        return out.str();
    }
    problem = check_memory(c, c.batch_size, sequence_length(c.task, c.context_length));
    if (!problem.empty()) return "batchSize: " + problem;
    const double step = step_seconds(c);
    if (step > kMaxCallSeconds) {
        out << "one training step of this model would take about " << duration_text(step)
            << ", more than the " << duration_text(kMaxCallSeconds)
            << " one call may take: make batchSize, contextLength, dModel or layers smaller";
        return out.str();
    }
    return {};
}

Trainer::Trainer(const TrainerConfig& config)
    : config_(config),
      model_(model_of(config)),
      task_(task_of(config)),
      parameters_(initialised(model_, config.seed)),
      gradients_(shaped(model_)),
      optimizer_(model_, parameters_, gradients_),
      batches_(config.seed * 0x100000001ull + 1),
      evaluations_(config.seed * 0x100000001ull + 2) {}

float Trainer::step(int n) {
    const int B = config_.batch_size, T = sequence_length(config_.task, config_.context_length);
    inputs_.resize(std::size_t(B) * T);
    targets_.resize(std::size_t(B) * T);
    float loss = 0;
    for (int s = 0; s < n; ++s) {
        make_batch(task_, B, T, batches_, inputs_.data(), targets_.data());
        loss = forward(model_, parameters_, inputs_.data(), targets_.data(), B, T, activations_);
        backward(model_, parameters_, inputs_.data(), targets_.data(), activations_, gradients_);
        optimizer_.update(static_cast<float>(config_.learning_rate));
    }
    return loss;
}

Evaluation Trainer::evaluate(int count) {
    const int T = sequence_length(config_.task, config_.context_length);
    std::vector<int> inputs, targets;
    double loss = 0;
    int scored = 0, right = 0;
    for (int done = 0; done < count;) {
        const int B = std::min(config_.batch_size, count - done);
        inputs.resize(std::size_t(B) * T);
        targets.resize(std::size_t(B) * T);
        make_batch(task_, B, T, evaluations_, inputs.data(), targets.data());
        const float batch_loss = forward(model_, parameters_, inputs.data(), targets.data(), B, T, activations_);
        int batch_scored = 0;
        for (int n = 0; n < B * T; ++n) {
            if (targets[n] < 0) continue;
            const float* p = activations_.probs.row(n);
            right += static_cast<int>(std::max_element(p, p + model_.V) - p) == targets[n];
            ++batch_scored;
        }
        loss += double(batch_loss) * batch_scored;
        scored += batch_scored;
        done += B;
    }
    return {scored ? static_cast<float>(loss / scored) : 0.0f, scored ? float(right) / scored : 0.0f};
}

void Trainer::run(const std::vector<int>& ids) {
    forward(model_, parameters_, ids.data(), nullptr, 1, static_cast<int>(ids.size()), activations_);
}

float Trainer::loss_and_gradients(const std::vector<int>& inputs, const std::vector<int>& targets, int B, int T) {
    const float loss = forward(model_, parameters_, inputs.data(), targets.data(), B, T, activations_);
    backward(model_, parameters_, inputs.data(), targets.data(), activations_, gradients_);
    return loss;
}

std::string Trainer::check_batch(const std::vector<int>& inputs, const std::vector<int>* targets, int B, int T) const {
    std::ostringstream out;
    if (B < 1 || T < 1) return "a batch needs at least one sequence of at least one token";
    if (T > config_.context_length) {
        out << "sequences of " << T << " tokens are longer than the context length (" << config_.context_length << ")";
        return out.str();
    }
    if (inputs.size() != std::size_t(B) * T || (targets && targets->size() != inputs.size())) {
        return "inputs and targets must be B sequences of the same length T";
    }
    for (std::size_t n = 0; n < inputs.size(); ++n) {
        if (inputs[n] < 0 || inputs[n] >= model_.V) {
            out << "token id " << inputs[n] << " is not in the vocabulary (0 to " << model_.V - 1 << ")";
            return out.str();
        }
        if (targets && ((*targets)[n] < -1 || (*targets)[n] >= model_.V)) {
            out << "target " << (*targets)[n] << " is not in the vocabulary (0 to " << model_.V - 1 << ", or -1)";
            return out.str();
        }
    }
    return {};
}

}  // namespace attn::train
