// Runs the real `cosda` executable (COSDA_BIN; or another, `bin`) in a child process, as a user
// would, for the CLI tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cosda::test {

// A verification config small enough for a CLI test: configs/verification.toml's sections, a
// point or two each, no paper tables.
inline constexpr const char* kSmallVerifyConfig = R"([exact]
n = [3]
d = [2]
m = [2]
heads = [1]
[compare]
nystrom = [[8, 4, 3]]
cotrans = [[6, 4]]
[orders]
n = [8, 16]
n_at = [2, 2]
d = [4, 8]
d_at = [8, 2]
m = [2, 4]
m_at = [8, 2]
[paper]
tables = false
)";

struct Outcome {
  int status = -1;
  std::string out, err;
};

inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void write(const std::filesystem::path& p, const std::string& text) {
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Starts `bin args...` in `cwd` with stdout and stderr to the files `out` and `err`.
inline pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                   const std::filesystem::path& out, const std::filesystem::path& err,
                   const std::string& bin = COSDA_BIN) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    std::string path = bin;
    argv.push_back(path.data());
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    FILE* o = std::fopen(out.c_str(), "w");
    FILE* e = std::fopen(err.c_str(), "w");
    if (o == nullptr || e == nullptr || chdir(cwd.c_str()) != 0) _exit(126);
    dup2(fileno(o), STDOUT_FILENO);
    dup2(fileno(e), STDERR_FILENO);
    execv(path.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

// `bin args...` run inside `scratch`; stdout and stderr go through files outside it, or stdout to
// `stdout_to` where given (/dev/full: a full disk), leaving Outcome::out empty.
inline Outcome run(const std::vector<std::string>& args, const std::filesystem::path& scratch,
                   const std::string& bin = COSDA_BIN,
                   const std::filesystem::path& stdout_to = {}) {
  const std::filesystem::path base = scratch.parent_path() / scratch.filename();
  const std::filesystem::path out =
      stdout_to.empty() ? std::filesystem::path(base.string() + ".stdout") : stdout_to;
  const std::filesystem::path err = base.string() + ".stderr";
  const pid_t pid = spawn(args, scratch, out, err, bin);
  int status = 0;
  waitpid(pid, &status, 0);
  Outcome r;
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (stdout_to.empty()) {
    r.out = read(out);
    std::filesystem::remove(out);
  }
  r.err = read(err);
  std::filesystem::remove(err);
  return r;
}

}  // namespace cosda::test
