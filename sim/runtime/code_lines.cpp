#include "warpsim/code_lines.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>

#include "warpsim/fd_io.hpp"

namespace warpsim::runtime {
namespace {

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// The shim's headers and the system's: an access there is reported at its caller's line.
bool library_file(const std::string& file) {
  const bool shim = file.find("/warpsim/") != std::string::npos &&
                    (ends_with(file, ".hpp") || ends_with(file, ".inc") || ends_with(file, ".h"));
  return shim || file.rfind("/usr/", 0) == 0 || file.front() == '<';
}

// The helper start_line_helper forked: requests go to it, its replies come back (-1: none).
int g_helper_requests = -1;
int g_helper_replies = -1;

// One message: its length, then its bytes.
bool send_text(int fd, const std::string& text) {
  const std::uint64_t size = text.size();
  return write_all(fd, &size, sizeof size) && write_all(fd, text.data(), text.size());
}

bool receive_text(int fd, std::string& text) {
  std::uint64_t size = 0;
  if (!read_all(fd, &size, sizeof size) || size > (std::uint64_t{64} << 20)) {
    return false;
  }
  text.resize(size);
  return read_all(fd, text.data(), text.size());
}

// addr2line -i -a -e OBJECT ADDRESS... run directly (no shell); what it printed on stdout.
std::string run_addr2line(const std::string& object, const std::vector<std::string>& addresses) {
  std::vector<std::string> words{"addr2line", "-i", "-a", "-e", object};
  words.insert(words.end(), addresses.begin(), addresses.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  int out[2];
  if (::pipe(out) != 0) return {};
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(out[0]);
    ::close(out[1]);
    return {};
  }
  if (pid == 0) {
    ::dup2(out[1], STDOUT_FILENO);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, STDERR_FILENO);
    ::execvp("addr2line", argv.data());
    ::_exit(127);
  }
  ::close(out[1]);
  std::string output;
  char buffer[4096];
  for (ssize_t n; (n = ::read(out[0], buffer, sizeof buffer)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return output;
}

// The helper's loop: a request is one message, the object's path, a newline and the addresses;
// it answers with addr2line's output. Only addr2line over a file that exists, whatever is asked.
[[noreturn]] void serve_lines(int requests, int replies) {
  for (std::string request; receive_text(requests, request);) {
    const std::size_t newline = request.find('\n');
    const std::string object = request.substr(0, newline);
    bool valid = newline != std::string::npos && !object.empty() && object.front() != '-' &&
                 ::access(object.c_str(), R_OK) == 0;
    std::vector<std::string> addresses;
    std::istringstream words(valid ? request.substr(newline + 1) : std::string());
    for (std::string address; valid && words >> address;) {
      valid = addresses.size() < 4096 && address.size() > 2 && address.size() <= 18 &&
              address.rfind("0x", 0) == 0 &&
              address.find_first_not_of("0123456789abcdef", 2) == std::string::npos;
      addresses.push_back(std::move(address));
    }
    if (!send_text(replies, valid ? run_addr2line(object, addresses) : std::string())) break;
  }
  ::_exit(0);
}

// addr2line's output for `offsets` of `object`: from the helper where there is one, else run here.
std::string addr2line_output(const std::string& object,
                             const std::vector<std::pair<std::uintptr_t, std::size_t>>& offsets) {
  std::vector<std::string> addresses;
  for (const auto& [offset, index] : offsets) {
    std::ostringstream hex;
    hex << "0x" << std::hex << offset;
    addresses.push_back(hex.str());
  }
  if (g_helper_requests >= 0) {
    std::string request = object + "\n", output;
    for (const std::string& address : addresses) request += address + " ";
    if (send_text(g_helper_requests, request) && receive_text(g_helper_replies, output)) {
      return output;
    }
    return {};
  }
  return run_addr2line(object, addresses);
}

// addr2line -i -a over `offsets` of `object`: each address's best frame.
void locate_in(const std::string& object,
               const std::vector<std::pair<std::uintptr_t, std::size_t>>& offsets,
               std::vector<CodeLine>& lines) {
  const std::string output = addr2line_output(object, offsets);

  std::istringstream in(output);
  std::size_t which = 0;
  bool started = false, chosen = false;
  CodeLine fallback;
  const auto settle = [&] {
    if (started && !chosen && which < offsets.size()) lines[offsets[which].second] = fallback;
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("0x", 0) == 0) {
      settle();
      if (started) ++which;
      started = true;
      chosen = false;
      fallback = {};
      continue;
    }
    if (!started || chosen || which >= offsets.size()) continue;
    const std::optional<CodeLine> frame = parse_code_line(line);
    if (!frame) continue;
    if (fallback.file.empty()) fallback = *frame;
    if (!library_file(frame->file)) {
      lines[offsets[which].second] = *frame;
      chosen = true;
    }
  }
  settle();
}

}  // namespace

std::optional<CodeLine> parse_code_line(std::string text) {
  text = text.substr(0, text.find(" (discriminator"));
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || text.compare(0, 2, "??") == 0)
    return std::nullopt;
  CodeLine out;
  try {
    out.line = static_cast<std::uint32_t>(std::stoul(text.substr(colon + 1)));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  out.file = text.substr(0, colon);
  if (out.line == 0) return std::nullopt;
  return out;
}

bool start_line_helper() {
  if (g_helper_requests >= 0) return true;
  int requests[2], replies[2];
  if (::pipe2(requests, O_CLOEXEC) != 0) return false;
  if (::pipe2(replies, O_CLOEXEC) != 0) {
    ::close(requests[0]);
    ::close(requests[1]);
    return false;
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    for (const int fd : {requests[0], requests[1], replies[0], replies[1]}) ::close(fd);
    return false;
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(0);
    // Nothing of the process it came from stays open here (its result pipe above all: the parent
    // waits for that to close), but its two pipe ends and stderr.
    for (int fd = 3; fd < 1024; ++fd) {
      if (fd != requests[0] && fd != replies[1]) ::close(fd);
    }
    serve_lines(requests[0], replies[1]);
  }
  ::close(requests[0]);
  ::close(replies[1]);
  g_helper_requests = requests[1];
  g_helper_replies = replies[0];
  return true;
}

std::vector<CodeLine> code_lines(const std::vector<std::uintptr_t>& return_addresses) {
  std::vector<CodeLine> lines(return_addresses.size());
  std::map<std::string, std::vector<std::pair<std::uintptr_t, std::size_t>>> by_object;
  for (std::size_t i = 0; i < return_addresses.size(); ++i) {
    const std::uintptr_t pc = return_addresses[i] - 1;  // inside the call instruction
    Dl_info info{};
    link_map* map = nullptr;
    if (dladdr1(reinterpret_cast<void*>(pc), &info, reinterpret_cast<void**>(&map),
                RTLD_DL_LINKMAP) == 0 ||
        map == nullptr || info.dli_fname == nullptr) {
      continue;
    }
    std::string object = info.dli_fname;
    if (object.empty()) object = "/proc/self/exe";
    by_object[object].emplace_back(pc - map->l_addr, i);
  }
  for (const auto& [object, offsets] : by_object) locate_in(object, offsets, lines);
  return lines;
}

}  // namespace warpsim::runtime
