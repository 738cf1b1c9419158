// `warpsim run`: command-line flags into RunOptions (the work is warpsim::runner's).
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "commands.hpp"
#include "warpsim/runner.hpp"

namespace warpsim::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRunUsage =
    "usage: warpsim run FILE.cu --kernel NAME --grid G --block B [--arg SPEC]... [--json]\n"
    "                   [--trace OUT.json] [--gpu] [options]   (warpsim help run)\n";

int usage_error(const std::string& message) {
  std::fprintf(stderr, "warpsim run: %s\n%s", message.c_str(), kRunUsage);
  return kExitUsage;
}

template <class T>
std::optional<T> parse_number(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

// The flags as parsed, before the checks that need all of them.
struct RunFlags {
  runner::RunOptions options;
  bool have_grid = false;
  bool have_block = false;
  bool list_kernels = false;
  bool gpu = false;
  GpuRunFlags gpu_flags;
  std::string gpu_only_flag;  // a --gpu-* flag given, which needs --gpu
};

constexpr std::uint32_t kMaxTraceCalls = 65536;

// Applies one `--name value` flag; returns an error message, empty when it was fine.
std::string apply_value_flag(RunFlags& flags, const std::string& name, const std::string& value) {
  runner::RunOptions& o = flags.options;
  if (name == "--kernel") {
    o.kernel = value;
  } else if (name == "--grid" || name == "--block") {
    auto dim = runner::parse_dim3(value);
    if (!dim) return name + ": " + dim.error;
    (name == "--grid" ? o.grid : o.block) = *dim;
    (name == "--grid" ? flags.have_grid : flags.have_block) = true;
  } else if (name == "--arg") {
    auto spec = runner::parse_arg_spec(value);
    if (!spec) {
      return "--arg " + std::to_string(o.args.size() + 1) + " '" + value + "': " + spec.error;
    }
    o.args.push_back(std::move(*spec));
  } else if (name == "--trace") {
    o.trace_path = value;
  } else if (name == "--policy") {
    if (value == "maximal") {
      o.policy = ConvergencePolicy::maximal;
    } else if (value == "interleaved") {
      o.policy = ConvergencePolicy::interleaved;
    } else {
      return "--policy '" + value + "': use maximal or interleaved";
    }
  } else if (name == "--seed") {
    auto seed = parse_number<std::uint64_t>(value);
    if (!seed) return "--seed '" + value + "': not a non-negative integer";
    o.seed = *seed;
  } else if (name == "--max-steps") {
    auto steps = parse_number<std::uint64_t>(value);
    if (!steps || *steps == 0) return "--max-steps '" + value + "': not a positive integer";
    o.max_steps = *steps;
  } else if (name == "--timeout") {
    auto seconds = parse_number<double>(value);
    if (!seconds || !(*seconds > 0) || *seconds > 86400) {
      return "--timeout '" + value + "': give seconds, more than 0 and at most 86400";
    }
    o.timeout_seconds = *seconds;
  } else if (name == "--gpu-trace-blocks") {
    auto blocks = parse_number<std::uint64_t>(value);
    if (!blocks) return "--gpu-trace-blocks '" + value + "': give a number of blocks (0: none)";
    flags.gpu_flags.trace_blocks = *blocks;
    flags.gpu_only_flag = name;
  } else if (name == "--gpu-trace-calls") {
    auto calls = parse_number<std::uint32_t>(value);
    if (!calls || *calls == 0 || *calls > kMaxTraceCalls) {
      return "--gpu-trace-calls '" + value + "': give calls per thread, 1 to " +
             std::to_string(kMaxTraceCalls);
    }
    flags.gpu_flags.trace_calls = *calls;
    flags.gpu_only_flag = name;
  } else if (name == "--tolerance-ulps") {
    auto ulps = parse_number<std::uint64_t>(value);
    if (!ulps) return "--tolerance-ulps '" + value + "': not a non-negative integer";
    flags.gpu_flags.tolerance_ulps = *ulps;
    flags.gpu_only_flag = name;
  } else if (name == "--gpu-trace-out") {
    if (value.empty()) return "--gpu-trace-out needs a file name";
    flags.gpu_flags.trace_out = value;
    flags.gpu_only_flag = name;
  } else if (name == "--shared") {
    auto bytes = parse_number<std::size_t>(value);
    if (!bytes) return "--shared '" + value + "': give a number of bytes";
    o.shared_bytes = *bytes;
  } else {
    return "unknown option '" + name + "'";
  }
  return {};
}

bool takes_value(const std::string& name) {
  for (const char* flag : {"--kernel", "--grid", "--block", "--arg", "--trace", "--policy",
                           "--seed", "--max-steps", "--timeout", "--shared", "--gpu-trace-blocks",
                           "--gpu-trace-calls", "--tolerance-ulps", "--gpu-trace-out"}) {
    if (name == flag) return true;
  }
  return false;
}

}  // namespace

void print_run_help() {
  std::printf(
      "%s\n"
      "Runs one __global__ function of a CUDA file in the simulator, every lane traced.\n"
      "\n"
      "  FILE.cu             kernels, __device__ helpers, templates; no main, no host code\n"
      "  --kernel NAME       the kernel: plain or namespaced; a template as an instantiation,\n"
      "                      e.g. 'reduce<256>'\n"
      "  --grid G, --block B launch shape: X or X,Y,Z\n"
      "  --arg SPEC          one per kernel parameter, in order:\n"
      "                        scalar  TYPE:VALUE       i32:1000  u32:0xffffffff  f32:0.5\n"
      "                        buffer  TYPE[COUNT]:INIT INIT = zeros | iota | file:PATH |\n"
      "                                                 a list of COUNT values: 1,2,3\n"
      "                      TYPE is i32 u32 f32 i64 u64 f64\n"
      "  --json              print one JSON object (buffers, diagnostics, steps)\n"
      "  --trace OUT.json    write the full step-by-step trace\n"
      "  --gpu               also compile the file with NVRTC, run it on the GPU with the same\n"
      "                      arguments and compare buffers and steps (needs a CUDA device)\n"
      "  --gpu-trace-blocks N  with --gpu: blocks whose warp-level calls are traced on the\n"
      "                      device and compared step by step (default 4; 0: buffers only)\n"
      "  --gpu-trace-calls N with --gpu: calls recorded per thread (default 256)\n"
      "  --tolerance-ulps N  with --gpu: floats within N ulps of each other match (default 0)\n"
      "  --gpu-trace-out F.json  with --gpu: write the device trace\n"
      "  --policy P          maximal (default) or interleaved convergence\n"
      "  --seed N            order of the interleaved policy (default 1)\n"
      "  --max-steps N       warp-level steps before the run counts as runaway\n"
      "  --timeout S         wall-clock limit in seconds (default 60)\n"
      "  --shared BYTES      dynamic shared memory (extern __shared__), default 49152\n"
      "  --list-kernels      list the file's kernels and exit\n"
      "\n"
      "exit status: 0 ran (diagnostics may be present), 1 the kernel deadlocked, ran away,\n"
      "crashed or timed out, 2 bad input (arguments, file, compile error), 3 --gpu without GPU.\n"
      "With --gpu the status is 0 when both runs ran, even where they differ: the report (and\n"
      "--json's \"identical\" fields) say whether they agree.\n"
      "Compiled kernels are cached in $WARPSIM_CACHE_DIR, else $XDG_CACHE_HOME/warpsim or\n"
      "~/.cache/warpsim; the compiler is $WARPSIM_CXX, else c++.\n",
      kRunUsage);
}

int run_command(const Args& args) {
  RunFlags flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--help" || word == "-h") {
      print_run_help();
      return 0;
    }
    if (word == "--json") {
      flags.options.json = true;
    } else if (word == "--gpu") {
      flags.gpu = true;
    } else if (word == "--list-kernels") {
      flags.list_kernels = true;
    } else if (word.rfind("--", 0) == 0) {
      const std::size_t equals = word.find('=');
      const std::string name = word.substr(0, equals);
      if (!takes_value(name)) return usage_error("unknown option '" + name + "'");
      std::string value;
      if (equals != std::string::npos) {
        value = word.substr(equals + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return usage_error(name + " needs a value");
      }
      if (std::string error = apply_value_flag(flags, name, value); !error.empty()) {
        return usage_error(error);
      }
    } else if (flags.options.file.empty()) {
      flags.options.file = word;
    } else {
      return usage_error("unexpected argument '" + word + "' (one kernel file per run)");
    }
  }

  runner::RunOptions& o = flags.options;
  if (o.file.empty()) return usage_error("no kernel file given");
  if (flags.list_kernels) return runner::list_kernels(o.file, std::cout, std::cerr);
  if (o.kernel.empty()) return usage_error("--kernel NAME is required");
  if (!flags.have_grid) return usage_error("--grid is required");
  if (!flags.have_block) return usage_error("--block is required");
  if (!flags.gpu && !flags.gpu_only_flag.empty()) {
    return usage_error(flags.gpu_only_flag + " needs --gpu");
  }
  if (flags.gpu) {
    if (const std::string& out = flags.gpu_flags.trace_out; !out.empty()) {
      const fs::path parent = fs::absolute(out).parent_path();
      if (access(parent.c_str(), W_OK) != 0) {
        std::fprintf(stderr, "warpsim run: cannot write --gpu-trace-out %s: %s\n", out.c_str(),
                     std::strerror(errno));
        return kExitUsage;
      }
    }
    if (const int status = attach_gpu_stage(flags.gpu_flags, o); status != 0) return status;
  }
  return runner::run_kernel_file(o, std::cout, std::cerr);
}

}  // namespace warpsim::cli
