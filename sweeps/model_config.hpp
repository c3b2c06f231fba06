// Whole-model configurations (configs/models/*.toml): one model per file, the numbers the
// Continual Transformers paper prints for it, and the report settings (report.toml), read
// into the types of analysis/model_report.hpp.
//
// Model file (every key not listed is an error naming the file and the allowed keys):
//   name               string, [a-z0-9_]+ (results and ratios refer to it)
//   title              string, optional
//   n                  window length
//   embed_dim, heads   width d and attention heads (heads divides d)
//   mlp_dim            feed-forward hidden width
//   input_dim          raw token width (a linear embedding to embed_dim); default 0: none
//   classes            classification outputs; default 0: no head
//   blocks             number of blocks, equal to the number of [[block]] sections
//   [[block]]          attention = a variant id (attention/registry.hpp), one section per block
//   landmarks          m for the Nyström kinds; default 0
//   pinv_iterations    default 6
//   activation         "gelu" (default) or "relu"
//   norm               "post" (CoTrans Eq. 10, default) or "pre" (OadTR)
//   final_norm         LayerNorm before the head; default false
//   qkv_bias           biases on the Q, K, V projections; default true
//   last_row_only      a final att block computes only the prediction row; default false
//   positional         "none" (default), "recycling" (CoTrans Eq. 11) or "absolute"
//   positions          "n" (default) or "2n-1": the number of encodings T
//   position_count     an explicit T instead (absolute: T >= n rows, the first n used)
//   encodings          "fixed" (sinusoidal, default) or "given" (seeded, a learned stand-in)
//   class_token_block  0 (default, none) or the block whose input gets the class token
//   seed               weights' seed; default 1
//   [[printed]]        a number the paper prints for this model: id ([a-z0-9_]+, unique over
//                      all files), table, row, flops_m (millions), counter ("oadtr",
//                      "continual" or "regular_t": analysis/model_cost.hpp), optional
//                      input_dim (the features of that row, overriding the model's), note,
//                      and log_flops / log_source: the count the authors' own run log shows
//                      for the row (an integer) and where that log is, and params_k: the
//                      parameter count the paper prints for the row, in thousands
//
// report.toml (in the same folder, not a model):
//   title              string
//   [[ratio]]          label, printed (x), numerator and denominator (printed ids), source
//   [[not_modelled]]   table, row, flops_m, reason: printed numbers outside the models here
//   [[alternative]]    a printed row re-measured with another architecture choice: id (a
//                      printed id), label, and the overridden mlp_dim and/or input_dim
//   [[figure]]         at most one: file (stem), title, models (names), n (list), convention
//                      ("all", "mul", "mac" or "cotrans")
#pragma once

#include <filesystem>

#include "analysis/model_report.hpp"

namespace cosda {

// Throws InputError (one line: file, key, fix) for any problem.
ModelConfig load_model_config(const std::filesystem::path& path);

// Reads report.toml and every model file next to it; checks that ids, names and references
// are unique and resolve.
ReportConfig load_report_config(const std::filesystem::path& report_toml);

}  // namespace cosda
