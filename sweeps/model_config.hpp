// Whole-model configs (configs/models/*.toml, one model per file with the numbers the Continual
// Transformers paper prints for it) and their report.toml, read into analysis/model_report.hpp's
// types. Keys, defaults and ranges: docs/configs.md; any other key is an error naming file, line
// and allowed keys.
#pragma once

#include <filesystem>

#include "analysis/model_report.hpp"

namespace cosda {

// Throws InputError (one line: file, key, fix) for any problem.
ModelConfig load_model_config(const std::filesystem::path& path);

// Reads report.toml and every model file beside it; ids and names unique, references resolved.
ReportConfig load_report_config(const std::filesystem::path& report_toml);

}  // namespace cosda
