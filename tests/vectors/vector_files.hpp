// Test helpers: scratch files under the build tree, and running the checker on them.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "vectors_report.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim::test {

inline std::string data_file(const std::string& name) {
  return std::string(WARPSIM_SOURCE_DIR) + "/tests/vectors/data/" + name;
}

inline std::string scratch_file(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(WARPSIM_BINARY_DIR) / "tests" / "vectors" / "scratch";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

inline std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = scratch_file(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

struct CheckResult {
  int status = 0;
  std::string out, err;
  std::string last_line() const {
    const auto end = out.find_last_not_of('\n');
    const auto start = out.rfind('\n', end);
    return out.substr(start == std::string::npos ? 0 : start + 1,
                      end - (start == std::string::npos ? 0 : start + 1) + 1);
  }
};

inline CheckResult check(const std::vector<std::string>& paths) {
  std::ostringstream out, err;
  CheckResult r;
  const VectorCheck result = check_vector_files(paths);
  cli::write_vector_check(out, err, result);
  r.status = result.exit_status();
  r.out = out.str();
  r.err = err.str();
  return r;
}

inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace warpsim::test
