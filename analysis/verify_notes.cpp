// The report's prose and open questions: analysis/verification_notes.md, compiled in, as entries.
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/verify_text.hpp"

namespace cosda::verify {

// Defined in the build tree from analysis/verification_notes.cpp.in.
std::string_view verification_notes_md();

namespace {

using Entries = std::map<std::string, std::vector<std::string>, std::less<>>;

// "## key" opens an entry; its lines join with single spaces into paragraphs, which blank
// lines separate. Text before the first entry and "<!--" comment lines are not entries.
Entries parse(std::string_view text) {
  Entries out;
  std::vector<std::string>* entry = nullptr;
  bool open = false;  // a paragraph is being joined
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    if (line.substr(0, 3) == "## ") {
      entry = &out[std::string(line.substr(3))];
      open = false;
    } else if (entry == nullptr || line.substr(0, 4) == "<!--") {
      continue;
    } else if (line.empty()) {
      open = false;
    } else if (open) {
      (entry->back() += ' ') += line;
    } else {
      entry->emplace_back(line);
      open = true;
    }
  }
  return out;
}

const Entries& entries() {
  static const Entries e = parse(verification_notes_md());
  return e;
}

}  // namespace

std::vector<std::string> note_list(std::string_view key) {
  const auto it = entries().find(key);
  return it == entries().end() ? std::vector<std::string>{} : it->second;
}

std::string note(std::string_view key) { return fmt::format("{}", fmt::join(note_list(key), " ")); }

std::vector<std::string> open_questions() {
  std::vector<std::string> keys;
  for (const std::string& q : note_list("open questions")) {
    const std::size_t colon = q.find(": ");
    if (colon == std::string::npos || q.find(' ') >= colon)
      throw std::logic_error(
          "analysis/verification_notes.md: an 'open questions' item does not read "
          "'<section> <key>: why'");
    keys.push_back(q.substr(0, colon));
  }
  return keys;
}

int unexplained_rows(const std::vector<Classified>& classes, const std::vector<std::string>& open) {
  int rows = 0;
  for (const Classified& c : classes)
    if (c.cls == "unexplained" &&
        std::find(open.begin(), open.end(), c.section + " " + c.key) == open.end())
      rows += c.rows;
  return rows;
}

std::string required_note(std::string_view key) {
  std::string s = note(key);
  if (s.empty())
    throw std::logic_error("analysis/verification_notes.md has no entry '" + std::string(key) +
                           "'");
  return s;
}

}  // namespace cosda::verify
