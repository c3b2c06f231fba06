#include "io/plot.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "io/atomic_file.hpp"
#include "io/errors.hpp"
#include "io/output_transaction.hpp"

namespace cosda {
namespace {

namespace fs = std::filesystem;

// Control characters would end a gnuplot command (line breaks) or garble it.
std::string printable(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    out += b < 0x20 || b == 0x7f ? ' ' : c;
  }
  return out;
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

std::string read_all(std::FILE* f) {
  std::string out;
  std::rewind(f);
  char buf[4096];
  std::size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, got);
  return out;
}

}  // namespace

std::string datablock(const std::string& name, const std::vector<std::vector<std::string>>& rows) {
  std::string s = "$" + name + " << EOD\n";
  for (const auto& r : rows) {
    for (std::size_t i = 0; i < r.size(); ++i) s += (i ? " " : "") + r[i];
    s += "\n";
  }
  return s + "EOD\n";
}

std::string gp_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : printable(s)) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string gp_comment(const std::string& s) { return printable(s); }

void drop_pdf_creation_date(const fs::path& pdf) {
  const File in(std::fopen(pdf.c_str(), "rb"), &std::fclose);
  if (!in) throw std::runtime_error("cannot read " + pdf.string() + " to drop its date");
  std::string text = read_all(in.get());
  const std::string key = "/CreationDate (";
  const std::size_t at = text.find(key), end = text.find(')', at + key.size());
  if (at == std::string::npos || end == std::string::npos) return;
  text.replace(at, end + 1 - at, end + 1 - at, ' ');
  write_file_atomic(pdf, text);
}

bool gnuplot_available() {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const fs::path dir = end > start ? fs::path(dirs.substr(start, end - start)) : fs::path(".");
    const fs::path candidate = dir / "gnuplot";
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0)
      return true;
    start = end + 1;
  }
  return false;
}

GnuplotRun run_gnuplot(const fs::path& workdir, const std::vector<std::string>& args,
                       const std::string& script) {
  GnuplotRun result;
  // The script and the output go through unnamed temporary files: no pipe can fill up.
  File in(std::tmpfile(), &std::fclose), out(std::tmpfile(), &std::fclose);
  if (!in || !out) {
    result.output = "cannot create a temporary file for gnuplot";
    return result;
  }
  if (std::fwrite(script.data(), 1, script.size(), in.get()) != script.size() ||
      std::fflush(in.get()) != 0 || std::fseek(in.get(), 0, SEEK_SET) != 0) {
    result.output = "cannot write the gnuplot script to a temporary file";
    return result;
  }
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  std::string name = "gnuplot";
  argv.push_back(name.data());
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.output = "cannot start gnuplot: fork failed";
    return result;
  }
  if (pid == 0) {
    // gnuplot dies with cosda: killed, cosda leaves its stage folder to the next run, which
    // removes it, and a gnuplot left running could still be writing into it.
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(125);
    const int fd_out = ::fileno(out.get());
    if (::dup2(::fileno(in.get()), STDIN_FILENO) < 0 || ::dup2(fd_out, STDOUT_FILENO) < 0 ||
        ::dup2(fd_out, STDERR_FILENO) < 0)
      ::_exit(127);
    if (!workdir.empty() && ::chdir(workdir.c_str()) != 0) ::_exit(126);
    ::execvp("gnuplot", argv.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.output = read_all(out.get());
  return result;
}

std::string png_script(const std::string& png, const std::string& body, int width, int height) {
  return fmt::format("set terminal pngcairo size {},{} font 'Sans,11' noenhanced\nset output {}\n",
                     width, height, gp_quote(png)) +
         body;
}

void render_png(const std::filesystem::path& png, const std::string& body, int width, int height) {
  const fs::path dir = png.parent_path().empty() ? fs::path(".") : png.parent_path();
  fs::create_directories(dir);
  maybe_inject_failure(png);
  const std::string tmp = fmt::format(".{}.tmp.{}.png", png.filename().string(), ::getpid());
  const GnuplotRun run = run_gnuplot(dir, {}, png_script(tmp, body, width, height));
  std::error_code ec;
  std::string why;
  if (run.status == 127)
    why = "gnuplot not found; install gnuplot-nox (make deps)";
  else if (run.status != 0)
    why = "gnuplot exited with status " + std::to_string(run.status);
  else if (!fs::is_regular_file(dir / tmp, ec) || fs::file_size(dir / tmp, ec) == 0)
    why = "gnuplot wrote no image";
  else
    why = incomplete_reason(dir / tmp);
  if (!why.empty()) {
    fs::remove(dir / tmp, ec);
    const std::string said = one_line(run.output);
    throw std::runtime_error("cannot write " + png.string() + ": " + why +
                             (said.empty() || run.status == 127 ? "" : "; gnuplot said: " + said));
  }
  check_output_file(png);
  fs::rename(dir / tmp, png);
  write_file_atomic(fs::path(png).replace_extension(".gp"),
                    png_script(png.filename().string(), body, width, height));
}

void require_gnuplot(const std::string& command, const std::string& without) {
  if (!gnuplot_available())
    throw InputError("cosda " + command +
                     ": gnuplot is not on PATH, and the figures need it; install gnuplot-nox "
                     "(make deps)" +
                     (without.empty() ? "" : ", or " + without));
}

}  // namespace cosda
