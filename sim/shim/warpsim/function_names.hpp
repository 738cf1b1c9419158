// A function's name from an address in its code, for launches that name their kernel only by a
// pointer (cub's device-wide algorithms launch every kernel through one `k<<<...>>>` in Thrust's
// triple_chevron): the symbol table of the object that holds the address says which function's
// code it lies in.
#pragma once

namespace warpsim {

// The function whose code holds `address`, demangled and shortened to the first part of its
// namespace and its own name, without template arguments or parameters:
//   void cub::CUB_300001_SM_900::detail::reduce::DeviceReduceKernel<...>(...) -> "cub::DeviceReduceKernel"
//   void scale<float>(float*, int)                                             -> "scale"
// `fallback` when no symbol covers it (a stripped object). The text lives as long as the
// program. Thread-safe.
const char* function_name_at(const void* address, const char* fallback);

}  // namespace warpsim
