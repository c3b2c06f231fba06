// cosda's subcommands: each takes its arguments, has --help, throws InputError, returns a status.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace cosda {

using Argv = std::vector<std::string>;

int cmd_count(const Argv& args);
int cmd_stream(const Argv& args);
int cmd_sweep(const Argv& args);
int cmd_report(const Argv& args);
int cmd_merge(const Argv& args);
int cmd_roofline_entry(const Argv& args);
int cmd_accuracy(const Argv& args);
int cmd_drift(const Argv& args);
int cmd_overflow(const Argv& args);
int cmd_verify(const Argv& args);
int cmd_count_model(const Argv& args);  // cosda count --model FILE
int cmd_models(const Argv& args);
int cmd_variants(const Argv& args);    // also cosda list
int cmd_help(const Argv& args);        // cosda help [command]
int cmd_completion(const Argv& args);  // cosda completion bash

// The commands and their summaries (cosda --help, cosda help).
void print_usage(std::FILE* out);
// "cosda VERSION" and, when the build knew it, the commit it was configured at.
std::string version_text();

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Argv&);
};

inline constexpr Command kCommands[] = {
    {"count", "executed operations and memory of one variant at one shape (JSON, CSV, TSV)",
     cmd_count},
    {"stream", "run a variant over a token stream (.npy in, .npy out)", cmd_stream},
    {"sweep", "measure every point of a config (configs/*.toml) in parallel", cmd_sweep},
    {"merge", "join the shard folders of cosda sweep --shard K/N into one results folder",
     cmd_merge},
    {"report", "tables and figures of a swept config: printed, formula, executed", cmd_report},
    {"roofline", "measure this machine's roofline; draw it with the benchmarked steps",
     cmd_roofline_entry},
    {"accuracy", "approximation error vs exact attention, and the cost-accuracy trade-off",
     cmd_accuracy},
    {"drift", "numerical drift of the continual running sums on long streams", cmd_drift},
    {"overflow", "score scale at which each variant first outputs inf or NaN", cmd_overflow},
    {"verify", "published cost formulas vs executed counts; exact forms vs execution", cmd_verify},
    {"models", "whole models: the CoTrans paper's Tables 1-4 FLOPs against executed counts",
     cmd_models},
    {"variants", "the variants: id, paper name, output rows, continual, landmarks, family",
     cmd_variants},
    {"list", "the same as cosda variants", cmd_variants},
    {"help", "the commands, or with a command its flags (cosda help count)", cmd_help},
    {"completion", "a bash completion script: source <(build/bin/cosda completion bash)",
     cmd_completion},
};

}  // namespace cosda
