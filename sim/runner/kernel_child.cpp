#include "kernel_child.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "child_process.hpp"
#include "child_protocol.hpp"
#include "sandbox_process.hpp"
#include "warpsim/code_lines.hpp"
#include "warpsim/crash_note.hpp"

namespace warpsim::runner {
namespace {

// What the signal handler reads: set once before the launch, never freed (the process ends).
struct CrashContext {
  int result_fd = -1;
  const ArgumentBuffers* buffers = nullptr;
  std::uintptr_t kernel_begin = 0;  // the kernel object's loaded segments
  std::uintptr_t kernel_end = 0;
  std::uintptr_t kernel_bias = 0;  // load address: object offset = address - bias
  std::uintptr_t shared_base = 0;   // the block's dynamic shared memory, ending at ...
  std::uintptr_t shared_guard = 0;  // ... this PROT_NONE page
  std::uint8_t never_set_fill = 0;  // LaunchOptions::never_set_fill
};
CrashContext g_crash;

// SIGSYS, SIGXFSZ and SIGXCPU come from the sandbox (its syscall filter, its file size and CPU
// limits); as PID 1 of bwrap's namespace the host would ignore the last two without a handler.
constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,          SIGABRT,
                                 SIGSYS,  SIGXFSZ, SIGXCPU, kTimeLimitSignal};
constexpr int kExitStopped = 3;
constexpr int kExitReported = 4;

bool in_kernel(std::uintptr_t address) {
  return address >= g_crash.kernel_begin && address < g_crash.kernel_end;
}

std::uintptr_t program_counter(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

std::uintptr_t stack_pointer(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return static_cast<std::uintptr_t>(uc->uc_mcontext.sp);
#else
  (void)uc;
  return 0;
#endif
}

// Whether a SIGSEGV was a write (x86-64 page-fault error code bit 1); -1 when unknown.
int write_access(const void* context) {
#if defined(__x86_64__)
  const auto* uc = static_cast<const ucontext_t*>(context);
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0 ? 1 : 0;
#else
  (void)context;
  return -1;
#endif
}

// Async-signal-safe strncpy that always terminates.
void copy_name(char* to, std::size_t size, const char* from) {
  for (std::size_t i = 0; from != nullptr && from[i] != '\0' && i + 1 < size; ++i) to[i] = from[i];
}

void on_stop_signal(int signal, siginfo_t* info, void* context) {
  static StopReport report;  // static: the alternate stack is small and this is 1 KiB
  report = StopReport{};
  report.signal = signal;
  report.code = info->si_code;
  if (signal == SIGSYS) report.syscall = info->si_syscall;
  const bool has_address =
      signal == SIGSEGV || signal == SIGBUS || signal == SIGFPE || signal == SIGILL;
  report.fault_address = has_address ? reinterpret_cast<std::uintptr_t>(info->si_addr) : 0;
  report.pc = program_counter(context);
  report.stack_pointer = stack_pointer(context);
  if (signal == SIGSEGV) {
    report.write_access = write_access(context);
    report.never_set_register = runtime::never_set_register(context, g_crash.never_set_fill);
  }

  const LanePosition position = current_lane_position();
  report.have_lane = position.running ? 1 : 0;
  report.block = position.block;
  report.block_idx[0] = position.block_idx.x;
  report.block_idx[1] = position.block_idx.y;
  report.block_idx[2] = position.block_idx.z;
  report.thread = position.thread;
  report.warp = position.warp;
  report.lane = position.lane;
  report.last_line = position.last_line;
  copy_name(report.last_file, sizeof report.last_file, position.last_file);
  report.steps = position.steps;
  report.spin_warp = position.spin_warp;
  report.spin_lanes = position.spin_lanes;
  copy_name(report.spin_file, sizeof report.spin_file, position.spin_file);
  report.spin_line = position.spin_line;

  if (has_address && g_crash.shared_guard != 0 && report.fault_address >= g_crash.shared_guard &&
      report.fault_address - g_crash.shared_guard < static_cast<std::uintptr_t>(getpagesize())) {
    report.shared_offset = static_cast<std::int64_t>(report.fault_address - g_crash.shared_base);
  }
  if (has_address && g_crash.buffers != nullptr) {
    const BufferHit hit = g_crash.buffers->locate(report.fault_address);
    if (hit.buffer != nullptr) {
      report.buffer_arg = static_cast<std::int64_t>(hit.buffer->arg);
      report.buffer_field = hit.buffer->field;
      report.element = hit.element;
    }
  }
  if (in_kernel(report.pc)) report.frames[report.frame_count++] = report.pc - g_crash.kernel_bias;
  // First what is certain; the unwinder below may itself fault on a smashed stack.
  write_frame(g_crash.result_fd, FrameTag::stopped, &report, sizeof report);

  void* addresses[64];
  const int depth = backtrace(addresses, 64);
  for (int i = 0; i < depth && report.frame_count < std::size(report.frames); ++i) {
    const auto address = reinterpret_cast<std::uintptr_t>(addresses[i]);
    if (address == report.pc || !in_kernel(address)) continue;
    report.frames[report.frame_count++] = address - 1 - g_crash.kernel_bias;
  }
  write_frame(g_crash.result_fd, FrameTag::stopped, &report, sizeof report);
  _exit(kExitStopped);
}

void install_stop_handlers() {
  static char alternate_stack[256 * 1024];
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);

  struct sigaction action {};
  action.sa_sigaction = &on_stop_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (const int signal : kFaultSignals) sigaddset(&action.sa_mask, signal);
  for (const int signal : kFaultSignals) sigaction(signal, &action, nullptr);

  // backtrace() loads the unwinder on first use; do that now, not inside the handler.
  void* warm[4];
  backtrace(warm, 4);
}

[[noreturn]] void fail_input(int fd, const std::string& message) {
  write_frame(fd, FrameTag::bad_input, message.data(), message.size());
  _exit(kExitReported);
}

// The address range and load bias of the object that holds `symbol`.
void record_kernel_range(const void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) == 0) return;
  struct Search {
    std::uintptr_t base;
    CrashContext* out;
  } search{reinterpret_cast<std::uintptr_t>(info.dli_fbase), &g_crash};
  dl_iterate_phdr(
      [](dl_phdr_info* object, std::size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        std::uintptr_t begin = UINTPTR_MAX, end = 0;
        for (int i = 0; i < object->dlpi_phnum; ++i) {
          const auto& header = object->dlpi_phdr[i];
          if (header.p_type != PT_LOAD) continue;
          const std::uintptr_t start = object->dlpi_addr + header.p_vaddr;
          begin = std::min(begin, start);
          end = std::max(end, start + header.p_memsz);
        }
        if (s->base < begin || s->base >= end) return 0;
        s->out->kernel_begin = begin;
        s->out->kernel_end = end;
        s->out->kernel_bias = object->dlpi_addr;
        return 1;
      },
      &search);
}

// Moves the block's dynamic shared memory (`extern __shared__`) in front of a guard page, so that
// an access past its `bytes` (rounded up to CUDA's 16-byte alignment) stops the kernel with an
// out_of_bounds diagnostic instead of reading or corrupting memory unnoticed.
void guard_dynamic_shared(std::size_t bytes) {
  auto** base = static_cast<unsigned char**>(dlsym(RTLD_DEFAULT, kDynamicSharedBaseSymbol));
  if (base == nullptr) return;
  const std::size_t page = static_cast<std::size_t>(getpagesize());
  const std::size_t usable = (bytes + 15) / 16 * 16;
  const std::size_t mapped = (usable + page - 1) / page * page;
  void* region = mmap(nullptr, mapped + page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) return;  // the runtime's own buffer serves, unguarded
  auto* guard = static_cast<unsigned char*>(region) + mapped;
  if (mprotect(guard, page, PROT_NONE) != 0) return;
  *base = guard - usable;
  g_crash.shared_base = reinterpret_cast<std::uintptr_t>(*base);
  g_crash.shared_guard = reinterpret_cast<std::uintptr_t>(guard);
}

// The size of the runtime's dynamic shared buffer, from its symbol table entry.
std::size_t dynamic_shared_capacity() {
  void* symbol = dlsym(RTLD_DEFAULT, kDynamicSharedSymbol);
  if (symbol == nullptr) return 0;
  Dl_info info{};
  void* entry = nullptr;
  if (dladdr1(symbol, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) return 0;
  return static_cast<const ElfW(Sym)*>(entry)->st_size;
}

// What the memory checks look at: every argument buffer, the dynamic shared memory and the
// kernel object's __shared__ variables.
void add_checked_memory(LaunchOptions& options, const ArgumentBuffers& buffers,
                        const void* kernel_object) {
  if (!options.checks.any()) return;
  const auto page = static_cast<std::size_t>(getpagesize());
  for (const GuardedBuffer& buffer : buffers.buffers()) {
    const std::size_t size = element_size(buffer.type);
    // Guards: the leading guard page and the slack before the data, the trailing guard page.
    const std::size_t before = static_cast<std::size_t>(buffer.data - buffer.mapping);
    const std::size_t after = buffer.mapping_bytes - before - buffer.count * size;
    options.checks.memory.push_back(
        {buffer.data, buffer.count * size, "the buffer of " + buffer_label(buffer.arg, buffer.field),
         static_cast<std::uint32_t>(size), false, before, after, buffer.undefined});
  }
  if (g_crash.shared_base != 0 && options.dynamic_shared_bytes != 0) {
    // The rounding to 16 bytes and the guard page after it.
    const std::size_t after =
        g_crash.shared_guard + page - g_crash.shared_base - options.dynamic_shared_bytes;
    options.checks.memory.push_back({reinterpret_cast<const void*>(g_crash.shared_base),
                                     options.dynamic_shared_bytes, "extern __shared__ memory", 0,
                                     true, 0, after});
  }
  for (CheckedMemory& variable : shared_variables_of(kernel_object)) {
    options.checks.memory.push_back(std::move(variable));
  }
}

const KernelDescriptor& load_kernel(const ChildJob& job) {
  void* handle = dlopen(job.shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    fail_input(job.result_fd, std::string("cannot load the kernel: ") + dlerror());
  void* entry = dlsym(handle, kKernelEntrySymbol);
  if (entry == nullptr) fail_input(job.result_fd, "the compiled kernel has no entry point");
  record_kernel_range(entry);
  using Entry = const KernelDescriptor* (*)();
  const KernelDescriptor* descriptor = reinterpret_cast<Entry>(entry)();
  if (descriptor == nullptr || descriptor->abi_version != kKernelAbiVersion) {
    fail_input(job.result_fd, "the compiled kernel was built against another warpsim version");
  }
  return *descriptor;
}

// This process's seconds on a CPU and waiting for one, as the supervisor measures them at its
// stop (schedule_seconds_of); without /proc (a sandbox), its CPU time, and the rest of the time
// since `started` as waited.
std::pair<double, double> schedule_seconds_since(std::chrono::steady_clock::time_point started) {
  const std::pair<double, double> measured = schedule_seconds_of(getpid());
  if (measured.first >= 0) return measured;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](timeval t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  const double cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return {cpu, std::max(0.0, wall - cpu)};
}

// The steps first (when asked for), then the summary: the parent takes a summary as the sign
// that everything before it arrived.
void send_results(const ChildJob& job, LaunchResult& result,
                  std::chrono::steady_clock::time_point job_started) {
  if (job.want_trace) {
    const std::string bytes = result.trace.steps.serialize();
    write_frame(job.result_fd, FrameTag::steps, bytes.data(), bytes.size());
  }
  RunSummary summary;
  summary.status = result.status;
  summary.message = std::move(result.message);
  summary.steps = result.steps;
  summary.files = std::move(result.trace.files);
  summary.diagnostics = std::move(result.trace.diagnostics);
  if (result.stop) summary.diagnostics.push_back(std::move(*result.stop));  // after the findings
  summary.printf_records = std::move(result.trace.printf_records);
  summary.waits = std::move(result.trace.waits);
  if (result.status == LaunchStatus::time_limit) {
    std::tie(summary.cpu_seconds_at_limit, summary.wait_seconds_at_limit) =
        schedule_seconds_since(job_started);
  }
  const std::string bytes = encode(summary);
  write_frame(job.result_fd, FrameTag::summary, bytes.data(), bytes.size());
}

}  // namespace

void run_child(const ChildJob& job) {
  // Nothing the kernel prints may reach the parent's stdout (it may be JSON), and a crash must
  // not leave a core file in the user's directory.
  dup2(STDERR_FILENO, STDOUT_FILENO);
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  g_crash.result_fd = job.result_fd;
  g_crash.buffers = job.buffers;
  g_crash.never_set_fill = job.options.never_set_fill;
  install_stop_handlers();
  // The memory checks name their lines through addr2line after the launch, which the syscall
  // filter would stop: a helper started before it runs addr2line instead.
  if (job.syscall_filter && job.options.checks.any()) runtime::start_line_helper();
  if (const Expected<void> confined =
          confine_kernel_host(job.isolation, job.syscall_filter, job.max_processes);
      !confined) {
    fail_input(job.result_fd, "cannot confine the kernel's process in its sandbox: " +
                                  confined.error().message);
  }

  const KernelDescriptor& kernel = load_kernel(job);
  if (const Expected<void> fits = check_args_against_kernel(*job.specs, kernel); !fits) {
    const std::string problem = fits.error().message;
    fail_input(job.result_fd, problem);
  }
  const std::size_t capacity = dynamic_shared_capacity();
  if (capacity != 0 && job.options.dynamic_shared_bytes > capacity) {
    fail_input(job.result_fd, "--shared " + std::to_string(job.options.dynamic_shared_bytes) +
                                  " is more than the simulator's " + std::to_string(capacity) +
                                  " bytes of dynamic shared memory");
  }

  guard_dynamic_shared(job.options.dynamic_shared_bytes);

  // args[i] points at parameter i's value: the buffer's address for pointers, a struct's bytes
  // (its buffer fields' addresses in place), else the bits.
  std::vector<void*> pointers(kernel.param_count, nullptr);
  std::vector<std::uint64_t> scalars(kernel.param_count, 0);
  std::vector<std::vector<std::byte>> structs(kernel.param_count);
  std::vector<void*> args(kernel.param_count, nullptr);
  for (std::uint32_t i = 0; i < kernel.param_count; ++i) {
    const ArgSpec& spec = (*job.specs)[i];
    if (spec.is_struct) {
      std::vector<std::uint64_t> addresses(spec.fields.size(), 0);
      for (std::size_t f = 0; f < spec.fields.size(); ++f) {
        if (const GuardedBuffer* buffer = job.buffers->for_arg(i, static_cast<std::int32_t>(f))) {
          addresses[f] = reinterpret_cast<std::uintptr_t>(buffer->data);
        }
      }
      structs[i] = pack_struct(spec, addresses);
      args[i] = structs[i].data();
    } else if (const GuardedBuffer* buffer = job.buffers->for_arg(i)) {
      pointers[i] = buffer->data;
      args[i] = &pointers[i];
    } else {
      scalars[i] = spec.scalar_bits;
      args[i] = &scalars[i];
    }
  }
  LaunchOptions options = job.options;
  add_checked_memory(options, *job.buffers, reinterpret_cast<const void*>(kernel.invoke));
  LaunchResult result;
  write_frame(job.result_fd, FrameTag::started, nullptr, 0);
  const auto started = std::chrono::steady_clock::now();
  // The time limit counts from here, as the supervisor's does from the started frame: the launch
  // stops itself when it passes, with what it found (the supervisor stops it a grace later).
  if (job.time_limit_seconds > 0) {
    options.deadline = started +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(job.time_limit_seconds));
  }
  try {
    result = launch(options, [&] { kernel.invoke(args.data()); });
  } catch (const std::invalid_argument& error) {
    fail_input(job.result_fd, error.what());
  }
  std::fflush(nullptr);
  send_results(job, result, started);
  _exit(0);
}

}  // namespace warpsim::runner
