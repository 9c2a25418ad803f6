// Embind registration of the trainer (cpp/train/). Thin: JS checks every field's type and copies
// the caller's values before any call (web/src/engine/trainer.js); the core checks values. Every
// call that can allocate returns "" or a message (guarded.hpp) and views are taken only after it,
// so that no view outlives a growth of wasm memory.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <memory>
#include <string>

#include "bindings/guarded.hpp"
#include "train/trainer.hpp"

namespace {

using attn::bindings::guarded;
using emscripten::val;
using namespace attn::train;

const char* positions_name(Positions p) {
    return p == Positions::None ? "none" : p == Positions::Sinusoidal ? "sinusoidal"
                                                                      : "learned";
}

template <typename T>
val view_of(std::vector<T>& v) {
    return val(emscripten::typed_memory_view(v.size(), v.data()));
}

val config_object(const TrainerConfig& c) {
    val out = val::object();
    out.set("task", val(task_name(c.task)));
    val vocab = val::array();
    for (const std::string& token : c.vocab) vocab.call<void>("push", token);
    out.set("vocab", vocab);
    out.set("contextLength", c.context_length);
    out.set("dModel", c.d_model);
    out.set("heads", c.heads);
    out.set("layers", c.layers);
    out.set("mlp", c.mlp);
    out.set("layerNorm", c.layer_norm);
    out.set("positions", val(positions_name(c.positions)));
    out.set("learningRate", c.learning_rate);
    out.set("batchSize", c.batch_size);
    out.set("seed", c.seed);
    return out;
}

// From the plain object trainer.js made: every field present, of its type (a known task and
// positions name, strings, whole numbers in int range), so no conversion here can throw.
TrainerConfig config_from(const val& o) {
    TrainerConfig c;
    c.task = task_named(o["task"].as<std::string>()).value_or(Task::Induction);
    c.vocab = emscripten::vecFromJSArray<std::string>(o["vocab"]);
    c.context_length = o["contextLength"].as<int>();
    c.d_model = o["dModel"].as<int>();
    c.heads = o["heads"].as<int>();
    c.layers = o["layers"].as<int>();
    c.mlp = o["mlp"].as<bool>();
    c.layer_norm = o["layerNorm"].as<bool>();
    const std::string positions = o["positions"].as<std::string>();
    c.positions = positions == "none" ? Positions::None : positions == "sinusoidal" ? Positions::Sinusoidal
                                                                                    : Positions::Learned;
    c.learning_rate = o["learningRate"].as<double>();
    c.batch_size = o["batchSize"].as<int>();
    c.seed = o["seed"].as<unsigned>();
    return c;
}

// The defaults of a task, or null for an unknown task name.
val default_trainer_config(const std::string& task) {
    const auto kind = task_named(task);
    return kind ? config_object(default_config(*kind)) : val::null();
}

// What a trainer of `config` would cost, without making one: "" or the problem; then estimate().
class TrainerEstimate {
public:
    std::string check(const val& config) {
        return guarded([&] {
            config_ = config_from(config);
            return validate(config_);
        });
    }
    // { bytes, stepSeconds } of the last config check() accepted.
    val estimate() const {
        val out = val::object();
        out.set("bytes", trainer_bytes(config_, config_.batch_size, sequence_length(config_.task, config_.context_length)));
        out.set("stepSeconds", step_seconds(config_));
        return out;
    }

private:
    TrainerConfig config_;
};

class WasmTrainer {
public:
    // "" and the trainer made, or the problem (and no trainer).
    std::string open(const val& config) {
        return guarded([&] {
            const TrainerConfig c = config_from(config);
            std::string problem = validate(c);
            if (!problem.empty()) return problem;
            trainer_ = std::make_unique<Trainer>(c);
            parameters_ = named_tensors(trainer_->model(), trainer_->parameters());
            gradients_ = named_tensors(trainer_->model(), trainer_->gradients());
            return std::string();
        });
    }

    val config() const { return config_object(trainer_->config()); }
    val tensorNames() const {
        val out = val::array();
        for (const NamedTensor& t : parameters_) out.call<void>("push", t.name);
        return out;
    }
    int steps() const { return trainer_->steps(); }
    double stepSeconds() const { return step_seconds(trainer_->config()); }

    // n optimizer steps, refused past about kMaxCallSeconds; the loss then in loss().
    std::string step(int n) {
        return guarded([&] {
            std::string problem = check_steps(trainer_->config(), n);
            if (problem.empty()) loss_ = trainer_->step(n);
            return problem;
        });
    }
    double loss() const { return loss_; }

    // Loss and accuracy on `count` fresh sequences, refused past about kMaxCallSeconds; then evaluation().
    std::string evaluate(int count) {
        return guarded([&] {
            std::string problem = check_evaluation(trainer_->config(), count);
            if (problem.empty()) evaluation_ = trainer_->evaluate(count);
            return problem;
        });
    }
    val evaluation() const {
        val out = val::object();
        out.set("loss", evaluation_.loss);
        out.set("accuracy", evaluation_.accuracy);
        return out;
    }

    // "" when B sequences of T tokens may be sent (before JS copies them in), else the message.
    std::string checkShape(double B, double T) const {
        const TrainerConfig& c = trainer_->config();
        if (!(B >= 1 && B <= kMaxTrainBatch && T >= 1 && T <= c.context_length && B == int(B) && T == int(T))) {
            return "a batch is 1 to " + std::to_string(kMaxTrainBatch) + " sequences of 1 to " +
                   std::to_string(c.context_length) + " tokens (the context length)";
        }
        std::string problem = check_memory(c, int(B), int(T));
        return problem.empty() ? check_batch_work(c, int(B), int(T)) : problem;
    }

    // Sizes the ids (and, for a batch with targets, the targets) to n; JS then takes both views
    // (ids(), targets()) and fills them: nothing allocates between the views and the copies.
    std::string reserve(int n, bool with_targets) {
        return guarded([&] {
            ids_.resize(n);
            targets_.resize(with_targets ? n : 0);
            return std::string();
        });
    }
    val ids() { return view_of(ids_); }
    val targets() { return view_of(targets_); }

    // The forward pass on the ids (B = 1); its views below, and the task's targets for them.
    std::string run(int T) {
        return guarded([&] {
            std::string problem = trainer_->check_batch(ids_, nullptr, 1, T);
            if (!problem.empty()) return problem;
            trainer_->run(ids_);
            task_targets_ = targets_of(trainer_->task(), ids_);
            return std::string();
        });
    }
    // The loss goes to loss(), the gradients to gradient(name).
    std::string lossAndGradients(int B, int T) {
        return guarded([&] {
            std::string problem = trainer_->check_batch(ids_, &targets_, B, T);
            if (problem.empty()) loss_ = trainer_->loss_and_gradients(ids_, targets_, B, T);
            return problem;
        });
    }

    // Views of the last run (B = 1): logits (T, V), a head's attention (T, T), a layer's input
    // h, the task's targets (−1 where it has no right answer).
    val logits() { return view_of(activation().logits.data); }
    val attention(int layer, int head) {
        auto& a = activation().layers.at(layer).attention;
        const int T = activation().T;
        return val(emscripten::typed_memory_view(std::size_t(T) * T, a.data() + std::size_t(head) * T * T));
    }
    val layerInput(int layer) { return view_of(activation().layers.at(layer).h1.data); }
    val taskTargets() { return view_of(task_targets_); }

    // A tensor by its index in tensorNames(): its view in the parameters or the gradients, and its shape.
    val parameter(int index) { return view_of(parameters_.at(index).tensor->data); }
    val gradient(int index) { return view_of(gradients_.at(index).tensor->data); }
    val shape(int index) const {
        const attn::Matrix* m = parameters_.at(index).tensor;
        val out = val::array();
        out.call<void>("push", m->rows);
        out.call<void>("push", m->cols);
        return out;
    }

private:
    Activations& activation() { return const_cast<Activations&>(trainer_->activations()); }

    std::unique_ptr<Trainer> trainer_;
    std::vector<NamedTensor> parameters_, gradients_;
    std::vector<int> ids_, targets_, task_targets_;
    double loss_ = 0;
    Evaluation evaluation_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
    emscripten::function("defaultTrainerConfig", &default_trainer_config);
    emscripten::class_<TrainerEstimate>("TrainerEstimate")
        .constructor<>()
        .function("check", &TrainerEstimate::check)
        .function("estimate", &TrainerEstimate::estimate);
    emscripten::class_<WasmTrainer>("WasmTrainer")
        .constructor<>()
        .function("open", &WasmTrainer::open)
        .function("config", &WasmTrainer::config)
        .function("tensorNames", &WasmTrainer::tensorNames)
        .function("steps", &WasmTrainer::steps)
        .function("stepSeconds", &WasmTrainer::stepSeconds)
        .function("step", &WasmTrainer::step)
        .function("loss", &WasmTrainer::loss)
        .function("evaluate", &WasmTrainer::evaluate)
        .function("evaluation", &WasmTrainer::evaluation)
        .function("checkShape", &WasmTrainer::checkShape)
        .function("reserve", &WasmTrainer::reserve)
        .function("ids", &WasmTrainer::ids)
        .function("targets", &WasmTrainer::targets)
        .function("run", &WasmTrainer::run)
        .function("lossAndGradients", &WasmTrainer::lossAndGradients)
        .function("logits", &WasmTrainer::logits)
        .function("attention", &WasmTrainer::attention)
        .function("layerInput", &WasmTrainer::layerInput)
        .function("taskTargets", &WasmTrainer::taskTargets)
        .function("parameter", &WasmTrainer::parameter)
        .function("gradient", &WasmTrainer::gradient)
        .function("shape", &WasmTrainer::shape);
    emscripten::constant("maxTrainVocab", kMaxTrainVocab);
    emscripten::constant("maxTrainContext", kMaxTrainContext);
    emscripten::constant("maxTrainWidth", kMaxTrainWidth);
    emscripten::constant("maxTrainLayers", kMaxTrainLayers);
    emscripten::constant("maxTrainBatch", kMaxTrainBatch);
    emscripten::constant("trainMemoryBudgetBytes", kTrainMemoryBudgetBytes);
    emscripten::constant("maxCallSeconds", kMaxCallSeconds);
}
