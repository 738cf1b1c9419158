/* Stand-in for <assert.h> when a file is compiled for the simulator: the C library's, then, in
   CUDA C++ files (the shim read first), assert() as CUDA's device assert: in kernel code a failed
   assertion prints what the GPU prints and stops the launch, the program going on with
   cudaErrorAssert (warpsim/device_assert.hpp); in host code it is the C library's. No include
   guard, as the C library's: each inclusion defines assert anew, by NDEBUG. */
#pragma GCC system_header  /* as the file it stands for: #include_next is an extension */
#include_next <assert.h>
#if defined(__cplusplus) && defined(WARPSIM_DEVICE_ASSERT) && !defined(NDEBUG)
#undef assert
#define assert(expression)                                                               \
  (static_cast<bool>(expression)                                                         \
       ? void(0)                                                                         \
       : ::warpsim::shim::assert_failed(#expression, __FILE__, __LINE__,                 \
                                        __extension__ __PRETTY_FUNCTION__))
#endif
