#include "precompiled_shim.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

#include "content_hash.hpp"
#include "kernel_compiler.hpp"
#include "subprocess.hpp"

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {

// Each build is 70-90 MB; the least recently used beyond this many are removed, unless used
// within the last hour (the kernel cache's rule, CacheLimits::keep_recent_seconds): a session
// that alternates more variants (architectures, memory checks, programs, the scans' own) would
// otherwise rebuild them in turn, and a build in use by another compile would go from under it.
constexpr std::size_t kKeptHeaders = 6;
constexpr auto kKeptRecent = std::chrono::hours(1);

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

}  // namespace

std::size_t prune_precompiled_shims(const std::string& pch_root) {
  std::vector<std::pair<fs::file_time_type, fs::path>> builds;
  std::error_code error;
  for (auto it = fs::directory_iterator(pch_root, error);
       !error && it != fs::directory_iterator(); it.increment(error)) {
    if (it->is_directory(error)) builds.emplace_back(it->last_write_time(error), it->path());
  }
  if (builds.size() <= kKeptHeaders) return 0;
  std::sort(builds.begin(), builds.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  const fs::file_time_type recent = fs::file_time_type::clock::now() - kKeptRecent;
  std::size_t removed = 0;
  for (std::size_t i = kKeptHeaders; i < builds.size(); ++i) {
    if (builds[i].first < recent && fs::remove_all(builds[i].second, error) > 0) ++removed;
  }
  return removed;
}

std::string precompiled_shim_dir(const Toolchain& toolchain, const std::string& version,
                                 const std::vector<std::string>& header_flags,
                                 const std::string& shim_digest) {
  const char* opt_out = std::getenv("WARPSIM_NO_PCH");
  if (opt_out != nullptr && *opt_out != '\0') return {};
  if (version.find("clang") != std::string::npos) return {};

  ContentHash key;
  key.add("pch").add(toolchain.compiler_path).add(version).add(shim_digest);
  for (const std::string& word : toolchain.compiler) key.add(word);
  for (const std::string& flag : header_flags) key.add(flag);
  const std::string root = toolchain.cache_dir + "/pch";
  const std::string dir = root + "/" + key.hex();
  const std::string header = dir + "/warpsim/cuda_shim.hpp.gch";
  const std::string failed = dir + ".failed";
  if (exists(header)) {
    ::utimensat(AT_FDCWD, dir.c_str(), nullptr, 0);  // a use, for prune_precompiled_shims' order
    return dir;
  }
  if (exists(failed)) return {};

  // A program's files compile on several threads: one builds, the others wait and use it.
  static std::mutex building;
  const std::lock_guard<std::mutex> lock(building);
  if (exists(header)) return dir;
  if (exists(failed)) return {};
  std::error_code error;
  fs::create_directories(dir + "/warpsim", error);
  if (error) return {};
  // The header itself beside its precompiled form: GCC takes the folder where it found the .gch
  // as the header's, so a second #include of the shim (a user's, or a shim header's) reads it
  // there, and skips it as already included (#pragma once).
  const std::string beside = dir + "/warpsim/cuda_shim.hpp";
  if (!exists(beside)) {
    fs::create_symlink(toolchain.shim_dir + "/warpsim/cuda_shim.hpp", beside, error);
    if (error && !exists(beside)) return {};
  }
  // Built from a one-line file that includes the shim, so that the shim is an included header (its
  // #pragma once as in any compile), under a name of this process: several processes may build
  // the same header at once; the last rename wins, each complete.
  const std::string suffix = temporary_suffix();
  const std::string source = dir + "/source" + suffix + ".hpp";
  const std::string temporary = header + suffix;
  {
    std::ofstream out(source, std::ios::trunc);
    out << "#include <warpsim/cuda_shim.hpp>\n";
    if (!out.flush()) return {};
  }
  std::vector<std::string> argv = toolchain.compiler;
  argv.insert(argv.end(), header_flags.begin(), header_flags.end());
  for (const std::string& arg : {std::string("-x"), std::string("c++-header"), std::string("-o"),
                                 temporary, source}) {
    argv.push_back(arg);
  }
  const ProcessOutput run = run_process(argv);
  std::remove(source.c_str());
  if (!run.started || run.exit_code != 0 || std::rename(temporary.c_str(), header.c_str()) != 0) {
    std::remove(temporary.c_str());
    // Not retried on every compile: the compile reads the header itself, as without this.
    std::ofstream(failed, std::ios::trunc) << run.output;
    return {};
  }
  prune_precompiled_shims(root);
  return dir;
}

}  // namespace warpsim::runner
