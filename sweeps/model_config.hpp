// Whole-model configs (configs/models/*.toml, one model per file with the numbers the Continual
// Transformers paper prints for it) and their report.toml, read into analysis/model_report.hpp's
// types; full reference: docs/configs.md. Any other key is an error naming file and allowed keys.
// Model file ([default]): name ([a-z0-9_]+, for results and ratios), title [name], n (window),
// embed_dim and heads (width d; heads divides d), mlp_dim (feed-forward width), blocks (= the
// [[block]] sections, each attention = a variant id), input_dim (raw token width, embedded
// linearly) [0: none], classes (classification outputs) [0: no head], landmarks (m of the Nyström
// kinds) [0], pinv_iterations [6], activation gelu|relu [gelu], norm post (CoTrans Eq. 10)|pre
// (OadTR) [post], final_norm (LayerNorm before the head) [false], qkv_bias (Q, K, V projection
// biases) [true], last_row_only (a final att block computes only the prediction row) [false],
// positional none|recycling (CoTrans Eq. 11)|absolute [none], positions n|2n-1 (encodings T) [n] or
// position_count (an explicit T; absolute: T >= n, the first n used), encodings fixed
// (sinusoidal)|given (seeded, a learned stand-in) [fixed], class_token_block (the block whose input
// gets the class token) [0: none], seed (of the weights) [1].
// [[printed]], a number the paper prints: id ([a-z0-9_]+, unique over all files), table, row,
// flops_m (millions), counter (oadtr|continual|regular_t: analysis/model_cost.hpp); optional
// input_dim (that row's, overriding the model's), note, log_flops and log_source (the count
// the authors' run log shows for the row, and where), params_k (printed parameters, thousands).
// report.toml (same folder, not a model): title; [[ratio]] label, printed (x), numerator and
// denominator (printed ids), source; [[not_modelled]] table, row, flops_m, reason (printed
// numbers outside these models); [[alternative]] id (printed), label, mlp_dim and/or input_dim
// (a row re-measured with another architecture choice); at most one [[figure]]: file (stem),
// title, models (names), n (list), convention (all|mul|mac|cotrans).
#pragma once

#include <filesystem>

#include "analysis/model_report.hpp"

namespace cosda {

// Throws InputError (one line: file, key, fix) for any problem.
ModelConfig load_model_config(const std::filesystem::path& path);

// Reads report.toml and every model file beside it; ids and names unique, references resolved.
ReportConfig load_report_config(const std::filesystem::path& report_toml);

}  // namespace cosda
