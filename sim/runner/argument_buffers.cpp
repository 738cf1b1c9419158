#include "argument_buffers.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "warpsim/memory_checks.hpp"

namespace warpsim::runner {
namespace {

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

std::string fill_from_file(const GuardedBuffer& buffer, const ArgSpec& spec) {
  const int fd = open(spec.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "cannot read " + spec.path + ": " + std::strerror(errno);
  struct stat info {};
  const std::uint64_t want = spec.count * element_size(spec.type);
  std::string error;
  if (fstat(fd, &info) != 0) {
    error = "cannot read " + spec.path + ": " + std::strerror(errno);
  } else if (static_cast<std::uint64_t>(info.st_size) != want) {
    error = spec.path + " has " + std::to_string(info.st_size) + " bytes; " + spec.type_text() +
            " needs exactly " + std::to_string(want);
  } else {
    std::uint64_t done = 0;
    while (done < want) {
      const ssize_t n = read(fd, buffer.data + done, want - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error = "cannot read " + spec.path + ": " + (n < 0 ? std::strerror(errno) : "short read");
        break;
      }
      done += static_cast<std::uint64_t>(n);
    }
  }
  close(fd);
  return error;
}

}  // namespace

ArgumentBuffers::ArgumentBuffers(ArgumentBuffers&& other) noexcept
    : buffers_(std::exchange(other.buffers_, {})) {}

ArgumentBuffers& ArgumentBuffers::operator=(ArgumentBuffers&& other) noexcept {
  if (this != &other) {
    release();
    buffers_ = std::exchange(other.buffers_, {});
  }
  return *this;
}

ArgumentBuffers::~ArgumentBuffers() { release(); }

void ArgumentBuffers::release() {
  for (const GuardedBuffer& buffer : buffers_) {
    if (buffer.mapping != nullptr) munmap(buffer.mapping, buffer.mapping_bytes);
    if (buffer.fd >= 0) close(buffer.fd);
  }
  buffers_.clear();
}

namespace {

// Maps `buffer.fd` (sized here when `size_file`) as guard page, data pages, guard page, with the
// data's last byte against the trailing guard; sets mapping, mapping_bytes and data.
std::string map_guarded(GuardedBuffer& buffer, bool size_file) {
  const std::size_t page = page_size();
  const std::size_t bytes = buffer.count * element_size(buffer.type);
  const std::size_t data_pages = (bytes + page - 1) / page * page;
  const std::size_t total = data_pages + 2 * page;
  if (size_file && ftruncate(buffer.fd, static_cast<off_t>(total)) != 0) {
    return std::string("cannot allocate: ") + std::strerror(errno);
  }
  void* mapping = mmap(nullptr, total, PROT_NONE, MAP_SHARED, buffer.fd, 0);
  if (mapping == MAP_FAILED) return std::string("cannot allocate: ") + std::strerror(errno);
  buffer.mapping = static_cast<std::byte*>(mapping);
  buffer.mapping_bytes = total;
  buffer.data = buffer.mapping + page + data_pages - bytes;
  if (data_pages > 0 && mprotect(buffer.mapping + page, data_pages, PROT_READ | PROT_WRITE) != 0) {
    return std::string("cannot allocate: ") + std::strerror(errno);
  }
  return {};
}

}  // namespace

Expected<ArgumentBuffers> ArgumentBuffers::adopt(std::vector<GuardedBuffer> shapes) {
  ArgumentBuffers result;
  for (GuardedBuffer& buffer : shapes) {
    buffer.mapping = nullptr;
    buffer.mapping_bytes = 0;
    result.buffers_.push_back(buffer);
    if (const std::string error = map_guarded(result.buffers_.back(), false); !error.empty()) {
      return warpsim::fail(buffer_label(buffer.arg, buffer.field) + "'s buffer: " + error);
    }
    // The pattern is a hash of each byte's address: this process maps the buffer elsewhere than
    // the one that made it, so it fills it again where its checks will look.
    const GuardedBuffer& mapped = result.buffers_.back();
    if (mapped.undefined) fill_undefined_pattern(mapped.data, mapped.count * element_size(mapped.type));
  }
  return Expected<ArgumentBuffers>(std::move(result));
}

Expected<ArgumentBuffers> ArgumentBuffers::create(const std::vector<ArgSpec>& specs) {
  ArgumentBuffers result;
  for (const BufferSlot& slot : buffer_slots(specs)) {
    const ArgSpec& spec = *slot.spec;
    const std::size_t element = element_size(spec.type);
    auto fail_arg = [&](const std::string& why) {
      return warpsim::fail(buffer_label(slot.arg, slot.field) + " (" + spec.type_text() +
                           "): " + why);
    };
    GuardedBuffer buffer;
    buffer.arg = slot.arg;
    buffer.field = slot.field;
    buffer.type = spec.type;
    buffer.count = spec.count;
    buffer.fd = memfd_create("warpsim-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (buffer.fd < 0) return fail_arg(std::string("cannot allocate: ") + std::strerror(errno));
    result.buffers_.push_back(buffer);
    if (const std::string error = map_guarded(result.buffers_.back(), true); !error.empty()) {
      return fail_arg(error);
    }
    // Its size is fixed from now on: a kernel that truncated the file would make the runner's
    // own reads of the buffer fault.
    fcntl(buffer.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
    buffer = result.buffers_.back();
    std::memset(buffer.data - slack_bytes(buffer), kSlackByte, slack_bytes(buffer));
    switch (spec.init) {
      case BufferInit::zeros:
        break;  // a fresh memory file reads as zeros
      case BufferInit::iota:
        for (std::uint64_t i = 0; i < spec.count; ++i) {
          const std::uint64_t bits = integer_element(spec.type, static_cast<std::int64_t>(i));
          std::memcpy(buffer.data + i * element, &bits, element);  // little-endian host
        }
        break;
      case BufferInit::random:
        for (std::uint64_t i = 0; i < spec.count; ++i) {
          const std::uint64_t bits = random_element(spec.type, spec.seed, spec.low, spec.high, i);
          std::memcpy(buffer.data + i * element, &bits, element);
        }
        break;
      case BufferInit::list:
        for (std::uint64_t i = 0; i < spec.count; ++i) {
          std::memcpy(buffer.data + i * element, &spec.list[i], element);
        }
        break;
      case BufferInit::file:
        if (std::string error = fill_from_file(buffer, spec); !error.empty())
          return fail_arg(error);
        break;
      case BufferInit::undefined:
        fill_undefined_pattern(buffer.data, spec.count * element);
        result.buffers_.back().undefined = true;
        break;
    }
  }
  return Expected<ArgumentBuffers>(std::move(result));
}

const GuardedBuffer* ArgumentBuffers::for_arg(std::size_t arg, std::int32_t field) const {
  for (const GuardedBuffer& buffer : buffers_) {
    if (buffer.arg == arg && buffer.field == field) return &buffer;
  }
  return nullptr;
}

BufferHit ArgumentBuffers::locate(std::uintptr_t address) const {
  for (const GuardedBuffer& buffer : buffers_) {
    const auto start = reinterpret_cast<std::uintptr_t>(buffer.mapping);
    const std::uintptr_t end = start + buffer.mapping_bytes;
    const auto data = reinterpret_cast<std::uintptr_t>(buffer.data);
    const std::uintptr_t data_end = data + buffer.count * element_size(buffer.type);
    const std::uintptr_t page = end - data_end;  // the trailing guard page
    const bool in_leading_guard = address >= start && address < start + page;
    const bool in_trailing_guard = address >= data_end && address < end;
    if (!in_leading_guard && !in_trailing_guard) continue;
    const auto offset = static_cast<std::int64_t>(address) - static_cast<std::int64_t>(data);
    const auto size = static_cast<std::int64_t>(element_size(buffer.type));
    // Round toward minus infinity so that the byte before the buffer is element -1.
    const std::int64_t element = offset >= 0 ? offset / size : -((-offset + size - 1) / size);
    return {&buffer, element};
  }
  return {};
}

std::size_t ArgumentBuffers::slack_bytes(const GuardedBuffer& buffer) {
  if (buffer.mapping == nullptr) return 0;
  return static_cast<std::size_t>(buffer.data - buffer.mapping) - page_size();
}

std::vector<BufferOverwrite> ArgumentBuffers::writes_before() const {
  std::vector<BufferOverwrite> found;
  for (const GuardedBuffer& buffer : buffers_) {
    const std::size_t slack = slack_bytes(buffer);
    const std::byte* start = buffer.data - slack;
    std::size_t lowest = slack, highest = 0;  // offsets into the slack of changed bytes
    for (std::size_t i = 0; i < slack; ++i) {
      if (start[i] == std::byte{kSlackByte}) continue;
      lowest = std::min(lowest, i);
      highest = i;
    }
    if (lowest == slack) continue;
    const auto size = static_cast<std::int64_t>(element_size(buffer.type));
    const auto element = [&](std::size_t i) {
      const std::int64_t offset = static_cast<std::int64_t>(i) - static_cast<std::int64_t>(slack);
      return -((-offset + size - 1) / size);  // offset < 0: rounded toward minus infinity
    };
    found.push_back({&buffer, element(lowest), element(highest)});
  }
  return found;
}

}  // namespace warpsim::runner
