// The kinds of config cosda reads, each known by a top-level key no other kind has (drift and
// overflow configs only where they set an optional key of their own): a config given to the
// wrong command is refused with the command that reads it, not only a key error.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "io/errors.hpp"

namespace cosda {

// "; PATH looks like a drift config (it has key 'checkpoints'): run cosda drift PATH" where the
// TOML file at `path` holds another kind's key and none of `kind`'s ("sweep", "accuracy",
// "drift", "overflow", "verification", "model", "models report", "timing"); else "". Throws
// std::logic_error for a kind not in that list.
std::string other_kind_hint(std::string_view kind, const std::filesystem::path& path);

// load(path), a reader of `kind`'s configs; an InputError it throws gains other_kind_hint.
template <class Load>
auto read_config_as(std::string_view kind, const std::filesystem::path& path, Load load)
    -> decltype(load(path)) {
  try {
    return load(path);
  } catch (const InputError& e) {
    throw InputError(e.what() + other_kind_hint(kind, path));
  }
}

}  // namespace cosda
