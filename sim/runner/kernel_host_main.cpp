// warpsim-kernel-host: runs one kernel for the runner. The parent starts it with exec (never a
// bare fork: a forked copy of a threaded parent, such as the GUI, can inherit a lock another
// thread held, the dynamic loader's among them, and hang in dlopen). It reads its JobMessage,
// maps the parent's buffers and runs the kernel as kernel_child.hpp describes. Started with
// kServeArgument, it serves many launches, each in a process of its own that it forks and that
// then goes on here as a host started for that launch (host_session.hpp).
#include <unistd.h>

#include <cerrno>
#include <string>
#include <string_view>

#include "child_protocol.hpp"
#include "host_session.hpp"
#include "kernel_child.hpp"

namespace {

using namespace warpsim::runner;

[[noreturn]] void refuse(const std::string& why) {
  const std::string message = "warpsim-kernel-host: " + why;
  write_frame(kResultFd, FrameTag::bad_input, message.data(), message.size());
  _exit(4);
}

std::string read_job() {
  std::string bytes;
  char chunk[65536];
  while (true) {
    const ssize_t n = read(kJobFd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse("cannot read the job");
    if (n == 0) break;
    bytes.append(chunk, static_cast<std::size_t>(n));
  }
  close(kJobFd);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == kServeArgument) serve_launches();
  auto job = decode_job(read_job());
  if (!job) refuse("the job it was given is malformed (started by hand? warpsim starts it)");
  for (std::size_t i = 0; i < job->buffers.size(); ++i) {
    job->buffers[i].fd = kFirstBufferFd + static_cast<int>(i);
  }
  auto buffers = ArgumentBuffers::adopt(job->buffers);
  if (!buffers) refuse(buffers.error().message);
  run_child({job->shared_object, &job->specs, &*buffers, job->options, job->want_trace, kResultFd,
             job->isolation, job->syscall_filter, job->max_processes, job->time_limit_seconds});
}
