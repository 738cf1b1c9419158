#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include "runner/precompiled_shim.hpp"
#include "warpsim/runner.hpp"

namespace fs = std::filesystem;
using warpsim::runner::CacheLimits;
using warpsim::runner::prune_kernel_cache;

namespace {

// A scratch cache folder, removed at the end of the test.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    path = fs::temp_directory_path() / ("warpsim-cache-test-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
};

void write_file(const fs::path& path, std::size_t bytes, std::int64_t age_seconds) {
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
  struct timespec times[2];
  times[0].tv_sec = times[1].tv_sec = std::time(nullptr) - age_seconds;
  times[0].tv_nsec = times[1].tv_nsec = 0;
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

// One compiled kernel as compile_kernel leaves it: object, dependency manifest, source.
void write_entry(const fs::path& dir, const std::string& hash, std::size_t object_bytes,
                 std::int64_t age_seconds) {
  write_file(dir / (hash + ".so"), object_bytes, age_seconds);
  write_file(dir / (hash + ".deps"), 100, age_seconds);
  write_file(dir / (hash + ".cu"), 100, age_seconds);
}

constexpr std::int64_t kDay = 24 * 3600;

}  // namespace

TEST_CASE("the kernel cache drops its least recently used kernels down to its budget") {
  ScratchDir dir;
  write_entry(dir.path, "aaaa", 100000, 10 * kDay);
  write_entry(dir.path, "bbbb", 100000, 5 * kDay);
  write_entry(dir.path, "cccc", 100000, 2 * kDay);
  CacheLimits limits;
  limits.max_bytes = 250000;
  const auto pruned = prune_kernel_cache(dir.path.string(), limits);
  CHECK(pruned.removed == 1);
  CHECK(pruned.freed == 100200);
  CHECK(pruned.remaining == 200400);
  CHECK_FALSE(fs::exists(dir.path / "aaaa.so"));
  CHECK_FALSE(fs::exists(dir.path / "aaaa.deps"));
  CHECK_FALSE(fs::exists(dir.path / "aaaa.cu"));
  CHECK(fs::exists(dir.path / "bbbb.so"));
  CHECK(fs::exists(dir.path / "cccc.so"));

  SUBCASE("within budget, nothing more goes") {
    const auto again = prune_kernel_cache(dir.path.string(), limits);
    CHECK(again.removed == 0);
    CHECK(again.remaining == 200400);
  }
}

TEST_CASE("kernels used within the last hour stay, even over the budget") {
  ScratchDir dir;
  write_entry(dir.path, "old1", 100000, 3 * kDay);
  write_entry(dir.path, "new1", 100000, 60);
  write_entry(dir.path, "new2", 100000, 0);
  CacheLimits limits;
  limits.max_bytes = 1000;
  const auto pruned = prune_kernel_cache(dir.path.string(), limits);
  CHECK(pruned.removed == 1);
  CHECK_FALSE(fs::exists(dir.path / "old1.so"));
  CHECK(fs::exists(dir.path / "new1.so"));
  CHECK(fs::exists(dir.path / "new2.so"));
}

TEST_CASE("leftovers of interrupted compiles go once they are old, whatever the budget") {
  ScratchDir dir;
  write_entry(dir.path, "keep", 1000, 3 * kDay);
  write_file(dir.path / "dead.so.tmp.4242", 5000, 2 * kDay);
  write_file(dir.path / "live.so.tmp.4343", 5000, 10);  // a compile running right now
  write_file(dir.path / "keep.d.tmp.4444", 50, 2 * kDay);  // beside a complete entry: stays with it
  const auto pruned = prune_kernel_cache(dir.path.string(), CacheLimits{});
  CHECK(pruned.removed == 1);
  CHECK_FALSE(fs::exists(dir.path / "dead.so.tmp.4242"));
  CHECK(fs::exists(dir.path / "live.so.tmp.4343"));
  CHECK(fs::exists(dir.path / "keep.so"));
}

TEST_CASE("pruning a missing cache folder does nothing") {
  const auto pruned = prune_kernel_cache("/nonexistent/warpsim/kernels", CacheLimits{});
  CHECK(pruned.removed == 0);
  CHECK(pruned.remaining == 0);
}

TEST_CASE("precompiled shims: the six most recently used stay, and any used in the last hour") {
  const ScratchDir dir;
  constexpr std::int64_t kDay = 24 * 3600;
  // Eight builds used in the last minutes (a session alternating architectures), four a day old
  // or more.
  const auto build = [&](const std::string& name, std::int64_t age_seconds) {
    fs::create_directories(dir.path / name / "warpsim");
    write_file(dir.path / name / "warpsim" / "cuda_shim.hpp.gch", 10, age_seconds);
    struct timespec times[2];
    times[0].tv_sec = times[1].tv_sec = std::time(nullptr) - age_seconds;
    times[0].tv_nsec = times[1].tv_nsec = 0;
    REQUIRE(::utimensat(AT_FDCWD, (dir.path / name).c_str(), times, 0) == 0);
  };
  for (int i = 0; i < 8; ++i) build("recent" + std::to_string(i), 60 + i);
  for (int i = 0; i < 4; ++i) build("old" + std::to_string(i), kDay * (i + 1));
  // Twelve builds, eight of them recent: none of those goes, all four old ones do.
  CHECK(warpsim::runner::prune_precompiled_shims(dir.path.string()) == 4);
  for (int i = 0; i < 8; ++i) CHECK(fs::exists(dir.path / ("recent" + std::to_string(i))));
  for (int i = 0; i < 4; ++i) CHECK_FALSE(fs::exists(dir.path / ("old" + std::to_string(i))));
}

TEST_CASE("precompiled shims: old builds beyond the six most recently used go") {
  const ScratchDir dir;
  constexpr std::int64_t kDay = 24 * 3600;
  for (int i = 0; i < 9; ++i) {
    const fs::path build = dir.path / ("b" + std::to_string(i));
    fs::create_directories(build / "warpsim");
    struct timespec times[2];
    times[0].tv_sec = times[1].tv_sec = std::time(nullptr) - kDay * (i + 1);
    times[0].tv_nsec = times[1].tv_nsec = 0;
    REQUIRE(::utimensat(AT_FDCWD, build.c_str(), times, 0) == 0);
  }
  CHECK(warpsim::runner::prune_precompiled_shims(dir.path.string()) == 3);
  for (int i = 0; i < 6; ++i) CHECK(fs::exists(dir.path / ("b" + std::to_string(i))));
  for (int i = 6; i < 9; ++i) CHECK_FALSE(fs::exists(dir.path / ("b" + std::to_string(i))));
}
