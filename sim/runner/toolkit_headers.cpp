#include "toolkit_headers.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>

#include "content_hash.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::runner {
namespace {

namespace fs = std::filesystem;

std::string stat_words(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return "missing";
  return std::to_string(info.st_size) + " " + std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec);
}

// cub's block algorithms declare member aliases named as the class templates they alias
// (`using WarpReduce = WarpReduce<T, N>;`), which nvcc accepts and GCC rejects ("changes meaning
// of 'WarpReduce'"). Naming the template by its namespace (::cub::WarpReduce) is the same
// declaration for every compiler. Only cub/block, where each such template is cub's own.
std::string qualified_member_aliases(const std::string& text) {
  static const std::regex alias(R"(using (\w+) = (typename )?\1<)");
  return std::regex_replace(text, alias, "using $1 = $2::cub::$1<");
}

std::string read_file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Writes `text` as the translated copy of `source` (under `root`) into `building`.
// Every `from` in `text` replaced by `to`, left to right (a `to` is not searched again).
void replace_every(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    text.replace(at, from.size(), to);
    at += to.size();
  }
}

Expected<void> write_translated(const fs::path& building, const fs::path& root,
                                const fs::path& source, const std::string& text) {
  const fs::path target = building / root.filename() / fs::relative(source, root);
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  std::ofstream out(target, std::ios::binary);
  out << "#line 1 \"" << source.string() << "\"\n" << text;
  if (!out) return fail(ErrorKind::file, "cannot write " + target.string() + ": " + std::strerror(errno));
  return {};
}

}  // namespace

Expected<std::string> translated_cccl_headers(const Toolchain& toolchain) {
  const fs::path cub = fs::path(toolchain.libcudacxx_dir) / "cub";
  const fs::path thrust = fs::path(toolchain.libcudacxx_dir) / "thrust";
  if (toolchain.libcudacxx_dir.empty() || !fs::is_directory(cub)) return Expected<std::string>("");
  // The toolkit's cub (its version header stands for the whole) and this library's translator.
  ContentHash key;
  key.add(cub.string()).add(stat_words((cub / "version.cuh").string()));
  key.add(toolchain.library).add(stat_words(toolchain.library));
  const fs::path dir = fs::path(toolchain.cache_dir) / ("cub-ptx-" + key.hex());
  if (fs::exists(dir / "complete")) return Expected<std::string>(dir.string());

  const fs::path building = dir.string() + temporary_suffix();
  std::error_code error;
  fs::remove_all(building, error);
  for (auto it = fs::recursive_directory_iterator(cub, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (!it->is_regular_file()) continue;
    std::string contents = read_file_text(it->path());
    const bool block = fs::relative(it->path(), cub).string().rfind("block/", 0) == 0;
    const std::string aliases_qualified = block ? qualified_member_aliases(contents) : contents;
    if (contents.find("asm") == std::string::npos && aliases_qualified == contents) continue;
    if (auto written = write_translated(building, cub, it->path(),
                                        rewrite_inline_ptx(aliases_qualified,
                                                           UnsupportedPtx::runtime_stop));
        !written) {
      return written.error();
    }
  }
  if (error) return fail(ErrorKind::file, "cannot read " + cub.string() + ": " + error.message());
  for (auto it = fs::recursive_directory_iterator(thrust, error);
       !error && fs::is_directory(thrust) && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (!it->is_regular_file()) continue;
    const std::string contents = read_file_text(it->path());
    if (contents.find("<<<") == std::string::npos) continue;
    // The launch's configuration goes through members named as the built-ins (a
    // cudaLaunchConfig_t's gridDim and blockDim), which the shim's macros would swallow.
    std::string launches = rename_host_builtins(rewrite_launches(contents));
    if (launches == contents) continue;  // only in comments and strings
    // triple_chevron launches every cub kernel as `k`, a pointer: the launch is named by the
    // function it points to (warpsim/function_names.hpp), "cub::DeviceReduceKernel".
    // And the GPU side of exec --gpu does not see the launch (it rewrites the user's <<<>>>
    // only): recorded as made without <<<>>>, never paired with the GPU's launches.
    replace_every(launches, "::warpsim::shim::launch_config(",
                  "::warpsim::shim::library_launch_config(");
    replace_every(launches, "::warpsim::shim::launch_kernel(\"k\", ",
                  "::warpsim::shim::launch_kernel(::warpsim::function_name_at("
                  "reinterpret_cast<const void*>(k), \"k\"), ");
    if (auto written = write_translated(building, thrust, it->path(), launches); !written) {
      return written.error();
    }
  }
  if (error) return fail(ErrorKind::file, "cannot read " + thrust.string() + ": " + error.message());
  std::ofstream(building / "complete") << "translated from " << cub.string() << "\n";
  fs::rename(building, dir, error);
  if (error) {
    std::error_code ignored;
    fs::remove_all(building, ignored);
  }
  if (error && !fs::exists(dir / "complete")) {  // another process or thread may have won the race
    return fail(ErrorKind::file, "cannot create " + dir.string() + ": " + error.message());
  }
  fs::remove_all(building, error);
  return Expected<std::string>(dir.string());
}

}  // namespace warpsim::runner
