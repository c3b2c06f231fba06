#include "sweeps/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "sweeps/journal.hpp"
#include "sweeps/meta.hpp"
#include "sweeps/shard.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path, const std::string& what_to_do) {
  std::optional<std::string> text = read_file(path);
  if (!text) throw InputError("cosda merge: " + path.string() + " not found; " + what_to_do);
  return *text;
}

// The string value of a top-level key of a meta.json written by meta_json().
std::string json_string_field(const std::string& json, const std::string& key,
                              const fs::path& source) {
  if (auto v = meta_string(json, key)) return *v;
  throw InputError("cosda merge: " + source.string() + " has no \"" + key +
                   "\" (or it is cut short); it was not written by cosda sweep --shard, rerun "
                   "that shard");
}

// The shards read so far: one config and sharding, each shard once, and their rows.
struct Shards {
  std::string config_text, config_file;
  int count = 0;
  std::map<int, fs::path> seen;  // shard K -> its folder
  std::vector<SweepRow> rows;
  std::vector<int> row_shard;  // the K each row came from
};

// For a folder that is not a shard: the shard folders in it, up to two levels down (a sweep's
// --out holds NAME/shard-K-of-N), as a hint.
std::string shards_below(const fs::path& dir) {
  std::vector<std::string> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it.depth() >= 1) it.disable_recursion_pending();
    const std::string name = it->path().filename().string();
    if (name.starts_with("shard-") && fs::exists(it->path() / "meta.json"))
      found.push_back(it->path().string());
  }
  if (found.empty()) return "";
  std::sort(found.begin(), found.end());
  return fmt::format(" ({} holds {}{})", dir.string(), found.front(),
                     found.size() > 1 ? fmt::format(" and {} more", found.size() - 1) : "");
}

void add_shard(const std::string& d, Shards& s) {
  const fs::path dir(d);
  const std::string meta =
      read_text(dir / "meta.json",
                "give folders written by cosda sweep CONFIG --shard K/N" + shards_below(dir));
  const std::string text = json_string_field(meta, "config_text", dir / "meta.json");
  const std::string file = json_string_field(meta, "config_file", dir / "meta.json");
  const Shard shard = parse_shard(json_string_field(meta, "shard", dir / "meta.json"));
  if (s.config_text.empty()) {
    s.config_text = text;
    s.config_file = file;
    s.count = shard.n;
  } else if (text != s.config_text) {
    throw InputError("cosda merge: " + d + " was swept from another config than " +
                     s.seen.begin()->second.string() + "; merge shards of one config only");
  } else if (shard.n != s.count) {
    throw InputError(fmt::format(
        "cosda merge: {} is shard {}/{} but {} is of {} shards; merge one sharding only", d,
        shard.k, shard.n, s.seen.begin()->second.string(), s.count));
  }
  if (auto it = s.seen.find(shard.k); it != s.seen.end())
    throw InputError(fmt::format("cosda merge: shard {}/{} given twice ({} and {}); give it once",
                                 shard.k, shard.n, it->second.string(), d));
  s.seen[shard.k] = dir;
  const fs::path csv = dir / "points.csv";
  std::vector<SweepRow> rows = read_points_csv(read_text(csv, "rerun that shard"), csv.string());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    // Shards are checked by the rows' invariants (points.csv carries no checksum, so that a
    // shard's file stays what an unsharded sweep writes); row i is on line i + 2.
    if (const std::string defect = row_defect(rows[i]); !defect.empty())
      throw InputError(fmt::format("cosda merge: {}:{}: {}; the file is damaged, rerun that shard",
                                   csv.string(), i + 2, defect));
    s.rows.push_back(std::move(rows[i]));
    s.row_shard.push_back(shard.k);
  }
}

// The shards' rows in grid order, each grid point exactly once and from its own slice.
std::vector<SweepRow> in_grid_order(const std::vector<Point>& grid, Shards& s) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < grid.size(); ++i) index[point_key(grid[i])] = i;
  std::vector<std::optional<SweepRow>> merged(grid.size());
  for (std::size_t r = 0; r < s.rows.size(); ++r) {
    const std::string key = point_key(s.rows[r].point);
    const auto it = index.find(key);
    const Shard owner{s.row_shard[r], s.count};
    if (it == index.end() || !owner.holds(it->second))
      throw InputError(
          fmt::format("cosda merge: {} holds point {}, which is not in its slice of "
                      "{}; rerun that shard",
                      s.seen[s.row_shard[r]].string(), key, s.config_file));
    if (merged[it->second])
      throw InputError(fmt::format("cosda merge: point {} appears twice in {}; rerun that shard",
                                   key, s.seen[s.row_shard[r]].string()));
    merged[it->second] = std::move(s.rows[r]);
  }
  std::vector<SweepRow> out;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (!merged[i])
      throw InputError(
          fmt::format("cosda merge: point {} of shard {}/{} is missing from {}; "
                      "rerun that shard",
                      point_key(grid[i]), int(i % std::size_t(s.count)) + 1, s.count,
                      s.seen[int(i % std::size_t(s.count)) + 1].string()));
    out.push_back(std::move(*merged[i]));
  }
  return out;
}

}  // namespace

MergedSweep merge_shards(const std::vector<std::string>& dirs) {
  Shards s;
  for (const std::string& d : dirs) add_shard(d, s);
  for (int k = 1; k <= s.count; ++k)
    if (!s.seen.count(k))
      throw InputError(fmt::format(
          "cosda merge: shard {}/{} is missing; run cosda sweep {} --shard {}/{} and add its "
          "folder",
          k, s.count, s.config_file, k, s.count));
  MergedSweep m;
  m.config = parse_config(s.config_text, s.config_file);
  m.rows = in_grid_order(grid_points(m.config), s);
  m.shards = s.count;
  return m;
}

}  // namespace cosda
