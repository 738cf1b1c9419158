// The shim's kernel files compile with every host compiler found here (g++, clang++ and their
// versioned names): each file through the shim alone, and one that includes every standard header
// after the CUDA headers end to end through `warpsim run` (WARPSIM_CXX picks the compiler).
#include <doctest/doctest.h>

#include "support/run_warpsim.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kSource = WARPSIM_SOURCE_DIR;
const fs::path kKernels = kSource / "tests/shim/kernels";
const fs::path kKernel = kKernels / "std_headers.cu";

// Every kernel file of the shim suites that is meant to compile (needs_sm80.cu only for sm_80 and later, which is the default).
std::vector<fs::path> kernel_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kKernels)) {
    if (entry.path().extension() == ".cu") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// `name` on $PATH, or "" when it is not there.
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

// Every distinct C++ compiler installed under the usual names.
std::vector<std::string> installed_compilers() {
  std::vector<std::string> found;
  std::set<fs::path> seen;
  std::vector<std::string> names{"c++", "g++", "clang++"};
  for (int v = 11; v <= 20; ++v) {
    names.push_back("g++-" + std::to_string(v));
    names.push_back("clang++-" + std::to_string(v));
  }
  for (const std::string& name : names) {
    const std::string path = find_on_path(name);
    if (path.empty()) continue;
    std::error_code error;
    const fs::path real = fs::canonical(path, error);
    if (!error && seen.insert(real).second) found.push_back(path);
  }
  return found;
}

// The toolkit's include folders after the system's, as warpsim's own compiles add them where a
// CUDA toolkit is installed (the fp8 types come from it: kernels/llm_headers.cu).
fs::path toolkit_include() {
  const char* home = std::getenv("CUDA_HOME");
  const fs::path include = fs::path(home != nullptr && *home != '\0' ? home : "/usr/local/cuda") / "include";
  std::error_code error;
  return fs::is_directory(include, error) ? include : fs::path();
}

std::vector<std::string> with_toolkit(std::vector<std::string> argv) {
  const fs::path include = toolkit_include();
  if (include.empty()) return argv;
  const auto at = argv.begin() + 1;
  argv.insert(at, {"-idirafter", (include / "cccl").string(), "-idirafter", include.string()});
  return argv;
}

}  // namespace

TEST_CASE("every kernel file of the shim suites compiles with each installed compiler") {
  const std::vector<std::string> compilers = installed_compilers();
  REQUIRE(!compilers.empty());
  const std::vector<fs::path> files = kernel_files();
  REQUIRE(std::find(files.begin(), files.end(), kKernel) != files.end());
  for (const std::string& compiler : compilers) {
    for (const fs::path& file : files) {
      CAPTURE(compiler);
      CAPTURE(file);
      if (file.filename() == "llm_headers.cu") {
        // Its host code sets cudaLaunchConfig_t's gridDim, which only warpsim's source rewrite
        // (the runner) tells from the built-in; shim_headers_test compiles it through warpsim.
        continue;
      }
      const auto run = warpsim::test::run_process(
          with_toolkit({compiler, "-std=c++17", "-fsyntax-only", "-x", "c++",
                        "-I" + (kSource / "sim/shim").string(),
                        "-I" + (fs::path(WARPSIM_BINARY_DIR) / "include").string(), "-include",
                        "warpsim/cuda_shim.hpp", file.string()}),
          fs::temp_directory_path() / "warpsim-host-compilers-test");
      CHECK_MESSAGE(run.exit_code == 0, run.err.substr(0, 4000));
    }
    MESSAGE("compiled " << files.size() << " kernel files with " << compiler);
  }
}

TEST_CASE("warpsim run compiles and runs that kernel file with each installed compiler") {
  for (const std::string& compiler : installed_compilers()) {
    CAPTURE(compiler);
    const auto run = warpsim::test::run_process(
        {WARPSIM_CLI_PATH, "run", kKernel.string(), "--kernel", "tile_sums", "--grid", "1",
         "--block", "32", "--arg", "i32[32]:iota", "--arg", "i32[32]:zeros", "--json"},
        fs::temp_directory_path() / "warpsim-host-compilers-run", {"WARPSIM_CXX=" + compiler});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err.substr(0, 4000));
    const json result = json::parse(run.out);
    const json& out = result["buffers"][1]["values"];
    CHECK(out[0] == 2 * 28 + 7);     // tile 0..7: sum 28, largest 7
    CHECK(out[31] == 2 * 220 + 31);  // tile 24..31: sum 220, largest 31
  }
}
