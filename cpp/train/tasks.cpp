#include "train/tasks.hpp"

#include <algorithm>
#include <set>

namespace attn::train {
namespace {

// The course's worked sentence, a sentence of the course's Chinese text, and the opening of
// "Alice's Adventures in Wonderland" (Lewis Carroll, 1865; in the public domain).
constexpr const char* kCorpus =
    "Your journey starts with one step. "
    "\u8ba9\u5e8f\u5217\u4e2d\u7684\u6bcf\u4e2a\u4f4d\u7f6e\u90fd\u80fd\u6309\u9700\u4ece\u5176\u4ed6"
    "\u4f4d\u7f6e\u62ff\u4fe1\u606f\u3002 "
    "Alice was beginning to get very tired of sitting by her sister on the bank, and of having "
    "nothing to do: once or twice she had peeped into the book her sister was reading, but it had "
    "no pictures or conversations in it, 'and what is the use of a book,' thought Alice 'without "
    "pictures or conversations?'";

std::vector<std::string> utf8_characters(const std::string& text) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char lead = static_cast<unsigned char>(text[i]);
        const std::size_t length = lead < 0x80 ? 1 : lead < 0xe0 ? 2
                                                 : lead < 0xf0   ? 3
                                                                 : 4;
        out.push_back(text.substr(i, length));
        i += length;
    }
    return out;
}

std::vector<std::string> letters(int count) {
    std::vector<std::string> out;
    for (int i = 0; i < count; ++i) out.push_back(std::string(1, static_cast<char>('a' + i)));
    return out;
}

int draw(const TaskData& data, Random& random) {
    return data.drawable[random.below(static_cast<int>(data.drawable.size()))];
}

// [a₁…aₙ | f(a)…]: inputs and targets of reverse and sort.
void separated(const TaskData& data, int T, Random& random, int* in, int* target) {
    const int n = (T - 1) / 2;
    for (int i = 0; i < n; ++i) in[i] = draw(data, random);
    in[n] = data.separator;
    std::copy(in, in + n, in + n + 1);
    if (data.task == Task::Reverse) std::reverse(in + n + 1, in + 2 * n + 1);
    else std::sort(in + n + 1, in + 2 * n + 1);
    for (int t = 0; t < T; ++t) target[t] = t >= n && t + 1 < T ? in[t + 1] : -1;
}

}  // namespace

std::optional<Task> task_named(const std::string& name) {
    for (Task task : {Task::Previous, Task::Induction, Task::Reverse, Task::Sort, Task::Text}) {
        if (name == task_name(task)) return task;
    }
    return std::nullopt;
}

const char* task_name(Task task) {
    switch (task) {
        case Task::Previous: return "previous";
        case Task::Induction: return "induction";
        case Task::Reverse: return "reverse";
        case Task::Sort: return "sort";
        case Task::Text: return "text";
    }
    return "";
}

const std::vector<std::string>& corpus_characters() {
    static const std::vector<std::string> characters = utf8_characters(kCorpus);
    return characters;
}

std::vector<std::string> default_vocab(Task task) {
    switch (task) {
        case Task::Previous: return letters(12);
        case Task::Induction: return letters(16);
        case Task::Reverse:
        case Task::Sort: {
            std::vector<std::string> vocab = letters(10);
            vocab.push_back(kSeparator);
            return vocab;
        }
        case Task::Text: {
            std::vector<std::string> vocab;
            for (const std::string& c : corpus_characters()) {
                if (std::find(vocab.begin(), vocab.end(), c) == vocab.end()) vocab.push_back(c);
            }
            return vocab;
        }
    }
    return {};
}

std::string prepare_task(Task task, const std::vector<std::string>& vocab, TaskData& data) {
    if (std::set<std::string>(vocab.begin(), vocab.end()).size() != vocab.size()) {
        return "vocab must list distinct tokens";
    }
    for (const std::string& token : vocab) {
        if (token.empty()) return "vocab must not hold an empty token";
    }
    data = TaskData{};
    data.task = task;
    data.V = static_cast<int>(vocab.size());
    const auto separator = std::find(vocab.begin(), vocab.end(), kSeparator);
    const bool separated_task = task == Task::Reverse || task == Task::Sort;
    if (separated_task) {
        if (separator == vocab.end()) return std::string("the ") + task_name(task) + " task needs the separator \"|\" in vocab";
        data.separator = static_cast<int>(separator - vocab.begin());
    }
    if (task == Task::Text) {
        if (vocab != default_vocab(Task::Text)) return "the text task's vocabulary is its corpus's characters: leave vocab out";
        for (const std::string& c : corpus_characters()) {
            data.corpus.push_back(static_cast<int>(std::find(vocab.begin(), vocab.end(), c) - vocab.begin()));
        }
    }
    for (int id = 0; id < data.V; ++id) {
        if (id != data.separator) data.drawable.push_back(id);
    }
    const std::size_t needed = task == Task::Induction ? 3 : 2;
    if (data.drawable.size() < needed) {
        return std::string("the ") + task_name(task) + " task needs at least " + std::to_string(needed) +
               " tokens to draw from in vocab";
    }
    return {};
}

int minimum_context(Task task) {
    switch (task) {
        case Task::Induction: return 6;
        case Task::Reverse:
        case Task::Sort: return 5;
        default: return 2;
    }
}

int sequence_length(Task task, int context_length) {
    if (task == Task::Reverse || task == Task::Sort) return (context_length - 1) / 2 * 2 + 1;
    return context_length;
}

void make_batch(const TaskData& data, int B, int T, Random& random, int* inputs, int* targets) {
    for (int b = 0; b < B; ++b) {
        int* in = inputs + std::size_t(b) * T;
        int* target = targets + std::size_t(b) * T;
        switch (data.task) {
            case Task::Previous:
                for (int t = 0; t < T; ++t) {
                    in[t] = draw(data, random);
                    target[t] = t > 0 ? in[t - 1] : -1;
                }
                break;
            case Task::Induction: {
                const int n = 3 + random.below(T / 2 - 2);  // [3, T/2]
                const int filler = T - 2 * n;
                for (int t = 0; t < filler; ++t) in[t] = draw(data, random);
                // the segment: distinct tokens while the vocabulary allows, so that "the token
                // after the earlier occurrence" is one token
                const bool distinct = n <= static_cast<int>(data.drawable.size());
                for (int k = 0; k < n; ++k) {
                    int token;
                    do token = draw(data, random);
                    while (distinct && std::find(in + filler, in + filler + k, token) != in + filler + k);
                    in[filler + k] = token;
                    in[filler + n + k] = token;
                }
                for (int t = 0; t < T; ++t) target[t] = t >= filler + n && t + 1 < T ? in[t + 1] : -1;
                break;
            }
            case Task::Reverse:
            case Task::Sort:
                separated(data, T, random, in, target);
                break;
            case Task::Text: {
                const int start = random.below(static_cast<int>(data.corpus.size()) - T);
                for (int t = 0; t < T; ++t) {
                    in[t] = data.corpus[start + t];
                    target[t] = data.corpus[start + t + 1];
                }
                break;
            }
        }
    }
}

std::vector<int> targets_of(const TaskData& data, const std::vector<int>& in) {
    const int T = static_cast<int>(in.size());
    std::vector<int> target(T, -1);
    switch (data.task) {
        case Task::Previous:
            for (int t = 1; t < T; ++t) target[t] = in[t - 1];
            break;
        case Task::Induction:
            // the token that followed the current one's latest earlier occurrence
            for (int t = 1; t < T; ++t) {
                for (int p = t - 1; p >= 0; --p) {
                    if (in[p] == in[t]) {
                        target[t] = in[p + 1];
                        break;
                    }
                }
            }
            break;
        case Task::Reverse:
        case Task::Sort: {
            const int n = static_cast<int>(std::find(in.begin(), in.end(), data.separator) - in.begin());
            if (n == T) break;
            std::vector<int> expected(in.begin(), in.begin() + n);
            if (data.task == Task::Reverse) std::reverse(expected.begin(), expected.end());
            else std::sort(expected.begin(), expected.end());
            for (int t = n; t < T && t - n < n; ++t) target[t] = expected[t - n];
            break;
        }
        case Task::Text:
            for (int t = 0; t + 1 < T; ++t) target[t] = in[t + 1];
            break;
    }
    return target;
}

}  // namespace attn::train
