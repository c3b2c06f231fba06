// The resume journal of a sweep (<dir>/.points.journal).
//
//   cosda-journal 2 <config hash> <build hash>     ties it to the config text and the build
//   config <the config text, \ and line breaks escaped>
//   <point hash>,<row checksum>,<the point's points.csv row>    one per finished point
//
// The point hash is FNV-1a of the point, the config text and the build; the row checksum is
// FNV-1a of the row's text, so a damaged or edited row is found rather than trusted.
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

// What is wrong with a row that no measurement can produce ("" if nothing): flops is the sum
// of mul, add, div, exp and other; a landmark-update step's flops are there exactly when the
// cycle had update steps, and at most cycle_steps steps updated; a skipped point has no counts.
std::string row_defect(const SweepRow& r);

// Rows of an earlier run's journal, by point_key(); a last line cut short by a kill is left
// out (that point runs again). Throws InputError ("cosda sweep: ...", one line) when the
// journal belongs to another config text (naming the first key that changed) or another
// build, and naming file and line for a row whose checksum, point hash or invariants
// (row_defect()) fail; each message says to run with --fresh to start over.
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
