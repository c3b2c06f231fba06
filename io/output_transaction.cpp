#include "io/output_transaction.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

std::string errno_text(int error) { return std::generic_category().message(error); }

// "a/b/" and "a/./b" as "a/b", so that the stage's name and the swap see one folder.
fs::path normal(const fs::path& p) {
  fs::path n = p.lexically_normal();
  if (!n.has_filename() && n.has_parent_path()) n = n.parent_path();
  return n;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  if (from.empty()) return s;
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// The last bytes of a file (at most `n`).
std::string tail(const fs::path& path, std::size_t n) {
  const std::string text = read_file(path).value_or("");
  return text.substr(text.size() - std::min(n, text.size()));
}

// Removes stages of `target` whose run no longer exists (killed before or just after the swap).
void remove_stale_stages(const fs::path& target) {
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const std::string prefix = "." + target.filename().string() + ".stage.";
  std::error_code ec;
  std::vector<fs::path> stale;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)) continue;
    stale.push_back(it->path());
  }
  for (const fs::path& p : stale) fs::remove_all(p, ec);
}

// `dst` as a copy of `src` (a file, link or folder tree), by hard links where the file system
// allows them: every output is replaced by rename, never rewritten in place.
void bring_over(const fs::path& src, const fs::path& dst, const fs::path& shown) {
  std::error_code ec;
  constexpr auto tree = fs::copy_options::recursive | fs::copy_options::copy_symlinks;
  fs::copy(src, dst, tree | fs::copy_options::create_hard_links, ec);
  if (!ec) return;
  fs::remove_all(dst, ec);
  ec.clear();
  fs::copy(src, dst, tree, ec);
  if (ec)
    throw std::runtime_error(one_line("cannot write " + shown.string() + ": keeping its entry " +
                                      src.filename().string() + ": " + ec.message()));
}

// Swaps two existing folders in one step; falls back to two renames where the file system
// lacks RENAME_EXCHANGE (the target is then briefly absent, never half-written).
int exchange(const fs::path& stage, const fs::path& target) {
#ifdef RENAME_EXCHANGE
  if (::renameat2(AT_FDCWD, stage.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
#endif
  const fs::path aside = stage.string() + ".old";
  if (::rename(target.c_str(), aside.c_str()) != 0) return errno;
  if (::rename(stage.c_str(), target.c_str()) != 0) {
    const int error = errno;
    (void)::rename(aside.c_str(), target.c_str());
    return error;
  }
  (void)::rename(aside.c_str(), stage.c_str());  // the old folder, removed by the caller
  return 0;
}

}  // namespace

std::string incomplete_reason(const fs::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".png") {
    // The IEND chunk: length 0, type, CRC ae426082.
    static const std::string kIend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
    if (tail(path, 12) != kIend) return "the PNG is incomplete (no IEND chunk at its end)";
  } else if (ext == ".pdf") {
    if (tail(path, 1024).find("%%EOF") == std::string::npos)
      return "the PDF is incomplete (no %%EOF trailer)";
  }
  return {};
}

void maybe_inject_failure(const fs::path& path) {
  const char* at = std::getenv("COSDA_FAIL_AT");
  if (at != nullptr && *at != '\0' && path.filename() == at)
    throw std::runtime_error("cannot write " + path.string() +
                             ": injected failure (COSDA_FAIL_AT), as a full disk would fail");
}

OutputTransaction::OutputTransaction(const fs::path& target)
    : shown_(normal(target)), target_(normal(fs::absolute(target))) {  // "." has no parent
  check_output_dir(shown_);
  std::error_code ec;
  if (fs::is_symlink(target_, ec)) target_ = fs::canonical(target_);  // swap the folder itself
  // The folder is replaced as a whole: a shell inside it would be left in a deleted folder.
  const fs::path here = fs::current_path(ec), swapped = fs::canonical(target_, ec);
  if (!ec && std::mismatch(swapped.begin(), swapped.end(), here.begin(), here.end()).first ==
                 swapped.end())
    throw InputError("cannot write into " + shown_.string() +
                     ": the output folder is replaced as a whole, and you are in it; give "
                     "another output folder, or run from outside it");
  remove_stale_stages(target_);
}

void OutputTransaction::check_files(const std::vector<std::string>& names) const {
  for (const std::string& name : names) check_output_file(shown_ / name);
}

OutputTransaction::~OutputTransaction() {
  if (committed_ || stage_.empty()) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

void OutputTransaction::stage(const std::function<void(const fs::path&)>& write) {
  if (stage_.empty()) {
    static std::atomic<unsigned> counter{0};
    const fs::path parent = target_.parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    const fs::path name = "." + target_.filename().string() + ".stage." +
                          std::to_string(::getpid()) + "." + std::to_string(counter++);
    stage_ = parent / name;
    if (ec || ::mkdir(stage_.c_str(), 0777) != 0) {
      const int error = ec ? ec.value() : errno;
      stage_.clear();
      throw std::runtime_error("cannot write into " + shown_.string() +
                               ": creating its stage folder: " + errno_text(error));
    }
  }
  try {
    write(stage_);
  } catch (const InputError& e) {
    throw InputError(replace_all(e.what(), stage_.string(), shown_.string()));
  } catch (const std::exception& e) {
    throw std::runtime_error(replace_all(e.what(), stage_.string(), shown_.string()));
  }
}

void OutputTransaction::commit(const std::set<std::string>& drop) {
  if (committed_) throw std::logic_error("OutputTransaction::commit called twice");
  if (stage_.empty()) stage([](const fs::path&) {});
  for (const auto& e : fs::recursive_directory_iterator(stage_)) {
    if (!e.is_regular_file()) continue;
    const fs::path shown = shown_ / fs::relative(e.path(), stage_);
    maybe_inject_failure(shown);
    check_output_file(shown);  // a read-only file or a folder in the way is refused
    if (const std::string why = incomplete_reason(e.path()); !why.empty())
      throw std::runtime_error("cannot write " + shown.string() + ": " + why);
    sync_path(e.path(), false);
  }
  bool exists = false;
  int error = 0;
  for (int tries = 0; tries < 2; ++tries) {  // a second try if another run publishes meanwhile
    struct stat st {};
    exists = ::stat(target_.c_str(), &st) == 0;
    if (exists) {
      for (const auto& e : fs::directory_iterator(target_)) {
        const std::string name = e.path().filename().string();
        std::error_code ec;
        if (drop.count(name) > 0 || fs::exists(fs::symlink_status(stage_ / name, ec))) continue;
        bring_over(e.path(), stage_ / name, shown_);
      }
      ::chmod(stage_.c_str(), st.st_mode & 07777);
    }
    sync_path(stage_, true);
    error = exists ? exchange(stage_, target_)
                   : (::rename(stage_.c_str(), target_.c_str()) ? errno : 0);
    if (exists || (error != ENOTEMPTY && error != EEXIST)) break;
  }
  if (error != 0)
    throw std::runtime_error("cannot write into " + shown_.string() +
                             ": moving the finished files into place: " + errno_text(error));
  committed_ = true;
  sync_path(target_.parent_path(), true);
  std::error_code ec;
  if (exists) fs::remove_all(stage_, ec);  // the stage's path now holds the old folder
}

}  // namespace cosda
