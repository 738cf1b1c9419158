// The sandbox of untrusted kernel files (warpsim/sandbox.hpp, sandbox_process.hpp): how the
// compiler and the kernel host are started in it, and the kernel host's own confinement.
//
// Layers, outermost first:
//  - bwrap (bubblewrap, no root needed where unprivileged user namespaces are allowed): its own
//    user, PID, network, IPC and UTS namespaces; every file read-only; the hidden folders
//    (the exercises with their reference solutions, the other submissions, the kernel cache) are
//    empty tmpfs mounts, with only the paths the run needs bound back read-only; a private /tmp;
//    the scratch folder the one place it may write; it dies with the grader.
//  - else unshare(2) of the user, network and IPC namespaces: no network, but the files are the
//    user's own.
//  - always: a new session, resource limits (CPU time, address space, file size, no core file),
//    a scrubbed environment, and in the kernel host a seccomp filter (x86-64 and AArch64) that
//    stops the kernel with SIGSYS when it creates a process, runs a program, opens a socket,
//    signals another process, or writes, creates or removes a file.
#include "sandbox_process.hpp"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "subprocess.hpp"

extern char** environ;

namespace warpsim::runner {
namespace fs = std::filesystem;
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizedBuild = true;  // the sanitizers reserve terabytes of address space
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif
#else
constexpr bool kSanitizedBuild = false;
#endif

std::string canonical(const std::string& path) {
  std::error_code error;
  fs::path resolved = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) resolved = fs::absolute(path, error).lexically_normal();
  std::string text = resolved.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

bool under(const std::string& path, const std::string& root) {
  if (root == "/") return true;
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
                          path[root.size()] == '/');
}

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

bool is_directory(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// ---------------------------------------------------------------------------------------------
// The syscall filter

struct Trapped {
  long number;
  const char* name;
};

// What no kernel needs: every call here stops the kernel (SIGSYS, reported by the stop handler).
constexpr Trapped kTrapped[] = {
#ifdef __NR_fork
    {__NR_fork, "fork (a new process)"},
#endif
#ifdef __NR_vfork
    {__NR_vfork, "vfork (a new process)"},
#endif
    {__NR_execve, "execve (running a program)"},
    {__NR_execveat, "execveat (running a program)"},
    {__NR_socket, "socket (a network connection)"},
    {__NR_socketpair, "socketpair"},
    {__NR_ptrace, "ptrace"},
    {__NR_process_vm_readv, "process_vm_readv"},
    {__NR_process_vm_writev, "process_vm_writev"},
    {__NR_tkill, "tkill (signalling another thread or process)"},
    {__NR_rt_sigqueueinfo, "rt_sigqueueinfo (signalling another process)"},
    {__NR_rt_tgsigqueueinfo, "rt_tgsigqueueinfo (signalling another process)"},
#ifdef __NR_pidfd_open
    {__NR_pidfd_open, "pidfd_open"},
    {__NR_pidfd_send_signal, "pidfd_send_signal"},
    {__NR_pidfd_getfd, "pidfd_getfd"},
#endif
#ifdef __NR_creat
    {__NR_creat, "creat (creating a file)"},
#endif
#ifdef __NR_openat2
    {__NR_openat2, "openat2"},
#endif
    {__NR_open_by_handle_at, "open_by_handle_at"},
#ifdef __NR_unlink
    {__NR_unlink, "unlink (removing a file)"},
    {__NR_rename, "rename (moving a file)"},
    {__NR_mkdir, "mkdir (creating a folder)"},
    {__NR_rmdir, "rmdir (removing a folder)"},
    {__NR_link, "link"},
    {__NR_symlink, "symlink"},
    {__NR_chmod, "chmod"},
    {__NR_chown, "chown"},
    {__NR_lchown, "lchown"},
    {__NR_mknod, "mknod"},
    {__NR_utime, "utime"},
    {__NR_utimes, "utimes"},
    {__NR_futimesat, "futimesat"},
#endif
    {__NR_unlinkat, "unlinkat (removing a file)"},
#ifdef __NR_renameat
    {__NR_renameat, "renameat (moving a file)"},
#endif
    {__NR_renameat2, "renameat2 (moving a file)"},
    {__NR_mkdirat, "mkdirat (creating a folder)"},
    {__NR_linkat, "linkat"},
    {__NR_symlinkat, "symlinkat"},
    {__NR_truncate, "truncate (changing a file)"},
    {__NR_ftruncate, "ftruncate (changing a file)"},
    {__NR_fallocate, "fallocate (changing a file)"},
    {__NR_fchmod, "fchmod"},
    {__NR_fchmodat, "fchmodat"},
    {__NR_fchown, "fchown"},
    {__NR_fchownat, "fchownat"},
    {__NR_mknodat, "mknodat"},
    {__NR_utimensat, "utimensat (changing a file's times)"},
    {__NR_setxattr, "setxattr"},
    {__NR_lsetxattr, "lsetxattr"},
    {__NR_fsetxattr, "fsetxattr"},
    {__NR_removexattr, "removexattr"},
    {__NR_lremovexattr, "lremovexattr"},
    {__NR_fremovexattr, "fremovexattr"},
    {__NR_mount, "mount"},
    {__NR_umount2, "umount2"},
    {__NR_chroot, "chroot"},
    {__NR_pivot_root, "pivot_root"},
    {__NR_unshare, "unshare"},
    {__NR_setns, "setns"},
    {__NR_bpf, "bpf"},
    {__NR_perf_event_open, "perf_event_open"},
    {__NR_add_key, "add_key"},
    {__NR_request_key, "request_key"},
    {__NR_keyctl, "keyctl"},
#ifdef __NR_io_uring_setup
    {__NR_io_uring_setup, "io_uring_setup"},
#endif
};

#if defined(__x86_64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_X86_64;
constexpr bool kHaveFilter = true;
#elif defined(__aarch64__)
constexpr std::uint32_t kAuditArch = AUDIT_ARCH_AARCH64;
constexpr bool kHaveFilter = true;
#else
constexpr std::uint32_t kAuditArch = 0;
constexpr bool kHaveFilter = false;
#endif

constexpr std::uint32_t kWriteFlags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;

sock_filter statement(std::uint16_t code, std::uint32_t k) { return BPF_STMT(code, k); }
sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t yes, std::uint8_t no) {
  return BPF_JUMP(code, k, yes, no);
}
// The low 32 bits of argument `i` (little-endian, as both architectures here are).
sock_filter load_argument(int i) {
  return statement(BPF_LD | BPF_W | BPF_ABS,
                   static_cast<std::uint32_t>(offsetof(seccomp_data, args) + 8 * i));
}
sock_filter load_number() {
  return statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
}
constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kTrap = SECCOMP_RET_TRAP;

// `body` (which ends in returns) runs for system call `number`; the rest skip it.
void when_call(std::vector<sock_filter>& program, long number, std::vector<sock_filter> body) {
  program.push_back(load_number());
  program.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(number), 0,
                         static_cast<std::uint8_t>(body.size())));
  program.insert(program.end(), body.begin(), body.end());
}

std::vector<sock_filter> filter_program(pid_t self) {
  std::vector<sock_filter> p;
  p.push_back(statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kAuditArch, 1, 0));
  p.push_back(statement(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
  p.push_back(load_number());
#if defined(__x86_64__)
  p.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));  // the x32 ABI's numbers
  p.push_back(statement(BPF_RET | BPF_K, kTrap));
#endif
  for (const Trapped& t : kTrapped) {
    p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(t.number), 0, 1));
    p.push_back(statement(BPF_RET | BPF_K, kTrap));
  }
  // Threads (the launch's block workers) yes, processes no.
  when_call(p, __NR_clone,
            {load_argument(0), jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
             statement(BPF_RET | BPF_K, kAllow), statement(BPF_RET | BPF_K, kTrap)});
#ifdef __NR_clone3
  // Its flags are behind a pointer: glibc falls back to clone on ENOSYS.
  when_call(p, __NR_clone3, {statement(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS)});
#endif
  const auto open_flags = [](int argument) {
    return std::vector<sock_filter>{load_argument(argument),
                                    jump(BPF_JMP | BPF_JSET | BPF_K, kWriteFlags, 0, 1),
                                    statement(BPF_RET | BPF_K, kTrap),
                                    statement(BPF_RET | BPF_K, kAllow)};
  };
  when_call(p, __NR_openat, open_flags(2));
#ifdef __NR_open
  when_call(p, __NR_open, open_flags(1));
#endif
  // Signals to itself only (raise, abort); never to the grader or anyone else.
  const auto to_self = [self] {
    return std::vector<sock_filter>{
        load_argument(0), jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(self), 0, 1),
        statement(BPF_RET | BPF_K, kAllow), statement(BPF_RET | BPF_K, kTrap)};
  };
  when_call(p, __NR_kill, to_self());
  when_call(p, __NR_tgkill, to_self());
  // The stop handler reports a trapped call; a kernel may not take SIGSYS over.
  when_call(p, __NR_rt_sigaction,
            {load_argument(0), jump(BPF_JMP | BPF_JEQ | BPF_K, SIGSYS, 0, 1),
             statement(BPF_RET | BPF_K, kTrap), statement(BPF_RET | BPF_K, kAllow)});
  p.push_back(statement(BPF_RET | BPF_K, kAllow));
  return p;
}

Expected<void> install_filter() {
  if (!kHaveFilter) return fail("no syscall filter for this architecture");
  std::vector<sock_filter> program = filter_program(getpid());
  sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return fail(std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno));
  }
  // Every thread of the process (TSYNC), or the calling one where TSYNC is unknown.
  if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &fprog) != 0 &&
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
    return fail(std::string("seccomp: ") + std::strerror(errno));
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Probes: each in a child process that only calls what a forked child of a threaded parent may.

bool child_succeeds(int (*probe)()) {
  const pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) _exit(probe() == 0 ? 0 : 1);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int probe_namespaces() { return unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC); }

int probe_filter() {
  sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  sock_fprog fprog{1, &allow};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0);
}

// ---------------------------------------------------------------------------------------------
// Spawning

std::vector<std::string> scrubbed_environment(const Sandbox& box) {
  std::vector<std::string> env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string_view name = text.substr(0, text.find('='));
    const bool keep = name == "PATH" || name == "LANG" || name == "LANGUAGE" || name == "TZ" ||
                      name == "LD_LIBRARY_PATH" || name.substr(0, 3) == "LC_" ||
                      name.substr(0, 8) == "WARPSIM_" || name == "ASAN_OPTIONS" ||
                      name == "UBSAN_OPTIONS" || name == "LSAN_OPTIONS" || name == "TSAN_OPTIONS";
    if (keep) env.emplace_back(text);
  }
  if (!box.scratch.empty()) {
    env.push_back("HOME=" + box.scratch);
    env.push_back("TMPDIR=" + box.scratch);
  }
  return env;
}

std::vector<std::string> bwrap_arguments(const Sandbox& box, const ConfinedSpawn& spawn,
                                         int info_fd) {
  std::vector<std::string> a{box.bwrap,  "--die-with-parent", "--new-session", "--unshare-all",
                             "--ro-bind", "/",                 "/",             "--dev",
                             "/dev",      "--proc",            "/proc",         "--tmpfs",
                             "/tmp"};
  if (spawn.kernel_host) a.push_back("--as-pid-1");  // signals reach it; its end ends them all
  std::vector<std::string> hidden;
  for (const std::string& h : box.hidden) hidden.push_back(canonical(h));
  std::sort(hidden.begin(), hidden.end(),
            [](const std::string& x, const std::string& y) { return x.size() < y.size(); });
  for (const std::string& h : hidden) {
    if (h == "/" || !exists(h)) continue;
    if (is_directory(h)) {
      a.insert(a.end(), {"--tmpfs", h});
    } else {
      a.insert(a.end(), {"--ro-bind", "/dev/null", h});
    }
  }
  const auto bind = [&](const char* how, const std::string& path) {
    const std::string p = canonical(path);
    if (!p.empty() && p != "/" && exists(p)) a.insert(a.end(), {how, p, p});
  };
  for (const std::string& v : box.visible) bind("--ro-bind", v);
  for (const std::string& r : spawn.readable) bind("--ro-bind", r);
  for (const std::string& w : spawn.writable) bind("--bind", w);
  if (!box.scratch.empty()) {
    bind("--bind", box.scratch);
    a.insert(a.end(), {"--chdir", canonical(box.scratch)});
  }
  if (info_fd >= 0) a.insert(a.end(), {"--info-fd", std::to_string(info_fd)});
  a.push_back("--");
  return a;
}

std::vector<char*> c_strings(std::vector<std::string>& texts) {
  std::vector<char*> out;
  for (std::string& text : texts) out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

struct ChildPlan {
  const char* program = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  std::vector<std::pair<int, int>> moves;  // (lifted descriptor, target number)
  std::vector<std::pair<int, rlimit>> limits;
  bool namespaces = false;
  const char* chdir_to = nullptr;
  int report_fd = -1;  // errno goes here when something fails before exec
};

// Tells the parent errno through `report_fd` and ends the forked child.
[[noreturn]] void die_reporting(int report_fd) {
  const int error = errno;
  (void)!write(report_fd, &error, sizeof error);
  _exit(127);
}

// The forked child: only calls that are safe after fork in a threaded process.
[[noreturn]] void become_confined(const ChildPlan& plan) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  for (const int s : {SIGPIPE, SIGUSR1, SIGXFSZ, SIGXCPU, SIGSYS}) sigaction(s, &defaults, nullptr);
  const auto die = [&] { die_reporting(plan.report_fd); };
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (setsid() < 0) die();
  for (const auto& [from, to] : plan.moves) {
    if (dup2(from, to) < 0) die();
  }
  for (const auto& [resource, limit] : plan.limits) {
    if (setrlimit(resource, &limit) != 0) die();
  }
  if (plan.namespaces && unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWIPC) != 0) die();
  if (plan.chdir_to != nullptr && chdir(plan.chdir_to) != 0) die();
  execve(plan.program, plan.argv, plan.envp);
  die_reporting(plan.report_fd);
}

// bwrap's --info-fd: {"child-pid": 12345, ...}; -1 when it did not say in time.
pid_t read_child_pid(int fd) {
  std::string text;
  char chunk[512];
  while (text.find('}') == std::string::npos) {
    pollfd entry{fd, POLLIN, 0};
    const int ready = poll(&entry, 1, 10000);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    const ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  const std::size_t key = text.find("\"child-pid\"");
  if (key == std::string::npos) return -1;
  const std::size_t colon = text.find(':', key);
  if (colon == std::string::npos) return -1;
  return static_cast<pid_t>(std::strtol(text.c_str() + colon + 1, nullptr, 10));
}

}  // namespace

std::string_view to_string(Isolation isolation) {
  switch (isolation) {
    case Isolation::none:
      return "none";
    case Isolation::limits:
      return "limits";
    case Isolation::namespaces:
      return "namespaces";
    case Isolation::bwrap:
      return "bwrap";
  }
  return "?";
}

bool Sandbox::can_read(const std::string& path) const {
  if (!active()) return true;
  const std::string resolved = canonical(path);
  const bool shown = std::any_of(visible.begin(), visible.end(), [&](const std::string& v) {
    return under(resolved, canonical(v));
  });
  if (shown) return true;
  return std::none_of(hidden.begin(), hidden.end(),
                      [&](const std::string& h) { return under(resolved, canonical(h)); });
}

IsolationProbe probe_isolation() {
  IsolationProbe probe;
  probe.syscall_filter = kHaveFilter && child_succeeds(&probe_filter);
  std::string why;
  const std::string bwrap = find_program("bwrap");
  const std::string truth = find_program("true");
  if (bwrap.empty()) {
    why = "bwrap is not installed (Debian and Ubuntu: apt install bubblewrap)";
  } else {
    const ProcessOutput run = run_process({bwrap, "--die-with-parent", "--new-session",
                                           "--unshare-all", "--ro-bind", "/", "/", "--dev", "/dev",
                                           "--proc", "/proc", "--tmpfs", "/tmp", "--as-pid-1",
                                           "--", truth.empty() ? "/bin/true" : truth});
    if (run.started && run.exit_code == 0) {
      probe.isolation = Isolation::bwrap;
      probe.bwrap = bwrap;
    } else {
      std::string said = run.output.substr(0, run.output.find('\n'));
      why = "bwrap cannot make its namespaces here" + (said.empty() ? "" : " (" + said + ")");
    }
  }
  if (probe.isolation != Isolation::bwrap) {
    if (child_succeeds(&probe_namespaces)) {
      probe.isolation = Isolation::namespaces;
      probe.note = why;
    } else {
      probe.isolation = Isolation::limits;
      probe.note = why + "; unprivileged user namespaces are not allowed either";
    }
  }
  if (!probe.syscall_filter) {
    probe.note += std::string(probe.note.empty() ? "" : "; ") +
                  "no seccomp syscall filter on this machine";
  }
  return probe;
}

std::string describe(const Sandbox& box) {
  std::string text;
  switch (box.isolation) {
    case Isolation::none:
      return "none: submissions run with all of this user's rights";
    case Isolation::bwrap:
      text = "bwrap: files read-only, the exercises and other submissions hidden, no network, "
             "own processes; writes only to a scratch folder";
      break;
    case Isolation::namespaces:
      text = "namespaces (no bwrap): no network, but submissions CAN READ this user's files, "
             "the reference solutions and other submissions included";
      break;
    case Isolation::limits:
      text = "resource limits only (no bwrap, no namespaces): submissions CAN READ this user's "
             "files and reach the network";
      break;
  }
  text += "; limits: " + std::to_string(box.limits.cpu_seconds) + " s CPU, " +
          (kSanitizedBuild ? std::string("no memory limit (sanitizer build)")
                           : std::to_string(box.limits.memory_bytes >> 20) + " MiB memory") +
          ", files up to " + std::to_string(box.limits.file_bytes >> 20) + " MiB";
  text += box.syscall_filter
              ? "; syscall filter: a kernel that starts a process, opens a socket or writes a "
                "file is stopped"
              : "; NO syscall filter (seccomp is not available): a kernel may start processes "
                "and, where the files are not read-only, write them";
  return text;
}

SpawnedProcess spawn_confined(const Sandbox& box, const ConfinedSpawn& spawn) {
  SpawnedProcess out;
  if (spawn.argv.empty()) {
    out.failure = "nothing to run";
    return out;
  }
  const std::string program = find_program(spawn.argv[0]);
  if (program.empty()) {
    out.failure = "cannot find '" + spawn.argv[0] + "'";
    return out;
  }
  // The grader's own memory (the reference's outputs among it) closed to processes of the same
  // user that lack CAP_SYS_PTRACE: /proc/PID/mem of a non-dumpable process is not theirs to read.
  // The kernel host drops its capabilities (confine_kernel_host), so that root's are not it.
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  std::vector<std::pair<int, int>> wanted = spawn.fds;
  int highest = 2;
  for (const auto& [from, to] : wanted) highest = std::max(highest, to);
  const bool want_pid = box.isolation == Isolation::bwrap && spawn.kernel_host;
  const int info_target = highest + 1;

  std::vector<std::string> args;
  std::string executable;
  if (box.isolation == Isolation::bwrap) {
    args = bwrap_arguments(box, spawn, want_pid ? info_target : -1);
    args.push_back(program);
    args.insert(args.end(), spawn.argv.begin() + 1, spawn.argv.end());
    executable = box.bwrap;
  } else {
    args = spawn.argv;
    executable = program;
  }
  std::vector<std::string> env = scrubbed_environment(box);
  std::vector<char*> argv = c_strings(args);
  std::vector<char*> envp = c_strings(env);

  std::vector<int> opened;  // closed here once the child has them
  const auto close_opened = [&] {
    for (const int fd : opened) close(fd);
    opened.clear();
  };
  const auto failed = [&](const std::string& what) {
    out.failure = what + ": " + std::strerror(errno);
    close_opened();
    return out;
  };
  const int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) return failed("/dev/null");
  opened.push_back(null_fd);
  for (const int standard : {0, 1, 2}) {
    const bool given = std::any_of(wanted.begin(), wanted.end(),
                                   [&](const auto& m) { return m.second == standard; });
    if (!given) wanted.emplace_back(null_fd, standard);
  }
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return failed("pipe");
  opened.push_back(report[0]);
  opened.push_back(report[1]);
  int info[2] = {-1, -1};
  if (want_pid) {
    if (pipe2(info, O_CLOEXEC) != 0) return failed("pipe");
    opened.push_back(info[0]);
    opened.push_back(info[1]);
    wanted.emplace_back(info[1], info_target);
  }
  // Each source lifted above every target first, so that no dup2 overwrites a source.
  ChildPlan plan;
  for (const auto& [from, to] : wanted) {
    const int lifted = fcntl(from, F_DUPFD_CLOEXEC, info_target + 1);
    if (lifted < 0) return failed("fcntl");
    opened.push_back(lifted);
    plan.moves.emplace_back(lifted, to);
  }
  const auto limit = [](std::uint64_t soft, std::uint64_t hard) {
    return rlimit{static_cast<rlim_t>(soft), static_cast<rlim_t>(hard)};
  };
  const ResourceLimits& l = box.limits;
  plan.limits.emplace_back(RLIMIT_CORE, limit(0, 0));
  plan.limits.emplace_back(RLIMIT_CPU, limit(l.cpu_seconds, l.cpu_seconds + 5));
  plan.limits.emplace_back(RLIMIT_FSIZE, limit(l.file_bytes, l.file_bytes));
  if (!kSanitizedBuild) plan.limits.emplace_back(RLIMIT_AS, limit(l.memory_bytes, l.memory_bytes));
  plan.program = executable.c_str();
  plan.argv = argv.data();
  plan.envp = envp.data();
  plan.namespaces = box.isolation == Isolation::namespaces;
  plan.chdir_to = box.isolation != Isolation::bwrap && !box.scratch.empty() ? box.scratch.c_str()
                                                                          : nullptr;
  plan.report_fd = report[1];

  const pid_t pid = fork();
  if (pid < 0) return failed("fork");
  if (pid == 0) become_confined(plan);

  // Ours: only the read ends of the two pipes.
  std::erase(opened, report[0]);
  if (want_pid) std::erase(opened, info[0]);
  close_opened();
  int error = 0;
  ssize_t n = 0;
  do {
    n = read(report[0], &error, sizeof error);
  } while (n < 0 && errno == EINTR);
  close(report[0]);
  if (n == static_cast<ssize_t>(sizeof error)) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (want_pid) close(info[0]);
    out.failure = "cannot start " + spawn.argv[0] + " in the sandbox (" +
                  std::string(to_string(box.isolation)) + "): " + std::strerror(error);
    return out;
  }
  out.pid = pid;
  out.signal_pid = pid;
  if (want_pid) {
    const pid_t inside = read_child_pid(info[0]);
    close(info[0]);
    if (inside > 0) out.signal_pid = inside;
  }
  return out;
}

int program_wait_status(const Sandbox& box, int wait_status) {
  if (box.isolation != Isolation::bwrap || !WIFEXITED(wait_status)) return wait_status;
  const int code = WEXITSTATUS(wait_status);
  if (code > 128 && code < 128 + 65) return code - 128;  // as waitpid reports signal N
  return wait_status;
}

Expected<void> confine_kernel_host(Isolation isolation, bool syscall_filter,
                                   std::uint64_t processes) {
  if (isolation == Isolation::none) return {};
  // No capabilities, even for a grader run as root: another process's memory (the grader's,
  // non-dumpable) and files beyond the user's own permissions are out of reach.
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capset, &header, none) != 0) {
    return fail(std::string("dropping capabilities: ") + std::strerror(errno));
  }
  // Inside bwrap's user namespace the count of processes starts afresh; elsewhere it would count
  // every process of the user (and root is not limited at all).
  if (isolation == Isolation::bwrap) {
    const rlimit limit{static_cast<rlim_t>(processes), static_cast<rlim_t>(processes)};
    if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
      return fail(std::string("RLIMIT_NPROC: ") + std::strerror(errno));
    }
  }
  if (syscall_filter) return install_filter();
  return {};
}

std::string trapped_call_name(long number) {
  for (const Trapped& t : kTrapped) {
    if (t.number == number) return t.name;
  }
  if (number == __NR_clone) return "clone (a new process)";
  if (number == __NR_openat) return "openat (a file opened for writing)";
#ifdef __NR_open
  if (number == __NR_open) return "open (a file opened for writing)";
#endif
  if (number == __NR_kill || number == __NR_tgkill) return "kill (signalling another process)";
  if (number == __NR_rt_sigaction) return "sigaction on SIGSYS";
  return "system call " + std::to_string(number);
}

}  // namespace warpsim::runner
