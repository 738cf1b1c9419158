// Kernel files from C++, for unit tests: run one __global__ function of a CUDA file in the
// simulator (compiled with the host compiler, cached, run in a child process, exactly as
// `warpsim run` does) and get its buffers, trace and diagnostics back as values.
//
//   auto r = warpsim::run_kernel_file({.file = "scan.cu", .kernel = "warp_scan",
//                                      .grid = {2}, .block = {32},
//                                      .args = {warpsim::iota<int>(64), warpsim::zeros<int>(64),
//                                               warpsim::scalar(64)}});
//   // r.status == warpsim::RunStatus::completed, r.buffer<int>(1), r.trace.diagnostics
//
// Arguments go one per kernel parameter, in order: a pointer parameter takes a buffer, any other
// a scalar of the same size. Elements are integers of 8 to 64 bits, bool, float or double (f16
// and bf16 through runner::parse_arg_spec("f16[4]:1,2,3,4")).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "warpsim/runner.hpp"

namespace warpsim {

using KernelArg = runner::ArgSpec;
using runner::KernelFileRequest;
using runner::KernelFileResult;
using runner::OutputBuffer;
using runner::run_kernel_file;
using runner::RunStatus;

namespace detail {
// T's bits, zero-extended to 64 (ArgSpec's form).
template <class T>
std::uint64_t element_bits(T value) {
  std::uint64_t bits = 0;  // the value's bytes, zero-extended (little-endian host)
  std::memcpy(&bits, &value, sizeof value);
  return bits;
}

template <class T>
KernelArg buffer_arg(std::size_t count, runner::BufferInit init) {
  KernelArg arg;
  arg.type = runner::element_type_of<T>();
  arg.is_buffer = true;
  arg.count = count;
  arg.init = init;
  return arg;
}
}  // namespace detail

// A scalar parameter: scalar(42) is an int, scalar(0.5f) a float, scalar(7u) an unsigned.
template <class T>
KernelArg scalar(T value) {
  KernelArg arg;
  arg.type = runner::element_type_of<T>();
  arg.scalar_bits = detail::element_bits(value);
  return arg;
}

// A buffer holding `values`; after the run, KernelFileResult::buffer<T>(index) reads it back.
template <class T>
KernelArg buffer(const std::vector<T>& values) {
  KernelArg arg = detail::buffer_arg<T>(values.size(), runner::BufferInit::list);
  for (const T& value : values) arg.list.push_back(detail::element_bits(value));
  return arg;
}
template <class T>
KernelArg buffer(std::initializer_list<T> values) {
  return buffer(std::vector<T>(values));
}

// `count` zeros (an output buffer), or 0, 1, 2, ... of T.
template <class T>
KernelArg zeros(std::size_t count) {
  return detail::buffer_arg<T>(count, runner::BufferInit::zeros);
}
template <class T>
KernelArg iota(std::size_t count) {
  return detail::buffer_arg<T>(count, runner::BufferInit::iota);
}

// A struct passed by value, its fields in order (scalars and buffers): struct_arg({scalar(32),
// scalar(0.5f), iota<float>(32)}) for `struct { int n; float scale; const float* in; }`. A buffer
// field's contents come back as KernelFileResult::buffer<T>(index, field).
inline KernelArg struct_arg(std::initializer_list<KernelArg> fields) {
  KernelArg arg;
  arg.is_struct = true;
  arg.fields = fields;
  return arg;
}

}  // namespace warpsim
