// Test helper: reads the report texts (memory_plan.txt, network_info.txt) back into words, rows and names,
// so that tests compare every figure with the plan instead of with hard-coded text.
#pragma once

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace microaot::report_text {

using Words = std::vector<std::string>;

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

inline Words words_of(const std::string& line) {
  Words words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The lines after the first one starting with `header`, up to the first empty line.
inline std::vector<std::string> section(const std::string& text, const std::string& header) {
  std::vector<std::string> lines;
  bool inside = false;
  for (const std::string& line : lines_of(text)) {
    if (inside && line.empty()) break;
    if (inside) lines.push_back(line);
    if (!inside && line.compare(0, header.size(), header) == 0) inside = true;
  }
  return lines;
}

// memory_plan.txt's buffer table, one row of words per buffer.
inline std::vector<Words> table_rows(const std::string& text) {
  std::vector<Words> rows;
  for (const std::string& line : section(text, "buffer ")) rows.push_back(words_of(line));
  return rows;
}

// The summary: the lines before the first empty one, by label ("arena:" -> "9280 bytes"); a line without a
// label (a peak tensor, a further pool) is appended to the previous label's value after a newline.
inline std::map<std::string, std::string> summary(const std::string& text) {
  std::map<std::string, std::string> values;
  std::string label;
  for (const std::string& line : lines_of(text)) {
    if (line.empty()) break;
    const bool labelled = line[0] != ' ';
    if (labelled) label = line.substr(0, line.find(':') + 1);
    const size_t start = line.find_first_not_of(' ', labelled ? label.size() : 0);
    const std::string value = start == std::string::npos ? "" : line.substr(start);
    values[label] += (labelled ? "" : "\n") + value;
  }
  return values;
}

// The names table: tag ("t12") -> full name, continuation lines joined.
inline std::map<std::string, std::string> names_table(const std::string& text) {
  const std::vector<std::string> lines = section(text, "names ");
  size_t tag_width = 0;
  for (const std::string& line : lines) {
    if (line.size() > 2 && line[2] != ' ') tag_width = std::max(tag_width, line.find(' ', 2) - 2);
  }
  const size_t indent = 2 + tag_width + 2;
  std::map<std::string, std::string> names;
  std::string tag;
  for (const std::string& line : lines) {
    if (line.size() > 2 && line[2] != ' ') tag = line.substr(2, line.find(' ', 2) - 2);
    names[tag] += line.size() > indent ? line.substr(indent) : "";
  }
  return names;
}

}  // namespace microaot::report_text
