// A text or a file as its lines (without their '\n'), for the views and models that show or
// compare text line by line.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace warpsim {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// An unreadable file has no lines.
inline std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace warpsim
