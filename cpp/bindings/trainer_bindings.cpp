// Embind registration of the trainer (cpp/train/). Thin: JS checks types and writes ids and
// parameters through views of the trainer's own storage; the core checks values.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <string>

#include "train/trainer.hpp"

namespace {

using emscripten::val;
using namespace attn::train;

const char* positions_name(Positions p) {
    return p == Positions::None ? "none" : p == Positions::Sinusoidal ? "sinusoidal" : "learned";
}

val view_of(attn::Matrix& m) { return val(emscripten::typed_memory_view(m.data.size(), m.data.data())); }

val config_object(const TrainerConfig& c) {
    val out = val::object();
    out.set("task", std::string(task_name(c.task)));
    val vocab = val::array();
    for (const std::string& token : c.vocab) vocab.call<void>("push", token);
    out.set("vocab", vocab);
    out.set("contextLength", c.context_length);
    out.set("dModel", c.d_model);
    out.set("heads", c.heads);
    out.set("layers", c.layers);
    out.set("mlp", c.mlp);
    out.set("layerNorm", c.layer_norm);
    out.set("positions", std::string(positions_name(c.positions)));
    out.set("learningRate", c.learning_rate);
    out.set("batchSize", c.batch_size);
    out.set("seed", c.seed);
    return out;
}

// From the object config.js made (every field present, types checked, whole numbers in int range).
TrainerConfig config_from(const val& o) {
    TrainerConfig c;
    c.task = *task_named(o["task"].as<std::string>());
    c.vocab = emscripten::vecFromJSArray<std::string>(o["vocab"]);
    c.context_length = o["contextLength"].as<int>();
    c.d_model = o["dModel"].as<int>();
    c.heads = o["heads"].as<int>();
    c.layers = o["layers"].as<int>();
    c.mlp = o["mlp"].as<bool>();
    c.layer_norm = o["layerNorm"].as<bool>();
    const std::string positions = o["positions"].as<std::string>();
    c.positions = positions == "none" ? Positions::None : positions == "sinusoidal" ? Positions::Sinusoidal : Positions::Learned;
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

std::string validate_trainer_config(const val& config) { return validate(config_from(config)); }

class WasmTrainer {
public:
    explicit WasmTrainer(const val& config) : trainer_(config_from(config)) {
        for (const NamedTensor& t : named_tensors(trainer_.model(), trainer_.parameters())) names_.push_back(t.name);
    }

    val config() const { return config_object(trainer_.config()); }
    val tensorNames() const {
        val out = val::array();
        for (const std::string& name : names_) out.call<void>("push", name);
        return out;
    }

    double step(int n) { return trainer_.step(n); }
    int steps() const { return trainer_.steps(); }
    val evaluate(int count) {
        const Evaluation e = trainer_.evaluate(count);
        val out = val::object();
        out.set("loss", e.loss);
        out.set("accuracy", e.accuracy);
        return out;
    }

    // Ids go through `ids(n)`, a view JS fills, then `checkBatch` / `run` / `lossAndGradients`.
    val ids(int n) {
        ids_.resize(n);
        return val(emscripten::typed_memory_view(ids_.size(), ids_.data()));
    }
    val targets(int n) {
        targets_.resize(n);
        return val(emscripten::typed_memory_view(targets_.size(), targets_.data()));
    }
    // "" when B sequences of T tokens may be sent (before JS copies them in), else the message.
    std::string checkShape(double B, double T) const {
        if (!(B >= 1 && B <= kMaxTrainBatch && T >= 1 && T <= trainer_.config().context_length &&
              B == int(B) && T == int(T))) {
            return "a batch is 1 to " + std::to_string(kMaxTrainBatch) + " sequences of 1 to " +
                   std::to_string(trainer_.config().context_length) + " tokens (the context length)";
        }
        return {};
    }
    std::string run(int T) {
        std::string problem = trainer_.check_batch(ids_, nullptr, 1, T);
        if (problem.empty()) trainer_.run(ids_);
        return problem;
    }
    // The loss goes to loss(), the gradients to gradient(name).
    std::string lossAndGradients(int B, int T) {
        std::string problem = trainer_.check_batch(ids_, &targets_, B, T);
        if (problem.empty()) loss_ = trainer_.loss_and_gradients(ids_, targets_, B, T);
        return problem;
    }
    double loss() const { return loss_; }

    // The targets the task defines for the ids of the last run (−1 where it has no right answer).
    val taskTargets() {
        targets_ = targets_of(trainer_.task(), ids_);
        return val(emscripten::typed_memory_view(targets_.size(), targets_.data()));
    }

    // Views of the last run (B = 1): logits (T, V), a head's attention (T, T), a layer's input h.
    val logits() { return view_of(activation().logits); }
    val attention(int layer, int head) {
        auto& a = activation().layers.at(layer).attention;
        const int T = activation().T;
        return val(emscripten::typed_memory_view(std::size_t(T) * T, a.data() + std::size_t(head) * T * T));
    }
    val layerInput(int layer) { return view_of(activation().layers.at(layer).h1); }

    // A tensor by name: its view in the parameters or the gradients, and its shape.
    val parameter(const std::string& name) { return view_of(*find(trainer_.parameters(), name)); }
    val gradient(const std::string& name) { return view_of(*find(trainer_.gradients(), name)); }
    val shape(const std::string& name) {
        const attn::Matrix* m = find(trainer_.parameters(), name);
        val out = val::array();
        out.call<void>("push", m->rows);
        out.call<void>("push", m->cols);
        return out;
    }

private:
    Activations& activation() { return const_cast<Activations&>(trainer_.activations()); }
    attn::Matrix* find(Parameters& p, const std::string& name) {
        for (const NamedTensor& t : named_tensors(trainer_.model(), p)) {
            if (t.name == name) return t.tensor;
        }
        return nullptr;  // JS asks only for names from tensorNames()
    }

    Trainer trainer_;
    std::vector<std::string> names_;
    std::vector<int> ids_, targets_;
    double loss_ = 0;
};

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trainer) {
    emscripten::function("defaultTrainerConfig", &default_trainer_config);
    emscripten::function("validateTrainerConfig", &validate_trainer_config);
    emscripten::class_<WasmTrainer>("WasmTrainer")
        .constructor<const val&>()
        .function("config", &WasmTrainer::config)
        .function("tensorNames", &WasmTrainer::tensorNames)
        .function("step", &WasmTrainer::step)
        .function("steps", &WasmTrainer::steps)
        .function("evaluate", &WasmTrainer::evaluate)
        .function("ids", &WasmTrainer::ids)
        .function("targets", &WasmTrainer::targets)
        .function("checkShape", &WasmTrainer::checkShape)
        .function("run", &WasmTrainer::run)
        .function("lossAndGradients", &WasmTrainer::lossAndGradients)
        .function("loss", &WasmTrainer::loss)
        .function("taskTargets", &WasmTrainer::taskTargets)
        .function("logits", &WasmTrainer::logits)
        .function("attention", &WasmTrainer::attention)
        .function("layerInput", &WasmTrainer::layerInput)
        .function("parameter", &WasmTrainer::parameter)
        .function("gradient", &WasmTrainer::gradient)
        .function("shape", &WasmTrainer::shape);
    emscripten::constant("maxTrainVocab", kMaxTrainVocab);
    emscripten::constant("maxTrainContext", kMaxTrainContext);
    emscripten::constant("maxTrainWidth", kMaxTrainWidth);
    emscripten::constant("maxTrainLayers", kMaxTrainLayers);
    emscripten::constant("maxTrainBatch", kMaxTrainBatch);
}
