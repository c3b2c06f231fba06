// cosda merge: joins the folders of `cosda sweep CONFIG --shard K/N`, K = 1..N, into one
// results folder, as if the sweep had run on one machine.
#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>

#include "io/atomic_file.hpp"
#include "sweeps/args.hpp"
#include "sweeps/commands.hpp"
#include "sweeps/config.hpp"
#include "sweeps/report.hpp"
#include "sweeps/sweep.hpp"

namespace cosda {
namespace {

std::string read_text(const std::filesystem::path& path, const std::string& what_to_do) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cosda merge: " + path.string() + " not found; " + what_to_do);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The string value of a top-level key of a meta.json written by meta_json().
std::string json_string_field(const std::string& json, const std::string& key,
                              const std::filesystem::path& source) {
  const std::string tag = "\"" + key + "\": \"";
  const std::size_t at = json.find(tag);
  if (at == std::string::npos)
    throw InputError("cosda merge: " + source.string() + " has no \"" + key +
                     "\"; it was not written by cosda sweep --shard, rerun that shard");
  std::string out;
  for (std::size_t i = at + tag.size(); i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') return out;
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= json.size()) break;
    switch (json[i]) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'u':
        if (i + 4 < json.size()) {
          out += static_cast<char>(std::stoi(json.substr(i + 1, 4), nullptr, 16));
          i += 4;
        }
        break;
      default:
        out += json[i];
    }
  }
  throw InputError("cosda merge: " + source.string() + ": \"" + key +
                   "\" is cut short; rerun that shard");
}

}  // namespace

int cmd_merge(const Argv& argv) {
  Args a("merge",
         {{"out", "DIR", "results root; the merged files go to DIR/<name>/ (default results)"},
          {"no-report", "", "write points.csv and meta.json only (no table.md, no figures)"}},
         argv);
  if (a.help()) {
    fmt::print(
        "usage: cosda merge SHARD_DIR... [--out DIR] [--no-report]\n"
        "Joins the folders written by cosda sweep CONFIG --shard K/N for K = 1..N into\n"
        "DIR/<name>/ (points.csv in grid order, meta.json, and unless --no-report table.md and\n"
        "the figures), exactly what one unsharded sweep writes. Refuses shards of different\n"
        "configs or builds, a shard given twice, overlapping rows and a missing shard.\n\n{}",
        a.usage());
    return 0;
  }
  if (a.positional().empty())
    throw InputError(
        "cosda merge: give the shard folders, e.g. cosda merge results/nystrom_fig4/shard-*-of-4");

  std::string config_text, config_file;
  int shards = 0;
  std::map<int, std::filesystem::path> seen;
  std::vector<SweepRow> rows;
  std::vector<int> row_shard;
  for (const std::string& d : a.positional()) {
    const std::filesystem::path dir(d);
    const std::string meta =
        read_text(dir / "meta.json", "give folders written by cosda sweep CONFIG --shard K/N");
    const std::string text = json_string_field(meta, "config_text", dir / "meta.json");
    const std::string file = json_string_field(meta, "config_file", dir / "meta.json");
    const std::string shard_text = json_string_field(meta, "shard", dir / "meta.json");
    const Shard s = parse_shard(shard_text);
    if (config_text.empty()) {
      config_text = text;
      config_file = file;
      shards = s.n;
    } else if (text != config_text) {
      throw InputError("cosda merge: " + d + " was swept from another config than " +
                       seen.begin()->second.string() + "; merge shards of one config only");
    } else if (s.n != shards) {
      throw InputError(fmt::format(
          "cosda merge: {} is shard {}/{} but {} is of {} shards; merge one sharding only", d, s.k,
          s.n, seen.begin()->second.string(), shards));
    }
    if (auto it = seen.find(s.k); it != seen.end())
      throw InputError(fmt::format("cosda merge: shard {}/{} given twice ({} and {}); give it once",
                                   s.k, s.n, it->second.string(), d));
    seen[s.k] = dir;
    const std::filesystem::path csv = dir / "points.csv";
    for (SweepRow& r : read_points_csv(read_text(csv, "rerun that shard"), csv.string())) {
      rows.push_back(std::move(r));
      row_shard.push_back(s.k);
    }
  }
  for (int k = 1; k <= shards; ++k)
    if (!seen.count(k))
      throw InputError(fmt::format(
          "cosda merge: shard {}/{} is missing; run cosda sweep {} --shard {}/{} and add its "
          "folder",
          k, shards, config_file, k, shards));

  const SweepConfig c = parse_config(config_text, config_file);
  const std::vector<Point> grid = grid_points(c);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < grid.size(); ++i) index[point_key(grid[i])] = i;
  std::vector<std::optional<SweepRow>> merged(grid.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string key = point_key(rows[r].point);
    const auto it = index.find(key);
    const Shard owner{row_shard[r], shards};
    if (it == index.end() || !owner.holds(it->second))
      throw InputError(
          fmt::format("cosda merge: {} holds point {}, which is not in its slice of "
                      "{}; rerun that shard",
                      seen[row_shard[r]].string(), key, config_file));
    if (merged[it->second])
      throw InputError(fmt::format("cosda merge: point {} appears twice in {}; rerun that shard",
                                   key, seen[row_shard[r]].string()));
    merged[it->second] = std::move(rows[r]);
  }
  std::vector<SweepRow> out;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (!merged[i])
      throw InputError(
          fmt::format("cosda merge: point {} of shard {}/{} is missing from {}; "
                      "rerun that shard",
                      point_key(grid[i]), int(i % std::size_t(shards)) + 1, shards,
                      seen[int(i % std::size_t(shards)) + 1].string()));
    out.push_back(std::move(*merged[i]));
  }

  const std::filesystem::path dir =
      std::filesystem::path(a.get("out").value_or("results")) / c.name;
  write_file_atomic(dir / "points.csv", points_csv(out));
  write_file_atomic(dir / "meta.json", meta_json(c, 0, 0.0));
  fmt::print("{}: {} points from {} shards -> {}\n", c.name, out.size(), shards,
             (dir / "points.csv").string());
  if (!a.has("no-report")) {
    const ReportFiles files = write_report(c, out, dir);
    for (const auto& f : files.written)
      if (f.extension() != ".gp") fmt::print("  {}\n", f.string());
    if (!files.note.empty()) fmt::print(stderr, "cosda merge: {}\n", files.note);
  }
  return 0;
}

}  // namespace cosda
