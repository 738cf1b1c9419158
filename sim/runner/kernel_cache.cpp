#include <sys/stat.h>

#include <ctime>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace fs = std::filesystem;

namespace {

// One compiled source: every file of the folder whose name starts with its hash.
struct Entry {
  std::vector<fs::path> files;
  std::uint64_t bytes = 0;
  std::int64_t last_use = 0;  // seconds: the newest modification time of its files
  bool leftover = false;      // only temporaries of an interrupted compile
};

std::int64_t modified_seconds(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return static_cast<std::int64_t>(info.st_mtim.tv_sec);
}

std::int64_t now_seconds() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec);
}

}  // namespace

CachePruning prune_kernel_cache(const std::string& kernels_dir, const CacheLimits& limits) {
  std::map<std::string, Entry> entries;  // by hash
  std::error_code error;
  for (auto it = fs::directory_iterator(kernels_dir, error);
       !error && it != fs::directory_iterator(); it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    const std::string name = it->path().filename().string();
    const std::string hash = name.substr(0, name.find('.'));
    Entry& e = entries[hash];
    const bool temporary = name.find(".tmp.") != std::string::npos;
    e.leftover = e.files.empty() ? temporary : e.leftover && temporary;
    e.files.push_back(it->path());
    e.bytes += static_cast<std::uint64_t>(it->file_size(error));
    e.last_use = std::max(e.last_use, modified_seconds(it->path()));
  }

  CachePruning result;
  std::vector<Entry*> by_age;
  for (auto& [hash, e] : entries) {
    result.remaining += e.bytes;
    by_age.push_back(&e);
  }
  std::sort(by_age.begin(), by_age.end(),
            [](const Entry* a, const Entry* b) { return a->last_use < b->last_use; });
  const std::int64_t recent = now_seconds() - limits.keep_recent_seconds;
  for (Entry* e : by_age) {
    if (e->last_use >= recent) break;  // sorted: every later entry is as recent
    if (!e->leftover && result.remaining <= limits.max_bytes) continue;
    for (const fs::path& file : e->files) fs::remove(file, error);
    ++result.removed;
    result.freed += e->bytes;
    result.remaining -= e->bytes;
  }
  return result;
}

}  // namespace warpsim::runner
