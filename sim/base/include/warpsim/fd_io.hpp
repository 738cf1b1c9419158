// Whole reads and writes on a file descriptor (a pipe, a memfd): every byte, retried where a
// signal cut a call short. False on an error (errno says which) or when the other end closed
// first (errno EIO).
#pragma once

#include <unistd.h>

#include <cerrno>
#include <cstddef>

namespace warpsim {

namespace fd_io_detail {
template <class Io, class Byte>
bool transfer_all(Io io, int fd, Byte* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = io(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace fd_io_detail

inline bool write_all(int fd, const void* data, std::size_t size) {
  return fd_io_detail::transfer_all(::write, fd, static_cast<const char*>(data), size);
}

inline bool read_all(int fd, void* data, std::size_t size) {
  return fd_io_detail::transfer_all(::read, fd, static_cast<char*>(data), size);
}

}  // namespace warpsim
