// The tasks a learner trains on, generated from a seed (nothing is downloaded):
//   previous   predict the token one position back                 (a previous-token head)
//   induction  [filler a₁…aₙ a₁…aₙ], n drawn anew per sequence in [3, T/2]; targets on the second
//              copy: the token after the current one's earlier occurrence (an induction head)
//   reverse    [a₁…aₙ | aₙ…a₁], targets after the separator
//   sort       [a₁…aₙ | sorted], targets after the separator
//   text       next character of a short built-in corpus (Chinese included)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "train/random.hpp"

namespace attn::train {

enum class Task {
    Previous,
    Induction,
    Reverse,
    Sort,
    Text
};

std::optional<Task> task_named(const std::string& name);
const char* task_name(Task task);

// The separator token of reverse and sort.
inline constexpr const char* kSeparator = "|";

// The default vocabulary of a task; for text, the corpus's characters (its only vocabulary).
std::vector<std::string> default_vocab(Task task);

// The built-in corpus of the text task, one string per character.
const std::vector<std::string>& corpus_characters();

// Everything a task draws from, for one vocabulary.
struct TaskData {
    Task task = Task::Previous;
    int V = 0;                  // vocabulary size
    int separator = -1;         // id of kSeparator (reverse, sort)
    std::vector<int> drawable;  // ids sequences are made of (all but the separator)
    std::vector<int> corpus;    // text: the corpus as ids
};

// "" and `data` filled, or a message naming what is wrong with the vocabulary for the task.
std::string prepare_task(Task task, const std::vector<std::string>& vocab, TaskData& data);

// The length of the task's sequences for a context length (reverse and sort: 2n + 1 ≤ it).
int sequence_length(Task task, int context_length);

// The shortest context length the task works with.
int minimum_context(Task task);

// B sequences of T = sequence_length(…) ids into inputs and targets (row-major B×T, target −1
// where the task asks nothing).
void make_batch(const TaskData& data, int B, int T, Random& random, int* inputs, int* targets);

// The targets the task defines for a sequence the learner typed (−1 where it has no right answer).
std::vector<int> targets_of(const TaskData& data, const std::vector<int>& inputs);

}  // namespace attn::train
