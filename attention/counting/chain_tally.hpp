// Multiplications per named product chain (docs/counting.md): while a ChainTally is installed on
// the thread, each ChainScope adds those executed inside it (counting policies only).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "attention/counting/op_counts.hpp"

namespace cosda {

struct ChainTally {
  std::map<std::string, std::int64_t> mul;  // chain name -> multiplications
};

// The tally of this thread's chains, or null when none is being recorded.
inline ChainTally*& thread_chain_tally() {
  thread_local ChainTally* tally = nullptr;
  return tally;
}

template <class E>
class ChainScope {
 public:
  explicit ChainScope(const char* name) {
    if constexpr (E::kCounting)
      if (thread_chain_tally() != nullptr) name_ = name, start_ = thread_counts().mul;
  }
  ~ChainScope() {
    if constexpr (E::kCounting)
      if (name_ != nullptr && thread_chain_tally() != nullptr)
        thread_chain_tally()->mul[name_] += thread_counts().mul - start_;
  }
  ChainScope(const ChainScope&) = delete;
  ChainScope& operator=(const ChainScope&) = delete;

 private:
  const char* name_ = nullptr;
  std::int64_t start_ = 0;
};

// Installs a tally on this thread for its lifetime.
class RecordChains {
 public:
  explicit RecordChains(ChainTally& t) : previous_(thread_chain_tally()) {
    thread_chain_tally() = &t;
  }
  ~RecordChains() { thread_chain_tally() = previous_; }
  RecordChains(const RecordChains&) = delete;
  RecordChains& operator=(const RecordChains&) = delete;

 private:
  ChainTally* previous_;
};

}  // namespace cosda
