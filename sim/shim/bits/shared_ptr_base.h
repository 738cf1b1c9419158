// libstdc++'s <bits/shared_ptr_base.h> with the shim's __noinline__ macro set aside: the file writes
// __attribute__((__noinline__)) (see README.md in this folder).
#pragma GCC system_header  // as the file it stands for: #include_next is an extension
#pragma push_macro("__noinline__")
#undef __noinline__
#include_next <bits/shared_ptr_base.h>
#pragma pop_macro("__noinline__")
