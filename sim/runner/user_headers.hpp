// The user's own headers go through the same rewriters as the file that includes them (launches,
// inline PTX, `extern __shared__`, loop ticks, host built-in names): a benchmark keeps its launch
// in a header every program includes; Rodinia's `main.cu` includes `kernel.cu`.
//
// Each header the user's files reach by `#include` (transitively) that resolves to one of the
// user's folders (the file's own, -I folders the user gave) is read and rewritten. One whose
// rewritten text differs, or that includes such a header, gets a prepared copy, a "mirror":
//   #line 1 "/home/u/bench/common.cuh"      <- messages and __FILE__ name the user's header
//   ...its text, rewritten, with each resolved include naming its target by absolute path...
// and every include of it names the mirror's absolute path instead. Includes that resolve to the
// user's files name them by absolute path too, so `"..."` resolves from where the includer really
// is, not from where its copy lies. The shim's, the toolkit's and the system's headers are left
// as they are (cub gets its own translated copy: toolkit_headers.hpp).
//
// The mirrors' names hold a hash of all of them (their texts and paths), so the translation unit
// that includes them changes whenever one of the user's headers does: the compile cache's key
// covers their contents. `#include MACRO` is not followed (the compiler then reads the original).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim::runner {

// Where `#include` looks, in the compiler's order, after the including file's own folder (that
// one for "..." only): a folder, and whether headers found there are the user's.
struct IncludeFolder {
  std::string path;  // absolute
  bool user = false;
};

// A file to write before compiling: a mirror of one of the user's headers.
struct PreparedHeader {
  std::string path;
  std::string text;
};

struct UserSources {
  std::string main;  // the main file's text with its includes of the user's headers redirected
  std::vector<PreparedHeader> headers;
};

// A file's text, or nullopt when there is no such file.
using FileReader = std::function<std::optional<std::string>(const std::string& path)>;
// One of the user's files rewritten (no prelude, no #line): rewrite_user_file's job.
using FileRewrite = std::function<std::string(std::string_view source)>;

// The user's headers reached from `main_source` (the file at `main_path`, absolute), prepared
// into `mirror_dir` (absolute: the kernel cache, or a scratch folder for nvcc).
UserSources prepare_user_headers(std::string_view main_source, std::string_view main_path,
                                 const std::vector<IncludeFolder>& search,
                                 std::string_view mirror_dir, const FileRewrite& rewrite,
                                 const FileReader& read);

// The -I folders in compiler flags ("-I/abs/dir"), as the user's IncludeFolders.
std::vector<IncludeFolder> user_include_folders(const std::vector<std::string>& flags);

// Reads files from disk (regular files only).
std::optional<std::string> read_file_if_any(const std::string& path);

// Writes each header that is not already there (atomically: a reader sees the whole file or
// none). The error names the file.
Expected<void> write_prepared_headers(const std::vector<PreparedHeader>& headers);

}  // namespace warpsim::runner
