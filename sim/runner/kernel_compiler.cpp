#include "kernel_compiler.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

#include "content_hash.hpp"
#include "kernel_scan.hpp"
#include "library_stubs.hpp"
#include "precompiled_shim.hpp"
#include "subprocess.hpp"
#include "toolkit_headers.hpp"

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {

// Flags that shape the object code; part of the cache key. C++17, as nvcc and NVRTC default to.
// Line information (-g) where asked: DWARF 4, because with DWARF 5 line tables, binutils 2.40's
// addr2line names the compiled file (in the cache) instead of the user's file from `#line` for
// some addresses. -g changes no code (GCC's and clang's rule; object_with_lines checks it).
// A whole program (`warpsim exec`) is the same without -shared; one of its several files, with
// -c; a .c file, C with neither the C++ standard nor the shim.
// The C library's _FORTIFY_SOURCE checks are off (-U): Ubuntu's compilers turn them on wherever
// code is optimized, Debian's do not, and nvcc optimizes no host code unless asked, so a
// program's host code (Rodinia's dwt2d copies argv[0] into a buffer one byte short) must not
// abort under one distribution and run under another, or here and not in its nvcc build.
std::vector<std::string> shaping_flags(CompileOutput output, bool c_language, bool line_info) {
  std::vector<std::string> flags{"-std=c++17", "-O1", "-fPIC", "-U_FORTIFY_SOURCE"};
  if (line_info) flags.insert(flags.begin() + 2, {"-g", "-gdwarf-4"});
  // A kernel file, run one kernel at a time: its host code never runs, so the shim leaves out
  // what only a program's host code needs (warpsim/kernel_addresses.hpp, c_linkage_runtime.hpp).
  if (output == CompileOutput::shared_object) flags.push_back("-DWARPSIM_KERNEL_FILE=1");
  if (c_language) flags.erase(flags.begin());
#if defined(WARPSIM_RUNNER_SANITIZED_LIBRARY)
  // libwarpsim was built with ASan and UBSan (WARPSIM_SANITIZE): a program that loads it must
  // have their runtime first (a kernel's shared object is loaded by a host that has it).
  if (output != CompileOutput::shared_object) flags.push_back("-fsanitize=address,undefined");
#endif
  return flags;
}

// The output's kind and the language (CUDA: C++ with the shim force-included; host C++; C).
std::vector<std::string> output_flags(CompileOutput output, bool c_language,
                                      bool host_cplusplus) {
  std::vector<std::string> flags;
  if (output == CompileOutput::shared_object) flags.push_back("-shared");
  if (output == CompileOutput::object) flags.push_back("-c");
  if (c_language) {
    for (const char* flag : {"-x", "c"}) flags.push_back(flag);
  } else if (host_cplusplus) {
    for (const char* flag : {"-x", "c++"}) flags.push_back(flag);
  } else {
    for (const char* flag : {"-x", "c++", "-include", "warpsim/cuda_shim.hpp"})
      flags.push_back(flag);
  }
  return flags;
}

std::vector<std::string> codegen_flags(CompileOutput output, bool c_language,
                                       bool host_cplusplus, bool line_info) {
  std::vector<std::string> flags = shaping_flags(output, c_language, line_info);
  for (std::string& flag : output_flags(output, c_language, host_cplusplus)) {
    flags.push_back(std::move(flag));
  }
  return flags;
}

// The flags of linking a program (its executable, or its objects into one) with libwarpsim.
std::vector<std::string> link_flags(const Toolchain& toolchain) {
  const std::string library_dir = fs::path(toolchain.library).parent_path().string();
  return {"-x", "none", toolchain.library, "-Wl,-rpath," + library_dir, "-Wl,--no-undefined"};
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

bool is_file(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

Expected<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path + ": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return Expected<std::string>(text.str());
}


Expected<std::string> choose_cache_dir() {
  std::string dir = env_or_empty("WARPSIM_CACHE_DIR");
  if (dir.empty()) {
    const std::string xdg = env_or_empty("XDG_CACHE_HOME");
    const std::string home = env_or_empty("HOME");
    if (!xdg.empty()) {
      dir = xdg + "/warpsim";
    } else if (!home.empty()) {
      dir = home + "/.cache/warpsim";
    } else {
      dir = "/tmp/warpsim-cache-" + std::to_string(getuid());
    }
  }
  std::error_code error;
  fs::create_directories(dir + "/kernels", error);
  if (error) {
    return fail("cannot create the kernel cache " + dir + ": " +
                                     error.message() + " (set WARPSIM_CACHE_DIR)");
  }
  return Expected<std::string>(dir);
}

// $WARPSIM_CACHE_MAX_MB (a whole number of MiB) or the default budget.
Expected<CacheLimits> cache_limits() {
  CacheLimits limits;
  const std::string text = env_or_empty("WARPSIM_CACHE_MAX_MB");
  if (text.empty()) return Expected<CacheLimits>(limits);
  std::uint64_t mib = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), mib);
  if (error != std::errc() || end != text.data() + text.size() || mib > (std::uint64_t{1} << 40)) {
    return fail("WARPSIM_CACHE_MAX_MB must be a whole number of MiB, not '" +
                                     text + "'");
  }
  limits.max_bytes = mib << 20;
  return Expected<CacheLimits>(limits);
}

// Where libwarpsim (this code) was loaded from.
std::string this_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&find_toolchain), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  std::error_code error;
  const fs::path path = fs::canonical(info.dli_fname, error);
  return error ? std::string(info.dli_fname) : path.string();
}

// An installed layout wins over the build tree this library was compiled in, so that a relocated
// installation finds its own headers. The install rules (sim/CMakeLists.txt) say where the
// headers lie relative to the library's folder: ../include and ../include/warpsim/shim for
// lib/libwarpsim.so under GNUInstallDirs' defaults.
bool locate_headers_at(const std::string& library, Toolchain& toolchain) {
#if defined(WARPSIM_RUNNER_INSTALLED_INCLUDE_DIR) && defined(WARPSIM_RUNNER_INSTALLED_SHIM_DIR)
  const fs::path library_dir = fs::path(library).parent_path();
  const fs::path installed_include =
      (library_dir / WARPSIM_RUNNER_INSTALLED_INCLUDE_DIR).lexically_normal();
  const fs::path installed_shim =
      (library_dir / WARPSIM_RUNNER_INSTALLED_SHIM_DIR).lexically_normal();
  if (is_file((installed_shim / "warpsim/cuda_shim.hpp").string()) &&
      is_file((installed_include / "warpsim/launch.hpp").string())) {
    toolchain.shim_dir = installed_shim.string();
    toolchain.include_dir = installed_include.string();
    return true;
  }
#endif
#if defined(WARPSIM_RUNNER_SHIM_DIR) && defined(WARPSIM_RUNNER_INCLUDE_DIR)
  if (is_file(std::string(WARPSIM_RUNNER_SHIM_DIR) + "/warpsim/cuda_shim.hpp")) {
    toolchain.shim_dir = WARPSIM_RUNNER_SHIM_DIR;
    toolchain.include_dir = WARPSIM_RUNNER_INCLUDE_DIR;
    return true;
  }
#endif
  return false;
}

// The distinct folders that the symbolic links under `dir` point into.
std::vector<std::string> link_target_folders(const std::string& dir) {
  std::vector<std::string> folders;
  std::error_code error;
  for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    if (!it->is_symlink(error)) continue;
    const fs::path target = fs::canonical(it->path(), error);
    if (error) {
      error.clear();
      continue;
    }
    const std::string folder = target.parent_path().string();
    if (std::find(folders.begin(), folders.end(), folder) == folders.end()) {
      folders.push_back(folder);
    }
  }
  return folders;
}

bool locate_headers(const std::string& library, Toolchain& toolchain) {
  if (!locate_headers_at(library, toolchain)) return false;
  toolchain.header_sources = link_target_folders(toolchain.include_dir);
  return true;
}

// The kernel host beside an installed library (its relative path from the install rules), else
// the build tree's; $WARPSIM_KERNEL_HOST wins over both.
std::string locate_kernel_host(const std::string& library) {
  if (std::string chosen = env_or_empty("WARPSIM_KERNEL_HOST"); !chosen.empty()) return chosen;
#if defined(WARPSIM_RUNNER_INSTALLED_KERNEL_HOST)
  const fs::path installed =
      (fs::path(library).parent_path() / WARPSIM_RUNNER_INSTALLED_KERNEL_HOST).lexically_normal();
  if (is_file(installed.string())) return installed.string();
#endif
#if defined(WARPSIM_RUNNER_KERNEL_HOST)
  if (is_file(WARPSIM_RUNNER_KERNEL_HOST)) return WARPSIM_RUNNER_KERNEL_HOST;
#endif
  (void)library;
  return {};
}

// Where the compiler runs for `toolchain`: in its sandbox, if any, writing the kernel cache and
// reading the toolchain's folders (which a hidden folder might cover).
ProcessSandbox compiler_sandbox(const Toolchain& toolchain) {
  if (toolchain.sandbox == nullptr) return {};
  std::vector<std::string> readable{toolchain.shim_dir,
                                    toolchain.include_dir,
                                    fs::path(toolchain.library).parent_path().string(),
                                    toolchain.libcudacxx_dir,
                                    toolchain.toolkit_include_dir};
  readable.insert(readable.end(), toolchain.header_sources.begin(),
                  toolchain.header_sources.end());
  std::erase(readable, std::string());
  return {toolchain.sandbox, {toolchain.cache_dir}, std::move(readable)};
}

// The compiler's `--version` first line, remembered per executable (path, size, mtime) so that
// a cached run starts no process at all.
Expected<std::string> compiler_version(const Toolchain& toolchain) {
  struct stat info {};
  stat(toolchain.compiler_path.c_str(), &info);
  const std::string identity = ContentHash()
                                   .add(toolchain.compiler_path)
                                   .add(std::to_string(info.st_size))
                                   .add(std::to_string(info.st_mtim.tv_sec))
                                   .add(std::to_string(info.st_mtim.tv_nsec))
                                   .hex();
  const std::string memo = toolchain.cache_dir + "/compiler-" + identity + ".txt";
  if (auto known = read_file(memo); known && !known->empty()) return known;

  std::vector<std::string> argv = toolchain.compiler;
  argv.push_back("--version");
  const ProcessOutput run = run_process(argv);
  if (!run.started || run.exit_code != 0) {
    return fail("cannot run the C++ compiler '" + toolchain.compiler[0] +
                                     "' (set WARPSIM_CXX): " + run.output);
  }
  std::string version = run.output.substr(0, run.output.find('\n'));
  write_file_atomically(memo, version);
  return Expected<std::string>(version);
}

// Every file of the shim and of warpsim's own headers, in path order. Only include/warpsim: an
// installation's include folder may be /usr/local/include, shared with everything else.
std::string header_digest(const Toolchain& toolchain) {
  std::vector<fs::path> files;
  for (const std::string& dir : {toolchain.shim_dir, toolchain.include_dir + "/warpsim"}) {
    std::error_code error;
    for (auto it = fs::recursive_directory_iterator(dir, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
      if (it->is_regular_file()) files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  ContentHash hash;
  for (const fs::path& file : files) {
    hash.add(file.string());
    if (auto contents = read_file(file.string())) hash.add(*contents);
  }
  return hash.hex();
}

// ---- dependency manifest: every header the compile read, with size and mtime

std::string stat_line(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return {};
  return std::to_string(info.st_size) + " " + std::to_string(info.st_mtim.tv_sec) + "." +
         std::to_string(info.st_mtim.tv_nsec) + " " + path;
}

// The prerequisites of a make rule as the compiler's -MD writes it.
std::vector<std::string> parse_make_dependencies(const std::string& text) {
  std::vector<std::string> paths;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) paths.push_back(std::exchange(current, {}));
  };
  const std::size_t colon = text.find(": ");
  for (std::size_t i = colon == std::string::npos ? text.size() : colon + 2; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\\' && next == '\n') {
      flush();
      ++i;
    } else if ((c == '\\' && next == ' ') || (c == '$' && next == '$')) {
      current += next;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      flush();
    } else {
      current += c;
    }
  }
  flush();
  return paths;
}

// The headers read, less the compiled source and the user's prepared headers beside it in the
// cache: their names hold a hash of their contents (user_headers.hpp), and the pruning may
// remove and a later compile write them again.
std::string dependency_manifest(const std::string& make_rule, const std::string& source,
                                const std::string& kernels_dir) {
  std::string manifest;
  for (const std::string& path : parse_make_dependencies(make_rule)) {
    if (path == source || path.rfind(kernels_dir + "/", 0) == 0) continue;
    const std::string line = stat_line(path);
    if (!line.empty()) manifest += line + "\n";
  }
  return manifest;
}

bool dependencies_unchanged(const std::string& manifest_path) {
  std::ifstream in(manifest_path);
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    const std::size_t path_start = line.find(' ', line.find(' ') + 1);
    if (path_start == std::string::npos) return false;
    if (stat_line(line.substr(path_start + 1)) != line) return false;
  }
  return true;
}

// Why the chosen kernel would do nothing, or "" when it has code: its body has tokens in the
// file (text under #if included) but none once preprocessed for `options.arch`.
std::string empty_body_warning(const Toolchain& toolchain, const CompileOptions& options) {
  if (options.file.empty() || options.kernel_name.empty()) return {};
  auto source = read_file(options.file);
  if (!source) return {};
  const std::optional<std::size_t> written = kernel_body_size(*source, options.kernel_name);
  if (!written || *written == 0) return {};
  auto expanded =
      preprocess_for_kernel_scan(toolchain, options.file, options.arch, options.user_flags);
  if (!expanded) return {};
  const std::optional<std::size_t> compiled = kernel_body_size(*expanded, options.kernel_name);
  if (!compiled || *compiled != 0) return {};
  return "kernel '" + options.kernel_name + "' has an empty body when compiled for sm_" +
         std::to_string(options.arch / 10) + " (__CUDA_ARCH__ " + std::to_string(options.arch) +
         "): the preprocessor removed all of its code (an #if on __CUDA_ARCH__ or another "
         "macro?), so it runs and does nothing";
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

// -fsanitize=thread without its runtime: the compiler driver links libtsan whenever the flag is
// on, and a folder holding an empty linker script named libtsan.so, searched first, takes its
// place (libtsan would start its own race detector, which knows nothing of fibers or warps).
Expected<std::vector<std::string>> instrumentation_flags(const Toolchain& toolchain) {
  const std::string dir = toolchain.cache_dir + "/no-libtsan";
  const std::string script = dir + "/libtsan.so";
  if (!is_file(script)) {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error || !write_file_atomically(script, "/* warpsim: libwarpsim answers the __tsan_* calls */\n")) {
      return fail("cannot write " + script + ": the memory checks need it");
    }
  }
  return Expected<std::vector<std::string>>(
      std::vector<std::string>{"-fsanitize=thread", "-L" + dir});
}

// The first of $CUDA_HOME, $CUDA_PATH and /usr/local/cuda that has include/cccl/cuda/std.
std::string find_libcudacxx() {
  for (const std::string& root :
       {env_or_empty("CUDA_HOME"), env_or_empty("CUDA_PATH"), std::string("/usr/local/cuda")}) {
    if (root.empty()) continue;
    const std::string dir = root + "/include/cccl";
    if (is_file(dir + "/cuda/std/version")) return dir;
  }
  return {};
}

// The include folder of the first of $CUDA_HOME, $CUDA_PATH and /usr/local/cuda that has one.
std::string find_toolkit_include() {
  for (const std::string& root :
       {env_or_empty("CUDA_HOME"), env_or_empty("CUDA_PATH"), std::string("/usr/local/cuda")}) {
    if (root.empty()) continue;
    const std::string dir = root + "/include";
    if (is_file(dir + "/cuda_runtime_api.h")) return dir;
  }
  return {};
}

// -idirafter the toolkit's libcu++ folder and then its include folder, when there are: after the
// shim and the system, so that only what the shim does not stand in for is read from the
// toolkit (the libraries' headers: cublas_v2.h, cufft.h, ...). The toolkit's own headers that
// those include by "name" are skipped by their include guards, which the shim defines.
// The toolkit's CCCL is searched before the system folders (-isystem), so that its Thrust and
// CUB, of one version with its libcu++, win over a distribution's older copies in /usr/include
// (Debian's libthrust-dev and libcub-dev): the rule is the toolkit's CCCL when there is a
// toolkit, else the distribution's. CCCL's folder holds only cub/, cuda/, nv/ and thrust/.
void add_libcudacxx(const Toolchain& toolchain, std::vector<std::string>& argv) {
  if (!toolchain.libcudacxx_dir.empty()) {
    argv.push_back("-isystem");
    argv.push_back(toolchain.libcudacxx_dir);
  }
  if (!toolchain.toolkit_include_dir.empty()) {
    argv.push_back("-idirafter");
    argv.push_back(toolchain.toolkit_include_dir);
  }
}

}  // namespace

Expected<int> cuda_arch_number(std::string_view arch) {
  for (const int number : {700, 750, 800, 860, 870, 890, 900}) {
    if (arch == "sm_" + std::to_string(number / 10)) return Expected<int>(number);
  }
  return fail("unknown architecture '" + std::string(arch) +
                           "': warpsim compiles kernel files for sm_70, sm_75, sm_80, sm_86, "
                           "sm_87, sm_89 or sm_90");
}

std::vector<std::string> arch_definitions(int arch) {
  // __WARPSIM__: code the simulator cannot build (a library's calls) can stay out of its build.
  return {"-D__CUDA_ARCH__=" + std::to_string(arch), "-D__CUDA_ARCH_LIST__=" + std::to_string(arch),
          "-D__WARPSIM__=1"};
}

Expected<Toolchain> find_toolchain() {
  Toolchain toolchain;
  toolchain.libcudacxx_dir = find_libcudacxx();
  toolchain.toolkit_include_dir = find_toolkit_include();
  toolchain.compiler = split_words(env_or_empty("WARPSIM_CXX"));
  if (toolchain.compiler.empty()) toolchain.compiler = {"c++"};
  toolchain.compiler_path = find_program(toolchain.compiler[0]);
  if (toolchain.compiler_path.empty()) {
    return fail("cannot find the C++ compiler '" + toolchain.compiler[0] +
                                   "' (install g++ or set WARPSIM_CXX)");
  }
  toolchain.library = this_library();
  if (toolchain.library.empty()) {
    return fail("cannot tell where libwarpsim was loaded from");
  }
  if (!locate_headers(toolchain.library, toolchain)) {
    return fail(
        "cannot find the CUDA shim headers (warpsim/cuda_shim.hpp) "
        "beside " +
        toolchain.library);
  }
  toolchain.kernel_host = locate_kernel_host(toolchain.library);
  if (toolchain.kernel_host.empty()) {
    return fail("cannot find warpsim-kernel-host beside " + toolchain.library +
                " (build it, or set WARPSIM_KERNEL_HOST)");
  }
  auto cache = choose_cache_dir();
  if (!cache) return fail(cache.error().message);
  toolchain.cache_dir = *cache;
  toolchain.shim_digest = header_digest(toolchain);
  auto limits = cache_limits();
  if (!limits) return fail(limits.error().message);
  toolchain.cache_limits = *limits;
  return Expected<Toolchain>(std::move(toolchain));
}

Expected<std::string> preprocess_for_kernel_scan(const Toolchain& toolchain, const std::string& file,
                                               int arch, const std::vector<std::string>& user_flags) {
  const fs::path absolute = fs::absolute(file).lexically_normal();
  std::vector<std::string> header_flags = arch_definitions(arch);
  add_libcudacxx(toolchain, header_flags);
  for (const std::string& arg : {std::string("-std=c++17"), std::string("-DWARPSIM_SCAN_KERNELS"),
                                 "-I" + toolchain.shim_dir, "-I" + toolchain.include_dir}) {
    header_flags.push_back(arg);
  }
  std::vector<std::string> argv = toolchain.compiler;
  // The shim precompiled for the scan's flags: the preprocessor takes its macros from it and
  // leaves its text out (which the scan drops anyway).
  if (auto version = compiler_version(toolchain)) {
    if (std::string pch =
            precompiled_shim_dir(toolchain, *version, header_flags, toolchain.shim_digest);
        !pch.empty()) {
      argv.push_back("-I" + pch);
      argv.push_back("-fpch-preprocess");
    }
  }
  argv.insert(argv.end(), header_flags.begin(), header_flags.end());
  for (const char* arg : {"-E", "-x", "c++"}) argv.push_back(arg);
  argv.insert(argv.end(), user_flags.begin(), user_flags.end());
  for (const std::string& arg : {"-I" + absolute.parent_path().string(), std::string("-include"),
                                 std::string("warpsim/cuda_shim.hpp"), absolute.string()}) {
    argv.push_back(arg);
  }
  const ProcessOutput run = run_process(argv, compiler_sandbox(toolchain));
  if (!run.started || run.exit_code != 0) {
    return fail(run.output.empty() ? "the preprocessor failed" : run.output);
  }
  // Line markers: `# LINE "FILE" FLAGS`, flag 3 for a system header. Keep the user's text only,
  // one output line per kept line (markers and dropped text become empty lines).
  const std::string shim = fs::path(toolchain.shim_dir).lexically_normal().string();
  const std::string include = fs::path(toolchain.include_dir).lexically_normal().string();
  std::string kept;
  bool keep = true;
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# ", 0) == 0 && line.size() > 2 && std::isdigit(static_cast<unsigned char>(line[2]))) {
      const std::size_t open = line.find('"');
      const std::size_t close = line.rfind('"');
      const std::string name = open < close ? line.substr(open + 1, close - open - 1) : "";
      const std::string flags = close != std::string::npos ? line.substr(close + 1) : "";
      const bool system = flags.find(" 3") != std::string::npos;
      const bool generated = name.empty() || name.front() == '<';
      keep = !system && !generated && name.rfind(shim, 0) != 0 && name.rfind(include, 0) != 0;
      kept += '\n';
      continue;
    }
    if (keep) kept += line;
    kept += '\n';
  }
  return Expected<std::string>(std::move(kept));
}

namespace {

// GCC 12 and later fill never-set locals with 0xfe bytes when asked; `version` is the compiler's
// first --version line ("g++ (Debian 12.2.0-14) 12.2.0"). 0: another compiler, or an older GCC.
std::uint8_t never_set_fill_of(const std::string& version) {
  if (version.find("clang") != std::string::npos) return 0;
  const std::size_t last = version.find_last_of(' ');
  const int major = std::atoi(version.c_str() + (last == std::string::npos ? 0 : last + 1));
  return major >= 12 ? 0xfe : 0;
}

// A link that failed on functions of a library (or CUDA APIs) that warpsim does not simulate:
// links again with stubs that stop the program if it calls them (library_stubs.hpp). `argv` is
// the failed link, `run` its outcome, replaced by the second link's; `scratch` names the stubs'
// temporary files.
void relink_with_library_stubs(const Toolchain& toolchain, const std::string& scratch,
                               std::vector<std::string> argv, ProcessOutput& run) {
  if (!run.started || run.exit_code == 0) return;
  const std::vector<MissingFunction> missing = stubbable_undefined_symbols(run.output);
  if (missing.empty()) return;
  const std::string stubs_source = scratch + ".stubs.c";
  const std::string stubs_object = scratch + ".stubs.o";
  std::vector<std::string> stubs_argv = toolchain.compiler;
  for (const std::string& arg : {std::string("-x"), std::string("c"), std::string("-c"),
                                 std::string("-O1"), std::string("-fPIC"), std::string("-o"),
                                 stubs_object, stubs_source}) {
    stubs_argv.push_back(arg);
  }
  if (write_file_atomically(stubs_source, library_stubs_source(missing))) {
    const ProcessOutput stubs = run_process(stubs_argv, compiler_sandbox(toolchain));
    if (stubs.started && stubs.exit_code == 0) {
      argv.push_back(stubs_object);
      run = run_process(argv, compiler_sandbox(toolchain));
    }
  }
  std::remove(stubs_object.c_str());
  std::remove(stubs_source.c_str());
}

}  // namespace

Expected<std::vector<std::string>> user_compiler_flags(const std::vector<std::string>& include_dirs,
                                                       const std::vector<std::string>& defines) {
  std::vector<std::string> flags;
  for (const std::string& dir : include_dirs) {
    std::error_code error;
    if (dir.empty() || !fs::is_directory(dir, error)) {
      return fail("-I '" + dir + "': no such folder");
    }
    flags.push_back("-I" + fs::absolute(dir).lexically_normal().string());
  }
  for (const std::string& define : defines) {
    const std::string name = define.substr(0, define.find('='));
    const bool identifier =
        !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) != 0 || name[0] == '_') &&
        std::all_of(name.begin(), name.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
        });
    if (!identifier) {
      return fail("-D '" + define + "': expected NAME or NAME=VALUE, NAME an identifier");
    }
    flags.push_back("-D" + define);
  }
  return Expected<std::vector<std::string>>(std::move(flags));
}

UserSources user_sources(const Toolchain& toolchain, std::string_view source,
                         const std::string& absolute_path,
                         const std::vector<std::string>& user_flags) {
  std::vector<IncludeFolder> search{{toolchain.shim_dir, false}, {toolchain.include_dir, false}};
  for (IncludeFolder& folder : user_include_folders(user_flags)) search.push_back(std::move(folder));
  search.push_back({fs::path(absolute_path).parent_path().string(), true});
  return prepare_user_headers(
      source, absolute_path, search, toolchain.cache_dir + "/kernels",
      // PTX warpsim does not run, in a header: a stop if a lane reaches it (a library's header
      // holds many functions a kernel never calls), as in the toolkit's headers.
      [](std::string_view text) {
        return rewrite_user_file(text, LaunchTarget::simulator);
      },
      [sandbox = toolchain.sandbox](const std::string& path) -> std::optional<std::string> {
        // A header the sandbox hides is left to the compiler, which cannot see it either.
        if (sandbox != nullptr && !sandbox->can_read(path)) return std::nullopt;
        return read_file_if_any(path);
      });
}

std::uint8_t never_set_fill(const Toolchain& toolchain) {
  const auto version = compiler_version(toolchain);
  return version ? never_set_fill_of(*version) : 0;
}

Expected<CompiledKernel> compile_kernel(const Toolchain& toolchain,
                                      const std::string& prepared_source,
                                      const CompileOptions& options) {
  auto version = compiler_version(toolchain);
  if (!version) return fail(version.error().message);
  // C: only __WARPSIM__ (nvcc's host compiler builds a .c file with no CUDA definitions).
  std::vector<std::string> arch_flags =
      options.c_language ? std::vector<std::string>{arch_definitions(options.arch).back()}
                         : arch_definitions(options.arch);
  const std::uint8_t fill = never_set_fill_of(*version);
  if (fill != 0) arch_flags.push_back("-ftrivial-auto-var-init=pattern");
  std::vector<std::string> check_flags;
  if (options.instrument_memory) {
    auto flags = instrumentation_flags(toolchain);
    if (!flags) return fail(flags.error().message);
    check_flags = std::move(*flags);
  }

  const Expected<std::string> cub_dir = translated_cccl_headers(toolchain);
  if (!cub_dir) return fail(cub_dir.error().message);

  // Lines are read from a kernel object only when a lane crashes or runs past the time limit
  // (memory checks read them for every finding; programs, for a call warpsim stops): a plain
  // kernel object is built without them, and its twin with them when asked (object_with_lines).
  const bool line_info = options.output != CompileOutput::shared_object || options.instrument_memory;
  ContentHash key;
  key.add(prepared_source).add(toolchain.compiler_path).add(*version).add(*cub_dir);
  for (const std::string& word : toolchain.compiler) key.add(word);
  const std::vector<std::string> codegen =
      codegen_flags(options.output, options.c_language, options.host_cplusplus, line_info);
  for (const std::string& flag : codegen) key.add(flag);
  for (const std::string& flag : arch_flags) key.add(flag);
  for (const std::string& flag : check_flags) key.add(flag);
  key.add(toolchain.library).add(options.user_dir).add(toolchain.shim_digest);
  key.add(toolchain.libcudacxx_dir).add(toolchain.toolkit_include_dir);
  for (const std::string& flag : options.user_flags) key.add(flag);
  key.add(options.kernel_name);  // the warnings (.notes) are about this kernel
  const std::string stem = toolchain.cache_dir + "/kernels/" + key.hex();
  const std::string object = stem + (options.output == CompileOutput::executable ? ".exe"
                                     : options.output == CompileOutput::object   ? ".o"
                                                                                 : ".so");
  const std::string manifest = stem + ".deps";
  const std::string source = stem + ".cu";
  const std::string notes = stem + ".notes";

  // The compile's command: with the precompiled shim when `use_pch`, writing `output` (and the
  // make rule `rule`, when given). The line twin's is the same with -g, without either.
  const auto compile_argv = [&](bool with_lines, bool use_pch, const std::string& output,
                                const std::string& rule) {
    // What shapes the shim as this compile reads it: a precompiled shim is built with these.
    std::vector<std::string> header_flags =
        shaping_flags(options.output, options.c_language, with_lines);
    header_flags.insert(header_flags.end(), arch_flags.begin(), arch_flags.end());
    header_flags.insert(header_flags.end(), check_flags.begin(), check_flags.end());
    if (!options.c_language) {
      add_libcudacxx(toolchain, header_flags);
      header_flags.push_back("-I" + toolchain.shim_dir);
      header_flags.push_back("-I" + toolchain.include_dir);
      if (!cub_dir->empty()) header_flags.push_back("-I" + *cub_dir);
    } else {
      // A C file's <cuda_runtime.h>: the runtime's C face (shim/c/cuda_runtime_api.h).
      header_flags.push_back("-I" + toolchain.shim_dir + "/c");
    }
    std::vector<std::string> argv = toolchain.compiler;
    if (use_pch && !options.c_language && !options.host_cplusplus) {
      if (std::string pch =
              precompiled_shim_dir(toolchain, *version, header_flags, toolchain.shim_digest);
          !pch.empty()) {
        argv.push_back("-I" + pch);
      }
    }
    argv.insert(argv.end(), header_flags.begin(), header_flags.end());
    for (std::string& flag :
         output_flags(options.output, options.c_language, options.host_cplusplus)) {
      argv.push_back(std::move(flag));
    }
    // The compiled copy lies in the cache: its "..." includes are looked for in the user's folder
    // first, as they would be beside the original (a kernel file or a one-file program keeps the
    // folder after the user's -I, as ever).
    if (options.output == CompileOutput::object) argv.push_back("-iquote" + options.user_dir);
    argv.insert(argv.end(), options.user_flags.begin(), options.user_flags.end());
    // A host file (.c, .cpp) of a program sees its folder for "..." includes only, as the host
    // compiler nvcc hands it to does: Rodinia's kmeans keeps an AIX unistd.h beside getopt.c,
    // whose #include <unistd.h> means the system's.
    if (!options.c_language && !options.host_cplusplus) argv.push_back("-I" + options.user_dir);
    if (!rule.empty()) {
      for (const std::string& arg : {std::string("-MD"), std::string("-MF"), rule}) {
        argv.push_back(arg);
      }
    }
    for (const std::string& arg : {std::string("-o"), output, source}) argv.push_back(arg);
    if (options.output != CompileOutput::object) {
      for (std::string& flag : link_flags(toolchain)) argv.push_back(std::move(flag));
    }
    return argv;
  };
  std::shared_ptr<const CompiledKernel::LineTwin> line_twin;
  if (!line_info) {
    CompiledKernel::LineTwin twin;
    twin.object = stem + ".lines.so";
    twin.argv = compile_argv(true, false, twin.object, {});  // -o: a temporary name, when built
    if (toolchain.sandbox != nullptr) {
      const ProcessSandbox box = compiler_sandbox(toolchain);
      twin.sandbox = *box.sandbox;
      twin.writable = box.writable;
      twin.readable = box.readable;
    }
    line_twin = std::make_shared<const CompiledKernel::LineTwin>(std::move(twin));
  }

  if (is_file(object) && dependencies_unchanged(manifest)) {
    ::utimensat(AT_FDCWD, object.c_str(), nullptr, 0);  // a use, for the cache's LRU order
    return Expected<CompiledKernel>({object, true, read_lines(notes), fill, line_twin});
  }

  if (const Expected<void> written = write_prepared_headers(options.headers); !written) {
    return fail(written.error().message);
  }
  if (!write_file_atomically(source, prepared_source)) {
    return fail("cannot write " + source + ": " + std::strerror(errno));
  }
  const std::string suffix = temporary_suffix();
  const std::string temporary_object = object + suffix;
  const std::string make_rule = stem + ".d" + suffix;
  std::vector<std::string> argv = compile_argv(line_info, true, temporary_object, make_rule);
  if (options.color_diagnostics) argv.push_back("-fdiagnostics-color=always");

  ProcessOutput run = run_process(argv, compiler_sandbox(toolchain));
  if (options.output == CompileOutput::executable) {
    relink_with_library_stubs(toolchain, stem + suffix, argv, run);
  }
  auto rule = read_file(make_rule);
  std::remove(make_rule.c_str());
  if (!run.started || run.exit_code != 0) {
    std::remove(temporary_object.c_str());
    std::remove(source.c_str());
    return fail(run.output.empty() ? "the compiler failed" : run.output);
  }
  std::vector<std::string> warnings;
  if (std::string warning = empty_body_warning(toolchain, options); !warning.empty()) {
    warnings.push_back(std::move(warning));
  }
  std::string notes_text;
  for (const std::string& warning : warnings) notes_text += warning + "\n";
  // The notes are written before the object is renamed into place: a reader that finds the
  // object finds its notes.
  if (!rule || !write_file_atomically(manifest, dependency_manifest(*rule, source, toolchain.cache_dir + "/kernels")) ||
      !write_file_atomically(notes, notes_text) ||
      std::rename(temporary_object.c_str(), object.c_str()) != 0) {
    std::remove(temporary_object.c_str());
    return fail("cannot store the compiled kernel in " +
                                        toolchain.cache_dir + ": " + std::strerror(errno));
  }
  prune_kernel_cache(toolchain.cache_dir + "/kernels", toolchain.cache_limits);
  return Expected<CompiledKernel>({object, false, std::move(warnings), fill, line_twin});
}

std::vector<Expected<CompiledKernel>> compile_kernels(const Toolchain& toolchain,
                                                      const std::vector<CompileUnit>& units) {
  std::vector<Expected<CompiledKernel>> results(units.size(), Expected<CompiledKernel>(fail("")));
  // What every compile shares and writes into the cache the first time (the compiler's version,
  // the translated cub headers) is made here, once, before the threads read it.
  if (auto version = compiler_version(toolchain); !version) {
    std::fill(results.begin(), results.end(),
              Expected<CompiledKernel>(fail(version.error().message)));
    return results;
  }
  if (auto cub = translated_cccl_headers(toolchain); !cub) {
    std::fill(results.begin(), results.end(), Expected<CompiledKernel>(fail(cub.error().message)));
    return results;
  }
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < units.size(); i = next++) {
      results[i] = compile_kernel(toolchain, units[i].prepared_source, units[i].options);
    }
  };
  const std::size_t threads =
      std::min<std::size_t>(units.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return results;
}

Expected<CompiledKernel> link_program(const Toolchain& toolchain,
                                      const std::vector<std::string>& objects,
                                      bool color_diagnostics,
                                      const std::vector<std::string>& host_flags) {
  auto version = compiler_version(toolchain);
  if (!version) return fail(version.error().message);
  std::vector<std::string> flags = host_flags;
#if defined(WARPSIM_RUNNER_SANITIZED_LIBRARY)
  flags.push_back("-fsanitize=address,undefined");  // as codegen_flags builds the objects
#endif
  for (std::string& flag : link_flags(toolchain)) flags.push_back(std::move(flag));
  // An object's name is its compile's key; what it read besides (headers) is in its manifest,
  // which is rewritten whenever a changed header makes it compile again.
  ContentHash key;
  key.add("link").add(toolchain.compiler_path).add(*version);
  for (const std::string& word : toolchain.compiler) key.add(word);
  for (const std::string& flag : flags) key.add(flag);
  for (const std::string& object : objects) {
    key.add(object);
    auto manifest = read_file(fs::path(object).replace_extension(".deps").string());
    key.add(manifest ? *manifest : "");
  }
  const std::string executable = toolchain.cache_dir + "/kernels/" + key.hex() + ".exe";
  if (is_file(executable)) {
    ::utimensat(AT_FDCWD, executable.c_str(), nullptr, 0);  // a use, for the cache's LRU order
    return Expected<CompiledKernel>({executable, true, {}, 0, nullptr});
  }
  const std::string temporary = executable + temporary_suffix();
  std::vector<std::string> argv = toolchain.compiler;
  argv.insert(argv.end(), {"-o", temporary});
  argv.insert(argv.end(), objects.begin(), objects.end());
  argv.insert(argv.end(), flags.begin(), flags.end());
  if (color_diagnostics) argv.push_back("-fdiagnostics-color=always");
  ProcessOutput run = run_process(argv, compiler_sandbox(toolchain));
  relink_with_library_stubs(toolchain, temporary, argv, run);
  if (!run.started || run.exit_code != 0) {
    std::remove(temporary.c_str());
    return fail(run.output.empty() ? "the linker failed" : run.output);
  }
  if (std::rename(temporary.c_str(), executable.c_str()) != 0) {
    std::remove(temporary.c_str());
    return fail("cannot store the linked program in " + toolchain.cache_dir + ": " +
                std::strerror(errno));
  }
  prune_kernel_cache(toolchain.cache_dir + "/kernels", toolchain.cache_limits);
  return Expected<CompiledKernel>({executable, false, {}, 0, nullptr});
}

std::string unsupported_library_hint(std::string_view output) {
  struct Library {
    std::string_view marker;  // a header name prefix, or a path part in the output
    std::string_view name;
  };
  // Host libraries of the toolkit and beyond: they run their own GPU code, which warpsim has not.
  static constexpr Library kLibraries[] = {
      {"cublas", "cuBLAS"},       {"cufft", "cuFFT"},       {"cusparse", "cuSPARSE"},
      {"cusolver", "cuSOLVER"},   {"cudnn", "cuDNN"},       {"nccl", "NCCL"},
      {"cutensor", "cuTENSOR"},   {"nvshmem", "NVSHMEM"},   {"npp", "NPP"},
      {"nvjpeg", "nvJPEG"},       {"cutlass/", "CUTLASS"},  {"cute/", "CuTe"},
      {"curand.h", "cuRAND's host API"}, {"nvrtc", "NVRTC"},
  };
  // "fatal error: cublas_v2.h: No such file or directory" (GCC and clang word it alike).
  std::size_t at = output.find("fatal error: ");
  while (at != std::string_view::npos) {
    std::string_view header = output.substr(at + 13);
    header = header.substr(0, header.find_first_of(": \n'"));
    if (!header.empty() && (header.front() == '\'' || header.front() == '<')) header.remove_prefix(1);
    for (const Library& library : kLibraries) {
      if (header.substr(0, library.marker.size()) == library.marker) {
        return "warpsim: " + std::string(library.name) + " (" + std::string(header) +
               ") is not simulated: warpsim runs your own kernels, not a library's. Run the "
               "program on a GPU (warpsim exec --gpu), or keep the library out of the "
               "simulator's build with #ifndef __WARPSIM__ around its include and its calls";
      }
    }
    if (header.substr(0, 7) == "thrust/") {
      return "warpsim: Thrust (" + std::string(header) +
             ") is not installed: warpsim builds Thrust's CPP device system from a CUDA "
             "toolkit's CCCL or from the distribution's package (Debian: libthrust-dev)";
    }
    at = output.find("fatal error: ", at + 1);
  }
  // Thrust's CUDA system (thrust::cuda::par, thrust::cuda::par.on(stream), its headers under
  // thrust/system/cuda/) runs its own kernels and PTX, which do not build for the host.
  if (output.find("/thrust/system/cuda/") != std::string_view::npos) {
    return "warpsim: Thrust's CUDA system (thrust::cuda::par, thrust/system/cuda/...) is not "
           "simulated: warpsim builds Thrust's CPP device system (thrust::device, "
           "device_vector). Use thrust::device, run the program on a GPU (warpsim exec --gpu), "
           "or keep that code out of the simulator's build with #ifndef __WARPSIM__";
  }
  return {};
}

std::string temporary_suffix() {
  return ".tmp." + std::to_string(getpid()) + "." +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
}

bool write_file_atomically(const std::string& path, std::string_view contents) {
  const std::string temporary = path + temporary_suffix();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out.flush()) {
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return false;
  }
  return true;
}

}  // namespace warpsim::runner
