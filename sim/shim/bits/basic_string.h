// libstdc++'s <bits/basic_string.h> with the shim's __noinline__ macro set aside: the file writes
// __attribute__((__noinline__)) (see README.md in this folder).
#pragma GCC system_header  // as the file it stands for: #include_next is an extension
#pragma push_macro("__noinline__")
#undef __noinline__
#include_next <bits/basic_string.h>
#pragma pop_macro("__noinline__")
