// The resume journal of a sweep (<dir>/.points.journal). Its first line ties it to the config
// text and this build's executable; each finished point is then one line: a hash of the point,
// the config text and the build, and the point's points.csv row.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "sweeps/config.hpp"
#include "sweeps/points.hpp"

namespace cosda {

// Identity of a point for the journal and for merging shards.
std::string point_key(const Point& p);
// 64-bit FNV-1a of this build's executable file (read once).
std::uint64_t build_hash();

// Rows of an earlier run's journal that belong to this config and build, by point_key();
// lines cut short by a kill and damaged lines are left out (those points run again).
std::map<std::string, SweepRow> read_journal(const SweepConfig& c,
                                             const std::filesystem::path& path);

// A journal being written: created (atomically) with the rows kept from an earlier run, then
// appended to one flushed line per finished point.
class JournalWriter {
 public:
  JournalWriter(const SweepConfig& c, const std::filesystem::path& path,
                const std::vector<const SweepRow*>& kept);
  void append(const SweepRow& r);

 private:
  const SweepConfig& config_;
  std::ofstream out_;
};

}  // namespace cosda
