// The host side of a whole program: allocations, the last launch error, and launches run in the
// simulator and recorded for `warpsim exec` (launch_record.hpp).
#include "warpsim/program_runtime.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "warpsim/code_lines.hpp"
#include "warpsim/crash_note.hpp"
#include "warpsim/device_abi.hpp"
#include "warpsim/launch.hpp"
#include "warpsim/launch_record.hpp"
#include "warpsim/memory_checks.hpp"

extern "C" __thread unsigned char* warpsim_dynamic_shared_base;  // device_abi.cpp
extern "C" unsigned char warpsim_dynamic_shared[];

namespace warpsim::program {
namespace {

// An allocation in its own mapping: guard page, slack, the block (bytes, rounded up to 256),
// guard page. The slack and the rounding hold kPadByte until a kernel writes there.
struct GuardedBlock {
  std::uintptr_t mapping = 0;
  std::size_t mapping_bytes = 0;
  std::size_t bytes = 0;
  std::size_t rounded = 0;
};
constexpr unsigned char kPadByte = 0xa5;

// The program's one runtime: CUDA's is process-wide too. Set up on first use from the
// environment `warpsim exec` gives the program.
struct ProgramState {
  std::mutex mutex;
  int last_error = kSuccess;
  int sticky_error = kSuccess;          // kErrorAssert after a device assert
  std::atomic<bool> assert_failed{false};  // in the running launch
  std::uint64_t launches = 0;       // every launch record so far, launches from kernel code included
  std::uint64_t host_launches = 0;  // those made by host code
  std::map<std::uintptr_t, std::size_t> allocations;  // start -> bytes, symbols included
  std::set<std::uintptr_t> symbols;                    // the starts of registered symbols
  std::map<std::uintptr_t, GuardedBlock> guarded;     // start -> its mapping (allocate's)
  std::set<std::uintptr_t> patterned;  // device blocks that began as the undefined pattern
  // Blocks freed so far (start -> bytes; the latest 4096), to name a copy into freed memory.
  std::map<std::uintptr_t, std::size_t> freed;
  std::deque<std::uintptr_t> freed_order;
  std::map<const void*, std::string> call_lines;  // a refused call's return address -> FILE:LINE
  std::string dir;        // kProgramDirEnv; empty when not run by warpsim exec
  std::string trace_dir;  // kProgramTraceDirEnv
  int record_fd = -1;     // <dir>/launches.jsonl, append-only
  std::uint64_t max_steps = LaunchOptions{}.max_steps;
  std::chrono::steady_clock::time_point deadline = LaunchOptions{}.deadline;  // kProgramDeadlineEnv
  // Threads a launch's blocks may run on (kProgramJobsEnv): every core unless told otherwise.
  std::uint32_t jobs = std::max(1u, std::thread::hardware_concurrency());
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  MemoryChecks checks;  // kProgramChecksEnv: the flags; the memory is filled per launch
  ConvergencePolicy policy = ConvergencePolicy::maximal;  // kProgramScheduleEnv
  std::uint8_t never_set_fill = 0;  // exec --check uninit: LaunchOptions::never_set_fill
  std::uint64_t seed = 1;
  std::uint64_t order_seed = 0;
  // The program's __shared__ variables (its TLS symbols) for the thread that read them: the
  // executable is read once, not at every launch.
  std::vector<CheckedMemory> shared_variables;
  std::thread::id shared_variables_thread{};

  ProgramState() {
    if (const char* d = std::getenv(kProgramDirEnv)) dir = d;
    if (const char* t = std::getenv(kProgramTraceDirEnv)) trace_dir = t;
    if (const char* m = std::getenv(kProgramMaxStepsEnv)) {
      const unsigned long long steps = std::strtoull(m, nullptr, 10);
      if (steps != 0) max_steps = steps;
    }
    if (const char* d = std::getenv(kProgramDeadlineEnv)) {
      deadline = std::chrono::steady_clock::time_point(
          std::chrono::nanoseconds(std::strtoll(d, nullptr, 10)));
    }
    if (const char* j = std::getenv(kProgramJobsEnv)) {
      const unsigned long count = std::strtoul(j, nullptr, 10);
      if (count != 0) jobs = static_cast<std::uint32_t>(std::min(count, 1024ul));
    }
    if (const char* c = std::getenv(kProgramChecksEnv)) {
      const std::string names = c;
      checks.races = names.find("races") != std::string::npos;
      checks.uninitialized_shared = names.find("uninit") != std::string::npos;
      checks.uninitialized_global = checks.uninitialized_shared;
      checks.bounds = names.find("bounds") != std::string::npos;
    }
    if (const char* f = std::getenv(kProgramNeverSetFillEnv)) {
      never_set_fill = static_cast<std::uint8_t>(std::strtoul(f, nullptr, 10));
    }
    if (const char* text = std::getenv(kProgramScheduleEnv)) {
      const std::string schedule = text;
      policy = schedule.rfind("interleaved", 0) == 0 ? ConvergencePolicy::interleaved
                                                      : ConvergencePolicy::maximal;
      const std::size_t first = schedule.find(':');
      const std::size_t second = first == std::string::npos ? first : schedule.find(':', first + 1);
      if (second != std::string::npos) {
        seed = std::strtoull(schedule.c_str() + first + 1, nullptr, 10);
        order_seed = std::strtoull(schedule.c_str() + second + 1, nullptr, 10);
      }
    }
    if (!dir.empty()) {
      const std::string path = dir + "/" + kLaunchRecordFile;
      record_fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    }
  }
};

ProgramState& state() {
  static ProgramState program;
  return program;
}

std::size_t page_bytes() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

void write_line(int fd, const std::string& line) {
  if (fd < 0) return;
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// ---- a crash in kernel code: one "crashed" line naming the lane, then the default action

int g_crash_fd = -1;
std::uint64_t g_crash_index = 0;
volatile sig_atomic_t g_in_launch = 0;
const KernelLaunchRequest* g_crash_request = nullptr;  // the running launch's arguments

// Element `offset / size` rounded toward minus infinity: the byte before a block is element -1.
std::int64_t element_of(std::int64_t offset, std::int64_t size) {
  return offset >= 0 ? offset / size : -((-offset + size - 1) / size);
}

// "argument 1 (element size 4)" naming the launch argument that points into the block starting
// at `start`, and `offset` made relative to that argument; else "a block of N bytes from
// cudaMalloc", offset unchanged and the element size 1.
void name_block(const KernelLaunchRequest* request, std::uintptr_t start, std::size_t bytes,
                char* out, std::size_t size, std::int64_t& offset, std::int64_t& element_size) {
  element_size = 1;
  if (request != nullptr && request->arg_pointers != nullptr) {
    for (std::uint32_t i = 0; i < request->arg_count; ++i) {
      const auto pointer = reinterpret_cast<std::uintptr_t>(request->arg_pointers[i]);
      if (pointer < start || pointer - start >= std::max<std::size_t>(bytes, 1)) continue;
      element_size = static_cast<std::int64_t>(std::max<std::size_t>(request->arg_element_sizes[i], 1));
      offset -= static_cast<std::int64_t>(pointer - start);
      std::snprintf(out, size, "argument %u of the launch (its %llu-byte allocation, elements of %lld bytes)", i,
                    static_cast<unsigned long long>(bytes), static_cast<long long>(element_size));
      return;
    }
  }
  std::snprintf(out, size, "a %llu-byte allocation that no argument of the launch points into",
                static_cast<unsigned long long>(bytes));
}

// The guarded block whose mapping holds `address`; the caller holds the mutex, or is a crash
// handler in a launch (no host code runs then, so nothing allocates or frees).
const std::pair<const std::uintptr_t, GuardedBlock>* guarded_holding(const ProgramState& s,
                                                                      std::uintptr_t address) {
  for (const auto& entry : s.guarded) {
    const GuardedBlock& b = entry.second;
    if (address >= b.mapping && address - b.mapping < b.mapping_bytes) return &entry;
  }
  return nullptr;
}

// ---- a read just outside an allocation: recorded, and the launch goes on

// A kernel's read of the guard page before or after a cudaMalloc'd block faults here, where a GPU
// reads whatever lies there (another allocation, padding) and goes on: Rodinia's srad_v2 and
// dwt2d read rows before their images and drop the values. The fault handler records the read
// (allocation, side, offset, lane, instruction), opens that guard page for reading (it holds
// zeros) and single-steps the instruction (the trap flag); the trap closes the page again, so
// every such read is seen. After the launch each allocation read outside gets an out_of_bounds
// diagnostic. A write there still stops the program. Another core's read of the same page in
// the few instructions while it is open goes unseen (only the counts can differ with --jobs).
struct GuardSide {
  std::uintptr_t start = 0;  // the block
  bool before = false;
  std::uintptr_t pc = 0;     // the reading instruction
  std::int64_t first = 0, last = 0;  // byte offsets from the block's start
  std::uint64_t count = 0;
  std::uint64_t block = 0;  // the first read in (block, thread) order
  std::uint32_t thread = 0;
};
constexpr std::size_t kGuardSides = 64;  // (side, instruction) pairs a launch keeps; more are counted
GuardSide g_guard_sides[kGuardSides];
std::size_t g_guard_side_count = 0;
std::uint64_t g_guard_reads_unfiled = 0;
std::atomic_flag g_guard_lock = ATOMIC_FLAG_INIT;  // handlers on several cores file reads
thread_local std::uintptr_t t_stepping_page = 0;    // the guard page this thread opened
struct OpenPage {
  std::uintptr_t page = 0;
  std::uint32_t steppers = 0;  // threads stepping a read of it: closed when none is left
};
OpenPage g_open_pages[64];  // under g_guard_lock
std::size_t g_page_bytes = 4096;  // set before any handler is installed (sysconf is not signal-safe)
constexpr long long kTrapFlag = 0x100;

void lock_guard_reads() {
  while (g_guard_lock.test_and_set(std::memory_order_acquire)) {
  }
}

// Opens `page` for reading (false: it cannot be), or counts one more thread stepping through it.
bool open_guard_page(std::uintptr_t page) {
  lock_guard_reads();
  OpenPage* slot = nullptr;
  for (OpenPage& open : g_open_pages) {
    if (open.steppers != 0 && open.page == page) slot = &open;
  }
  for (OpenPage& open : g_open_pages) {
    if (slot == nullptr && open.steppers == 0) slot = &open;
  }
  bool opened = slot != nullptr;
  if (opened && slot->steppers == 0) {
    opened = mprotect(reinterpret_cast<void*>(page), g_page_bytes, PROT_READ) == 0;
    if (opened) slot->page = page;
  }
  if (opened) ++slot->steppers;
  g_guard_lock.clear(std::memory_order_release);
  return opened;
}

void close_guard_page(std::uintptr_t page) {
  lock_guard_reads();
  for (OpenPage& open : g_open_pages) {
    if (open.steppers != 0 && open.page == page && --open.steppers == 0) {
      mprotect(reinterpret_cast<void*>(page), g_page_bytes, PROT_NONE);
    }
  }
  g_guard_lock.clear(std::memory_order_release);
}

// `more` joined into `known` (the same allocation and side): the bytes, the count, the first lane.
void join_reads(GuardSide& known, const GuardSide& more) {
  known.first = std::min(known.first, more.first);
  known.last = std::max(known.last, more.last);
  if (more.block < known.block || (more.block == known.block && more.thread < known.thread)) {
    known.block = more.block;
    known.thread = more.thread;
  }
  known.count += more.count;
}

void file_guard_read(std::uintptr_t start, std::int64_t offset, const LanePosition& lane,
                     std::uintptr_t pc) {
  const GuardSide read{start, offset < 0, pc, offset, offset, 1, lane.block, lane.thread};
  lock_guard_reads();
  GuardSide* side = nullptr;
  for (std::size_t i = 0; i < g_guard_side_count && side == nullptr; ++i) {
    const GuardSide& known = g_guard_sides[i];
    if (known.start == start && known.before == read.before && known.pc == pc) side = &g_guard_sides[i];
  }
  if (side != nullptr) {
    join_reads(*side, read);
  } else if (g_guard_side_count < kGuardSides) {
    g_guard_sides[g_guard_side_count++] = read;
  } else {
    ++g_guard_reads_unfiled;
  }
  g_guard_lock.clear(std::memory_order_release);
}

bool recover_guard_read(const siginfo_t* info, void* context) {
#if defined(__x86_64__)
  auto* const machine = static_cast<ucontext_t*>(context);
  if ((machine->uc_mcontext.gregs[REG_ERR] & 2) != 0) return false;  // the page fault of a write
  if (t_stepping_page != 0) return false;  // a second fault within the stepped instruction
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const auto* hit = guarded_holding(state(), address);
  if (hit == nullptr) return false;
  const std::uintptr_t page = address & ~static_cast<std::uintptr_t>(g_page_bytes - 1);
  if (!open_guard_page(page)) return false;
  LanePosition lane = current_lane_position();
  if (!lane.running) lane = {};
  file_guard_read(hit->first, static_cast<std::int64_t>(address - hit->first), lane,
                  static_cast<std::uintptr_t>(machine->uc_mcontext.gregs[REG_RIP]));
  t_stepping_page = page;
  machine->uc_mcontext.gregs[REG_EFL] |= kTrapFlag;
  return true;
#else
  (void)info;
  (void)context;
  return false;  // elsewhere the read stops the program, as a write does
#endif
}

// The trap after the stepped read: the guard page is closed again.
void on_step_trap(int signal, siginfo_t*, void* context) {
#if defined(__x86_64__)
  if (t_stepping_page != 0) {
    close_guard_page(t_stepping_page);
    t_stepping_page = 0;
    static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_EFL] &= ~kTrapFlag;
    return;
  }
#else
  (void)context;
#endif
  ::signal(signal, SIG_DFL);
  raise(signal);
}

void on_crash(int signal, siginfo_t* info, void* context) {
  if (signal == SIGSEGV && g_in_launch != 0 && recover_guard_read(info, context)) return;
  const LanePosition lane = current_lane_position();
  if (g_in_launch != 0 && g_crash_fd >= 0) {
    char memory[1200] = "";
    if (signal == SIGSEGV || signal == SIGBUS) {
      const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
      if (const auto* hit = guarded_holding(state(), address)) {
        std::int64_t offset = static_cast<std::int64_t>(address - hit->first);
        std::int64_t size = 1;
        char who[200];
        name_block(g_crash_request, hit->first, hit->second.bytes, who, sizeof who, offset, size);
        std::snprintf(memory, sizeof memory, "out-of-bounds access of element %lld of %s",
                      static_cast<long long>(element_of(offset, size)), who);
      }
    }
    // A value read from undefined memory (the pattern, under --check uninit) is the likeliest
    // wild index or pointer: the finding is named here, or it would die with the process.
    if (const char* note = runtime::undefined_read_note(); note[0] != '\0') {
      const std::size_t used = std::strlen(memory);
      std::snprintf(memory + used, sizeof memory - used,
                    "%sbefore the crash, %s; a value read there may be the address that faulted",
                    used != 0 ? "; " : "", note);
    }
    // Under --check uninit never-set locals hold a known pattern: one in a register at the fault
    // is the likeliest source of the wild index or pointer.
    if (const std::uint64_t value = runtime::never_set_register(context, state().never_set_fill);
        signal == SIGSEGV && value != 0) {
      std::size_t used = std::strlen(memory);
      if (used != 0 && used + 2 < sizeof memory) {
        std::memcpy(memory + used, "; ", 3);
        used += 2;
      }
      runtime::never_set_register_text(value, memory + used, sizeof memory - used);
    }
    // Plain digits and a file name: snprintf with %llu/%u/%s is safe enough for a dying process.
    char line[2600];
    const int n = std::snprintf(
        line, sizeof line,
        "{\"index\":%llu,\"status\":\"crashed\",\"signal\":%d,\"crash_block\":%llu,"
        "\"crash_thread\":%u,\"crash_file\":\"%s\",\"crash_line\":%u,\"crash_memory\":\"%s\","
        "\"kernel\":\"\"}\n",
        static_cast<unsigned long long>(g_crash_index), signal,
        static_cast<unsigned long long>(lane.running ? lane.block : 0),
        lane.running ? lane.thread : 0u, lane.last_file != nullptr ? lane.last_file : "",
        lane.last_line, memory);
    if (n > 0 && std::strchr(lane.last_file != nullptr ? lane.last_file : "", '"') == nullptr) {
      [[maybe_unused]] const ssize_t written =
          write(g_crash_fd, line, static_cast<std::size_t>(std::min<int>(n, sizeof line - 1)));
    }
  }
  ::signal(signal, SIG_DFL);
  raise(signal);
}

void install_crash_handlers() {
  g_page_bytes = page_bytes();
  static char alternate_stack[64 * 1024];
  stack_t stack{};
  stack.ss_sp = alternate_stack;
  stack.ss_size = sizeof alternate_stack;
  sigaltstack(&stack, nullptr);
  struct sigaction action {};
  action.sa_sigaction = &on_crash;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;  // on_crash resets what it does not recover from
  sigemptyset(&action.sa_mask);
  for (const int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(signal, &action, nullptr);
  action.sa_sigaction = &on_step_trap;
  sigaction(SIGTRAP, &action, nullptr);
}

// The allocation or symbol holding `pointer` (a zero-byte block holds its own address), or end();
// the caller holds the mutex.
std::map<std::uintptr_t, std::size_t>::const_iterator block_holding(const ProgramState& s,
                                                                     const void* pointer) {
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  auto it = s.allocations.upper_bound(address);
  if (it == s.allocations.begin()) return s.allocations.end();
  --it;
  return address - it->first < std::max<std::size_t>(it->second, 1) ? it : s.allocations.end();
}

// A freed block, kept (the latest 4096) to say that a copy names freed memory; the caller holds
// the mutex.
void remember_freed(ProgramState& s, std::uintptr_t start, std::size_t bytes) {
  constexpr std::size_t kRemembered = 4096;
  if (s.freed.insert_or_assign(start, bytes).second) s.freed_order.push_back(start);
  while (s.freed_order.size() > kRemembered) {
    s.freed.erase(s.freed_order.front());
    s.freed_order.pop_front();
  }
}

std::string byte_count(std::size_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}
std::string of_bytes(std::size_t bytes) { return std::to_string(bytes) + "-byte"; }  // "a 100-byte"

// Why [pointer, pointer + bytes) is not device memory a copy may name, or "" when it is: it lies
// in one live allocation or registered symbol (docs/gpu-runs/copy-ranges.txt: a GPU refuses
// every other range, a few bytes past the end included); the caller holds the mutex.
std::string device_range_problem(const ProgramState& s, const void* pointer, std::size_t bytes) {
  if (pointer == nullptr) return "a null pointer";
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  if (const auto it = block_holding(s, pointer); it != s.allocations.end()) {
    const std::size_t room = it->second - (address - it->first);
    if (bytes <= room) return "";
    return "its " + byte_count(bytes) + " run " + byte_count(bytes - room) +
           " past the end of a " + of_bytes(it->second) + " allocation (at offset " +
           std::to_string(address - it->first) + ")";
  }
  if (auto it = s.freed.upper_bound(address); it != s.freed.begin()) {
    --it;
    if (address - it->first < std::max<std::size_t>(it->second, 1))
      return "freed memory (offset " + std::to_string(address - it->first) + " of a " +
             of_bytes(it->second) + " block freed earlier)";
  }
  if (const auto next = s.allocations.upper_bound(address);
      next != s.allocations.end() && next->first - address < 4096 &&
      s.symbols.count(next->first) == 0) {
    return "it starts " + byte_count(next->first - address) + " before a " +
           of_bytes(next->second) + " allocation";
  }
  return "no allocation holds it (host memory, or not allocated)";
}

std::string trace_name(std::uint64_t index, std::string_view kernel) {
  std::string name;
  for (const char c : kernel) {
    const bool plain =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    name += plain ? c : '_';
    if (name.size() >= 48) break;
  }
  char number[32];
  std::snprintf(number, sizeof number, "%03llu", static_cast<unsigned long long>(index + 1));
  return std::string(number) + "-" + name + ".json";
}

// Bytes `first` to `last` (offsets from the block at `start`, of `bytes` bytes) as a report names
// them: who ("argument 1 of the launch (its ...)") and which ("element -1", "elements 64 to 70").
struct NamedBytes {
  std::string who;
  std::string which;
};
NamedBytes name_bytes(const KernelLaunchRequest& request, std::uintptr_t start, std::size_t bytes,
                      std::int64_t first, std::int64_t last) {
  std::int64_t size = 1;
  char who[200];
  const std::int64_t shift = first;
  name_block(&request, start, bytes, who, sizeof who, first, size);
  last -= shift - first;
  const std::int64_t a = element_of(first, size), b = element_of(last, size);
  return {who, a == b ? "element " + std::to_string(a)
                      : "elements " + std::to_string(a) + " to " + std::to_string(b)};
}

// out_of_bounds diagnostics for the guarded blocks whose slack or rounding a launch changed;
// the pattern is put back, so the next launch reports only its own writes.
std::vector<Diagnostic> writes_outside_blocks(ProgramState& s, const KernelLaunchRequest& request) {
  std::vector<Diagnostic> found;
  std::lock_guard lock(s.mutex);
  for (const auto& [start, block] : s.guarded) {
    auto* const slack = reinterpret_cast<unsigned char*>(block.mapping + page_bytes());
    const std::size_t slack_bytes = start - reinterpret_cast<std::uintptr_t>(slack);
    auto* const tail = reinterpret_cast<unsigned char*>(start + block.bytes);
    const std::size_t tail_bytes = block.rounded - block.bytes;
    for (const auto& [from, count, before] :
         {std::tuple{slack, slack_bytes, true}, std::tuple{tail, tail_bytes, false}}) {
      std::size_t lowest = count, highest = 0;
      for (std::size_t i = 0; i < count; ++i) {
        if (from[i] == kPadByte) continue;
        lowest = std::min(lowest, i);
        highest = i;
      }
      if (lowest == count) continue;
      std::memset(from, kPadByte, count);
      const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(from);
      const NamedBytes named =
          name_bytes(request, start, block.bytes, static_cast<std::int64_t>(base + lowest - start),
                     static_cast<std::int64_t>(base + highest - start));
      Diagnostic d;
      d.kind = DiagnosticKind::out_of_bounds;
      d.message = std::string("out-of-bounds write ") + (before ? "before " : "after the end of ") +
                  named.who + ": " + named.which +
                  " changed during the launch; seen afterwards in the bytes " +
                  (before ? "before the allocation" : "of its rounding to 256") +
                  ", so the lane and line are unknown";
      found.push_back(std::move(d));
    }
  }
  return found;
}

// out_of_bounds diagnostics for the guard pages a launch read (recover_guard_read), one per
// allocation, side and source line, naming the elements read and the first reading lane.
std::vector<Diagnostic> reads_outside_blocks(ProgramState& s, const KernelLaunchRequest& request,
                                             Trace& trace) {
  const bool several_cores = s.jobs > 1 && std::uint64_t{request.grid[0]} * request.grid[1] * request.grid[2] > 1;
  const std::vector<GuardSide> filed(g_guard_sides, g_guard_sides + g_guard_side_count);
  const std::uint64_t unfiled = std::exchange(g_guard_reads_unfiled, 0);
  g_guard_side_count = 0;
  if (filed.empty()) return {};
  std::vector<std::uintptr_t> return_addresses;
  for (const GuardSide& side : filed) return_addresses.push_back(side.pc + 1);
  const std::vector<runtime::CodeLine> filed_lines = runtime::code_lines(return_addresses);
  // Instructions of one line (an unrolled or duplicated load) make one diagnostic.
  std::vector<GuardSide> sides;
  std::vector<runtime::CodeLine> lines;
  for (std::size_t i = 0; i < filed.size(); ++i) {
    const GuardSide& f = filed[i];
    const runtime::CodeLine& at = filed_lines[i];
    std::size_t j = 0;
    while (j < sides.size() && !(sides[j].start == f.start && sides[j].before == f.before &&
                                 lines[j].file == at.file && lines[j].line == at.line)) {
      ++j;
    }
    if (j == sides.size()) {
      sides.push_back(f);
      lines.push_back(at);
    } else {
      join_reads(sides[j], f);
    }
  }

  std::vector<Diagnostic> found;
  std::lock_guard lock(s.mutex);
  for (std::size_t i = 0; i < sides.size(); ++i) {
    const GuardSide& side = sides[i];
    const auto block = s.guarded.find(side.start);
    if (block == s.guarded.end()) continue;
    const NamedBytes named = name_bytes(request, side.start, block->second.bytes, side.first, side.last);
    Diagnostic d;
    d.kind = DiagnosticKind::out_of_bounds;
    d.block = side.block;
    d.warp = side.thread / kWarpSize;
    d.lanes = lane_bit(static_cast<int>(side.thread % kWarpSize));
    d.occurrences = side.count;
    if (!lines[i].file.empty()) d.where = {trace.file_index(lines[i].file), lines[i].line};
    d.message = std::string("out-of-bounds read ") + (side.before ? "before " : "after the end of ") +
                named.who + ": " + named.which + ", " + std::to_string(side.count) + (side.count == 1 ? " read" : " reads") +
                " (the first by thread " + std::to_string(side.thread) + " of block " +
                std::to_string(side.block) + "); the simulator read zeros there and went on, where a "
                "GPU reads whatever lies " + (side.before ? "before" : "after") +
                " the allocation, or faults" +
                (several_cores ? " (blocks ran on " + std::to_string(s.jobs) +
                                     " cores: a read another core made while the page was open "
                                     "for one is not counted; --jobs 1 counts each)"
                               : std::string());
    found.push_back(std::move(d));
  }
  if (unfiled != 0 && !found.empty()) {
    found.back().message += "; " + std::to_string(unfiled) + " more reads outside other allocations";
  }
  return found;
}

// What exec --check looks at in one launch: every cudaMalloc'd block (named by the argument that
// points into it, with the slack and guard pages around it as its guards), the dynamic shared
// memory and the program's __shared__ variables.
std::vector<CheckedMemory> checked_memory(ProgramState& s, const KernelLaunchRequest& request,
                                          void (*body)(void*)) {
  std::vector<CheckedMemory> memory;
  {
    std::lock_guard lock(s.mutex);
    for (const auto& [start, bytes] : s.allocations) {
      if (s.symbols.count(start) != 0 || bytes == 0) continue;
      std::int64_t offset = 0, element_size = 1;
      char who[200];
      name_block(&request, start, bytes, who, sizeof who, offset, element_size);
      CheckedMemory m{reinterpret_cast<const void*>(start), bytes, who,
                      static_cast<std::uint32_t>(element_size), false};
      m.undefined_pattern = s.patterned.count(start) != 0;
      if (const auto guarded = s.guarded.find(start); guarded != s.guarded.end()) {
        const GuardedBlock& b = guarded->second;
        m.guard_before = start - b.mapping;
        m.guard_after = b.mapping + b.mapping_bytes - (start + bytes);
      }
      memory.push_back(std::move(m));
    }
  }
  if (request.shared_bytes != 0 && warpsim_dynamic_shared_base == warpsim_dynamic_shared) {
    memory.push_back({warpsim_dynamic_shared_base, request.shared_bytes, "extern __shared__ memory",
                      0, true, 0, device::kDynamicSharedCapacity - request.shared_bytes});
  }
  if (s.shared_variables_thread != std::this_thread::get_id()) {
    s.shared_variables = shared_variables_of(reinterpret_cast<const void*>(body));
    s.shared_variables_thread = std::this_thread::get_id();
  }
  memory.insert(memory.end(), s.shared_variables.begin(), s.shared_variables.end());
  return memory;
}

// ---- dynamic parallelism: launches from kernel code wait in their grid until it has run

// CUDA nests grids at most this deep (the host's launch is depth 0).
constexpr std::uint32_t kMaxNestingDepth = 24;
// Launches one grid may leave pending here. Children run only after their whole parent grid, so
// more wait at once than on a GPU, whose pending-launch limit (cudaLimitDevRuntimePendingLaunchCount)
// counts launches not yet started while children start alongside their parent: that limit is not
// applied, this bound only keeps a runaway kernel from filling memory.
constexpr std::size_t kMaxPendingPerGrid = std::size_t{1} << 20;

// A launch made by a lane, waiting for its grid to end.
struct DeviceLaunch {
  std::uint64_t block = 0;  // the launching thread's block, linear
  std::uint64_t order = 0;  // its place among the grid's device launches (a block's are in order)
  KernelLaunchRequest request;  // arg_pointers and arg_element_sizes set when it runs
  std::vector<const void*> arg_pointers;
  std::vector<std::size_t> arg_element_sizes;
  void (*body)(void*) = nullptr;
  void* context = nullptr;
  void (*release)(void*) = nullptr;
  bool tail = false;       // cudaStreamTailLaunch: after the grid's other children
  std::string refusal;     // non-empty: refused at the launch, recorded only
  std::string refusal_status;
};

// A grid being run: its record, its depth, and what its lanes launch.
struct RunningGrid {
  std::uint64_t index = 0;
  std::uint32_t depth = 0;
  std::mutex mutex;
  std::vector<DeviceLaunch> children;
  std::uint64_t next_order = 0;
  // (block, thread) -> the thread's last device launch error (device-side cudaGetLastError).
  std::map<std::pair<std::uint64_t, std::uint32_t>, int> errors;
};

// The grid whose lane runs on this OS thread: set as each lane starts (a launch's worker threads
// run lanes of that launch only). It outlives its grid on the threads that ran it, so it counts
// only while it is among the live grids. Initial-exec: set on every lane's start without a
// __tls_get_addr call (11 instructions a thread, about a tenth of a thread that never waits).
__thread RunningGrid* t_running_grid __attribute__((tls_model("initial-exec"))) = nullptr;
std::mutex g_live_grids_mutex;
std::set<const RunningGrid*> g_live_grids;

RunningGrid* running_grid() {
  RunningGrid* const grid = t_running_grid;
  if (grid == nullptr || device::current_env == nullptr) return nullptr;
  std::lock_guard lock(g_live_grids_mutex);
  return g_live_grids.count(grid) != 0 ? grid : nullptr;
}

// Marks a grid live for as long as it runs.
struct LiveGrid {
  const RunningGrid* grid;
  explicit LiveGrid(const RunningGrid* g) : grid(g) {
    std::lock_guard lock(g_live_grids_mutex);
    g_live_grids.insert(grid);
  }
  ~LiveGrid() {
    std::lock_guard lock(g_live_grids_mutex);
    g_live_grids.erase(grid);
  }
  LiveGrid(const LiveGrid&) = delete;
  LiveGrid& operator=(const LiveGrid&) = delete;
};

std::pair<std::uint64_t, std::uint32_t> running_thread() {
  const device::LaneEnv& e = *device::current_env;
  const std::uint64_t block =
      (static_cast<std::uint64_t>(e.block_idx.z) * e.grid_dim.y + e.block_idx.y) * e.grid_dim.x +
      e.block_idx.x;
  const std::uint32_t thread =
      (e.thread_idx.z * e.block_dim.y + e.thread_idx.y) * e.block_dim.x + e.thread_idx.x;
  return {block, thread};
}

int run_grid(const KernelLaunchRequest& request, void (*body)(void*), void* context,
             const RunningGrid* parent);

// Records a launch from kernel code that was refused when made, or never ran.
void record_unrun_child(ProgramState& s, const DeviceLaunch& child, const RunningGrid& parent,
                        const std::string& status, const std::string& message) {
  LaunchRecord record;
  {
    std::lock_guard lock(s.mutex);
    record.index = s.launches++;
  }
  record.kernel = child.request.kernel;
  record.file = child.request.file;
  record.line = child.request.line;
  record.grid = {child.request.grid[0], child.request.grid[1], child.request.grid[2]};
  record.block = {child.request.block[0], child.request.block[1], child.request.block[2]};
  record.shared_bytes = child.request.shared_bytes;
  record.stream = reinterpret_cast<std::uintptr_t>(child.request.stream);
  record.parent = parent.index;
  record.depth = parent.depth + 1;
  record.status = status;
  record.message = message;
  write_line(s.record_fd, to_json_line(record));
}

// The children of `grid`, which has run: ordered by block and launch, tail launches last; each
// runs with its own children before the next. `run` false: the grid stopped (a device assert),
// so they are recorded as not run.
void run_children(ProgramState& s, RunningGrid& grid, bool run) {
  std::vector<DeviceLaunch> children = std::move(grid.children);
  grid.children.clear();
  std::stable_sort(children.begin(), children.end(), [](const DeviceLaunch& a, const DeviceLaunch& b) {
    return std::tuple(a.tail, a.block, a.order) < std::tuple(b.tail, b.block, b.order);
  });
  for (DeviceLaunch& child : children) {
    if (!child.refusal.empty()) {
      record_unrun_child(s, child, grid, child.refusal_status, child.refusal);
    } else if (!run) {
      record_unrun_child(s, child, grid, "not_run",
                         "its parent grid stopped at a device assert before it could run");
    } else {
      child.request.arg_pointers = child.arg_pointers.data();
      child.request.arg_element_sizes = child.arg_element_sizes.data();
      run_grid(child.request, child.body, child.context, &grid);
    }
    if (child.release != nullptr) child.release(child.context);
    child.release = nullptr;
  }
}

}  // namespace

int queue_device_launch(const KernelLaunchRequest& request, void (*body)(void*), void* context,
                        void (*release)(void*)) {
  RunningGrid* const grid = running_grid();
  if (grid == nullptr) {
    // A lane of a kernel run on its own (warpsim run, a test): no program runtime runs its grid.
    release(context);
    throw std::runtime_error(std::string(request.file) + ":" + std::to_string(request.line) +
                             ": " + request.kernel +
                             "<<<...>>> launched from device code outside a whole program: CUDA "
                             "dynamic parallelism is simulated under warpsim exec only");
  }
  const auto [block, thread] = running_thread();
  DeviceLaunch child;
  child.block = block;
  child.request = request;
  child.arg_pointers.assign(request.arg_pointers, request.arg_pointers + request.arg_count);
  child.arg_element_sizes.assign(request.arg_element_sizes,
                                 request.arg_element_sizes + request.arg_count);
  child.request.arg_pointers = nullptr;
  child.request.arg_element_sizes = nullptr;
  child.body = body;
  child.context = context;
  child.release = release;
  child.tail = request.stream == reinterpret_cast<const void*>(std::uintptr_t{3});
  int error = kSuccess;
  const Dim3 grid_shape{request.grid[0], request.grid[1], request.grid[2]};
  const Dim3 block_shape{request.block[0], request.block[1], request.block[2]};
  const Expected<void> shape = check_launch_shape(grid_shape, block_shape);
  if (grid->depth + 1 > kMaxNestingDepth) {
    error = kErrorLaunchMaxDepthExceeded;
    child.refusal_status = "refused";
    child.refusal = "cudaErrorLaunchMaxDepthExceeded: it would be nested " +
                    std::to_string(grid->depth + 1) + " grids deep, and CUDA nests at most " +
                    std::to_string(kMaxNestingDepth) + " (the launching thread's cudaGetLastError says so)";
  } else if (!shape || request.shared_bytes > device::kDynamicSharedCapacity) {
    error = block_shape.count() > 1024 ? kErrorInvalidValue : kErrorInvalidConfiguration;
    child.refusal_status = "invalid_configuration";
    child.refusal = shape ? "dynamic shared memory of " + std::to_string(request.shared_bytes) +
                                " bytes; the simulator provides at most " +
                                std::to_string(device::kDynamicSharedCapacity)
                          : shape.error().message;
  }
  std::lock_guard lock(grid->mutex);
  if (error == kSuccess && grid->children.size() >= kMaxPendingPerGrid) {
    error = kErrorLaunchPendingCountExceeded;
    child.refusal_status = "refused";
    child.refusal = "cudaErrorLaunchPendingCountExceeded: the grid already made " +
                    std::to_string(kMaxPendingPerGrid) +
                    " launches from kernel code, as many as the simulator keeps waiting for one grid";
  }
  if (error != kSuccess) {
    grid->errors[{block, thread}] = error;
    release(context);
    child.release = nullptr;
    child.context = nullptr;
  }
  child.order = grid->next_order++;
  grid->children.push_back(std::move(child));
  return error;
}

int device_last_error(bool reset) {
  RunningGrid* const grid = running_grid();
  if (grid == nullptr) return kSuccess;
  const auto key = running_thread();
  std::lock_guard lock(grid->mutex);
  const auto it = grid->errors.find(key);
  if (it == grid->errors.end()) return kSuccess;
  const int error = it->second;
  if (reset) grid->errors.erase(it);
  return error;
}

int launch_kernel(const KernelLaunchRequest& request, void (*body)(void*), void* context) {
  {
    ProgramState& s = state();
    std::lock_guard lock(s.mutex);
    ++s.host_launches;
  }
  return run_grid(request, body, context, nullptr);
}

namespace {

// One grid, host-launched (`parent` null) or launched from kernel code, then its children.
int run_grid(const KernelLaunchRequest& request, void (*body)(void*), void* context,
             const RunningGrid* parent) {
  ProgramState& s = state();
  LaunchRecord record;
  LaunchOptions options;
  RunningGrid grid;
  {
    std::lock_guard lock(s.mutex);
    record.index = s.launches++;
  }
  grid.index = record.index;
  if (parent != nullptr) {
    record.parent = parent->index;
    record.depth = grid.depth = parent->depth + 1;
  }
  record.kernel = request.kernel;
  record.file = request.file;
  record.line = request.line;
  record.grid = {request.grid[0], request.grid[1], request.grid[2]};
  record.block = {request.block[0], request.block[1], request.block[2]};
  record.shared_bytes = request.shared_bytes;
  record.stream = reinterpret_cast<std::uintptr_t>(request.stream);
  for (std::uint32_t arg = 0; arg < 64; ++arg) {
    if ((request.host_pointer_args >> arg & 1) != 0) record.host_pointer_args.push_back(arg);
  }
  options.grid = record.grid;
  options.block = record.block;
  options.dynamic_shared_bytes = request.shared_bytes;
  options.max_steps = s.max_steps;
  options.deadline = s.deadline;
  options.record_steps = !s.trace_dir.empty();
  options.jobs = s.jobs;
  options.policy = s.policy;
  options.seed = s.seed;
  options.order_seed = s.order_seed;
  options.cooperative = request.cooperative;
  options.never_set_fill = s.never_set_fill;

  const Expected<void> shape = check_launch_shape(record.grid, record.block);
  if (!shape || request.shared_bytes > device::kDynamicSharedCapacity) {
    record.status = "invalid_configuration";
    record.message = shape ? "dynamic shared memory of " + std::to_string(request.shared_bytes) +
                                 " bytes; the simulator provides at most " +
                                 std::to_string(device::kDynamicSharedCapacity)
                           : shape.error().message;
    write_line(s.record_fd, to_json_line(record));
    // What the H100 answers (CUDA 13.0, driver 580, tests/programs/recorded/launch_errors.txt):
    // a block of more than 1024 threads is cudaErrorInvalidValue ("invalid argument"); the other
    // shapes CUDA refuses are cudaErrorInvalidConfiguration, as its documentation says.
    const bool too_many_threads = record.block.count() > 1024;
    s.last_error = too_many_threads ? kErrorInvalidValue : kErrorInvalidConfiguration;
    return s.last_error;
  }

  record.status = "running";
  write_line(s.record_fd, to_json_line(record));
  std::fflush(nullptr);  // the program's output so far comes before anything the kernel prints
  if (g_crash_fd < 0 && s.record_fd >= 0) {
    g_crash_fd = s.record_fd;
    install_crash_handlers();
  }
  g_crash_index = record.index;
  g_crash_request = &request;
  if (s.checks.any()) {
    options.checks = s.checks;
    options.checks.memory = checked_memory(s, request, body);
  }
  runtime::clear_undefined_read_note();
  g_in_launch = 1;
  std::optional<LiveGrid> live(std::in_place, &grid);
  LaunchResult result = launch(options, [&] {
    t_running_grid = &grid;
    body(context);
  });
  live.reset();
  g_in_launch = 0;
  g_crash_request = nullptr;
  for (Diagnostic& d : writes_outside_blocks(s, request)) result.trace.diagnostics.push_back(std::move(d));
  for (Diagnostic& d : reads_outside_blocks(s, request, result.trace)) {
    result.trace.diagnostics.push_back(std::move(d));
  }

  // Device printf reaches stdout when the launch ends, as on a GPU at the next synchronization.
  for (const PrintfRecord& p : result.trace.printf_records) std::fputs(p.text.c_str(), stdout);
  std::fflush(stdout);

  record.status = std::string(to_string(result.status));
  record.message = result.message;
  record.steps = result.steps;
  record.diagnostics = result.trace.diagnostics.size();
  const bool completed = result.status == LaunchStatus::completed;
  const std::string folder = !s.trace_dir.empty() ? s.trace_dir : s.dir;
  if (!folder.empty() &&
      (!s.trace_dir.empty() || !result.trace.diagnostics.empty() || !completed)) {
    record.trace_file = folder + "/" + trace_name(record.index, record.kernel);
    std::ofstream out(record.trace_file, std::ios::binary | std::ios::trunc);
    write_trace_json(out, result.trace);
    if (!out.flush()) record.trace_file.clear();
  }
  if (!completed && s.assert_failed.exchange(false)) {
    // A device assert: the GPU stops the kernel and the context reports cudaErrorAssert from
    // then on; the program goes on (it usually checks for exactly that).
    record.status = "device_assert";
    write_line(s.record_fd, to_json_line(record));
    {
      std::lock_guard lock(s.mutex);
      s.sticky_error = s.last_error = kErrorAssert;
    }
    run_children(s, grid, false);
    return kSuccess;
  }
  write_line(s.record_fd, to_json_line(record));
  if (!completed) {
    // Under warpsim exec the report says it; run on its own, the program says it here.
    if (s.record_fd < 0)
      std::fprintf(stderr, "warpsim: launch %llu of %s stopped (%s): %s\n",
                   static_cast<unsigned long long>(record.index + 1), record.kernel.c_str(),
                   record.status.c_str(), record.message.c_str());
    std::fflush(nullptr);
    _exit(kProgramStoppedExitStatus);
  }
  // The grid completes when its children have (CUDA 12's dynamic parallelism).
  run_children(s, grid, true);
  return kSuccess;
}

}  // namespace

int last_error(bool reset) {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  const int error = s.last_error;
  if (reset) s.last_error = s.sticky_error;
  return error;
}

namespace {

std::string caller_line(const void* return_address) {
  if (return_address == nullptr) return "an unknown line";
  const std::vector<runtime::CodeLine> lines =
      runtime::code_lines({reinterpret_cast<std::uintptr_t>(return_address)});
  if (lines.empty() || lines[0].file.empty()) return "an unknown line";
  return std::filesystem::path(lines[0].file).filename().string() + ":" +
         std::to_string(lines[0].line);
}

// A call a GPU's runtime refuses too: it returns cudaErrorInvalidValue, which is also the next
// last_error() (as on the H200: docs/gpu-runs/copy-ranges.txt), and `warpsim exec` lists it
// (kRefusedCallsFile; a finding under --check). Run on its own, the program says it on stderr.
int refuse_call(ProgramState& s, const char* api, const std::string& why,
                const void* return_address) {
  s.last_error = kErrorInvalidValue;
  std::string& where = s.call_lines[return_address];
  if (where.empty()) where = caller_line(return_address);
  const std::string line =
      std::string(api) + " at " + where + " returned cudaErrorInvalidValue: " + why;
  if (s.dir.empty()) {
    std::fprintf(stderr, "warpsim: %s\n", line.c_str());
    return kErrorInvalidValue;
  }
  std::ofstream out(s.dir + "/" + kRefusedCallsFile, std::ios::app);
  out << line << "\n";
  return kErrorInvalidValue;
}

}  // namespace

int check_copy(const char* api, const void* destination, const void* source, std::size_t bytes,
               int kind, const void* return_address) {
  if (bytes == 0) return kSuccess;
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  // cudaMemcpyKind: 0 host to host, 1 host to device, 2 device to host, 3 device to device,
  // 4 default (each pointer is where it lies: one in an allocation must fit in it).
  const auto problem = [&](const void* pointer, bool device) {
    if (kind == 4) device = block_holding(s, pointer) != s.allocations.end();
    return device ? device_range_problem(s, pointer, bytes) : std::string();
  };
  if (destination == nullptr || source == nullptr) {
    return refuse_call(s, api, std::string(destination == nullptr ? "the destination" : "the source") +
                                   " is a null pointer", return_address);
  }
  if (const std::string why = problem(destination, kind == 1 || kind == 3); !why.empty())
    return refuse_call(s, api, "the destination is not device memory: " + why, return_address);
  if (const std::string why = problem(source, kind == 2 || kind == 3); !why.empty())
    return refuse_call(s, api, "the source is not device memory: " + why, return_address);
  return kSuccess;
}

int check_memset(const char* api, const void* destination, std::size_t bytes,
                 const void* return_address) {
  if (bytes == 0) return kSuccess;
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  if (const std::string why = device_range_problem(s, destination, bytes); !why.empty()) {
    return refuse_call(s, api,
                       destination == nullptr ? "the destination is a null pointer"
                                              : "the destination is not device memory: " + why,
                       return_address);
  }
  return kSuccess;
}

int release_checked(const char* api, void* pointer, const void* return_address) {
  if (release(pointer)) return kSuccess;
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  const auto address = reinterpret_cast<std::uintptr_t>(pointer);
  std::string why = "no allocation starts there (host memory, or never allocated)";
  if (const auto it = block_holding(s, pointer); it != s.allocations.end()) {
    why = s.symbols.count(it->first) != 0
              ? "it is a __device__ variable's address"
              : "it points " + byte_count(address - it->first) + " into a " +
                    of_bytes(it->second) + " allocation";
  } else if (const auto freed = s.freed.find(address); freed != s.freed.end()) {
    why = "it was freed already (a " + of_bytes(freed->second) + " block)";
  }
  return refuse_call(s, api, "the pointer is not an allocation's start: " + why, return_address);
}

void note_device_assert() { state().assert_failed = true; }

int sticky_error() {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  return s.sticky_error;
}

// Allocations from this size up are mappings of their own: zero pages the kernel gives as they
// are first touched, instead of a memset over the whole block up front.
constexpr std::size_t kMappedAllocation = std::size_t{1} << 20;

// From this size up, a block asks for transparent huge pages: its first touch then faults once
// per 2 MiB instead of once per 4 KiB page. On the project's VM a first touch of fresh memory
// cost 6.2-7.5 s for 256 MiB in 4 KiB pages (0.1 s for a second pass) and 3.9-4.3 s with
// MADV_HUGEPAGE; programs under warpsim touch their cudaMalloc'd buffers first in a copy or a
// kernel. A hint: where THP is off, nothing changes.
constexpr std::size_t kHugePageHint = std::size_t{2} << 20;

namespace {

void hint_huge_pages(void* start, std::size_t bytes) {
  if (bytes >= kHugePageHint) madvise(start, bytes, MADV_HUGEPAGE);
}

// A block of `bytes` (`rounded` up to 256) between guard pages, or nullptr.
void* allocate_guarded(std::size_t bytes, std::size_t rounded) {
  const std::size_t page = page_bytes();
  const std::size_t data_pages = (rounded + page - 1) / page * page;
  const std::size_t total = data_pages + 2 * page;
  void* mapping =
      mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapping == MAP_FAILED) return nullptr;
  auto* const first = static_cast<unsigned char*>(mapping) + page;
  if (mprotect(first, data_pages, PROT_READ | PROT_WRITE) != 0) {
    munmap(mapping, total);
    return nullptr;
  }
  hint_huge_pages(first, data_pages);
  unsigned char* const block = first + data_pages - rounded;
  std::memset(first, kPadByte, static_cast<std::size_t>(block - first));
  std::memset(block + bytes, kPadByte, rounded - bytes);
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  const auto start = reinterpret_cast<std::uintptr_t>(block);
  s.allocations[start] = bytes;
  s.guarded[start] = {reinterpret_cast<std::uintptr_t>(mapping), total, bytes, rounded};
  return block;
}

// Device memory under `--check uninit` starts as the undefined pattern: a kernel's read of bytes
// that still hold it read what nothing wrote (nothing else needs to say what wrote them).
void* mark_undefined(void* block, std::size_t bytes, MemoryKind kind) {
  ProgramState& s = state();
  if (block == nullptr || kind != MemoryKind::device || !s.checks.uninitialized_global) return block;
  fill_undefined_pattern(block, bytes);
  std::lock_guard lock(s.mutex);
  s.patterned.insert(reinterpret_cast<std::uintptr_t>(block));
  return block;
}

}  // namespace

void* allocate(std::size_t bytes, MemoryKind kind) {
  if (bytes == 0) return nullptr;
  constexpr std::size_t kAlignment = 256;
  const std::size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  if (void* block = allocate_guarded(bytes, rounded)) return mark_undefined(block, bytes, kind);
  // No mapping to spare (vm.max_map_count): an unguarded block, as before guards.
  // Zeros, the same in every build (a sanitizer's malloc fills fresh memory with a pattern): CUDA
  // leaves new device memory undefined, and the H100 runs recorded here read zeros in it.
  void* pointer = nullptr;
  if (rounded >= kMappedAllocation) {
    pointer = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pointer == MAP_FAILED) return nullptr;
    hint_huge_pages(pointer, rounded);
  } else {
    pointer = std::aligned_alloc(kAlignment, rounded);
    if (pointer == nullptr) return nullptr;
    std::memset(pointer, 0, rounded);
  }
  {
    ProgramState& s = state();
    std::lock_guard lock(s.mutex);
    s.allocations[reinterpret_cast<std::uintptr_t>(pointer)] = bytes;
  }
  return mark_undefined(pointer, bytes, kind);
}

bool release(void* pointer) {
  if (pointer == nullptr) return true;
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  const auto it = s.allocations.find(reinterpret_cast<std::uintptr_t>(pointer));
  if (it == s.allocations.end() || s.symbols.count(it->first) != 0) return false;
  const std::size_t rounded = (it->second + 255) / 256 * 256;
  remember_freed(s, it->first, it->second);
  s.allocations.erase(it);
  s.patterned.erase(reinterpret_cast<std::uintptr_t>(pointer));
  if (const auto guarded = s.guarded.find(reinterpret_cast<std::uintptr_t>(pointer));
      guarded != s.guarded.end()) {
    munmap(reinterpret_cast<void*>(guarded->second.mapping), guarded->second.mapping_bytes);
    s.guarded.erase(guarded);
    return true;
  }
  if (rounded >= kMappedAllocation) {
    munmap(pointer, rounded);
  } else {
    std::free(pointer);
  }
  return true;
}

bool is_device_address(const void* pointer) {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  return block_holding(s, pointer) != s.allocations.end();
}

void register_symbol(const void* address, std::size_t bytes) {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  if (s.allocations.emplace(reinterpret_cast<std::uintptr_t>(address), bytes).second)
    s.symbols.insert(reinterpret_cast<std::uintptr_t>(address));
}

bool allocation_holding(const void* pointer, const void** start, std::size_t* bytes) {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  const auto it = block_holding(s, pointer);
  if (it == s.allocations.end() || s.symbols.count(it->first)) return false;
  *start = reinterpret_cast<const void*>(it->first);
  *bytes = it->second;
  return true;
}

std::uint64_t launch_count() {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  return s.launches;
}

std::uint64_t host_launch_count() {
  ProgramState& s = state();
  std::lock_guard lock(s.mutex);
  return s.host_launches;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - state().start).count();
}

}  // namespace warpsim::program

namespace {

[[noreturn]] void stop_not_simulated(const std::string& message) {
  std::fflush(nullptr);  // what the program printed so far comes first
  const std::string& dir = warpsim::program::state().dir;
  bool told = false;
  if (!dir.empty()) {
    std::ofstream out(dir + "/" + warpsim::program::kNotSimulatedFile, std::ios::trunc);
    out << message << "\n";
    told = static_cast<bool>(out.flush());
  }
  if (!told) std::fprintf(stderr, "warpsim: %s\n", message.c_str());
  _exit(warpsim::program::kProgramNotSimulatedExitStatus);
}

}  // namespace

extern "C" void warpsim_not_simulated(const char* what, const char* api,
                                      const void* return_address) {
  std::string where = "an unknown line";
  if (return_address != nullptr) {
    const std::vector<warpsim::runtime::CodeLine> lines =
        warpsim::runtime::code_lines({reinterpret_cast<std::uintptr_t>(return_address)});
    if (!lines.empty() && !lines[0].file.empty()) {
      where = std::filesystem::path(lines[0].file).filename().string() + ":" +
              std::to_string(lines[0].line);
    }
  }
  stop_not_simulated(std::string(what) + " is not simulated: " + api + " at " + where);
}

extern "C" void warpsim_not_simulated_at(const char* what, const char* api, const char* file,
                                         unsigned line) {
  stop_not_simulated(std::string(what) + " is not simulated: " + api + " at " +
                     std::filesystem::path(file != nullptr ? file : "?").filename().string() +
                     ":" + std::to_string(line));
}
