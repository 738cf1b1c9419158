// Scanning kernel files for __global__ functions, resolving --kernel, and preparing the source.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "runner/kernel_scan.hpp"
#include "runner/source_tokens.hpp"
#include "runner/user_headers.hpp"
#include "warpsim/runner.hpp"

using namespace warpsim::runner;

namespace {

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::string line_of(const std::string& text, std::size_t line) {  // 1-based
  std::size_t start = 0;
  for (std::size_t i = 1; i < line; ++i) start = text.find('\n', start) + 1;
  return text.substr(start, text.find('\n', start) - start);
}

std::vector<std::string> names(const std::vector<KernelInfo>& kernels) {
  std::vector<std::string> out;
  for (const KernelInfo& kernel : kernels) out.push_back(kernel.name);
  return out;
}

}  // namespace

TEST_CASE("scan_kernels finds __global__ functions with their namespaces and lines") {
  const std::string source = R"cu(#include <cstdio>
#define KERNEL_NAME(x) x // __global__ void in_a_macro_comment() {}
#define DECLARE __global__ void hidden_in_macro(int*)
// __global__ void commented_out(int* x);
/* __global__ void
   also_commented(int* x); */
const char* text = "__global__ void in_a_string(int*)";
__global__ void plain(int* x) { x[0] = '}'; }
namespace outer {
__global__ void __launch_bounds__(256, 2) bounded(float* y) {}
namespace inner { __global__ void deep(int) {} }
namespace {
__global__ void hidden(int) {}
}
}  // namespace outer
namespace a::b {
static __global__ void nested(int) {}
}
template <typename T, int N = 4>
__global__ void templated(T* data) {}
template <> __global__ void templated<int, 4>(int* data) {}
extern "C" __global__ void c_linkage(int* x) {}
__global__ void plain(int* x);
struct S { int f() { return 0; } };
inline namespace v1 { __global__ void versioned() {} }
)cu";
  const auto kernels = scan_kernels(source);
  CHECK(names(kernels) == std::vector<std::string>{"plain", "outer::bounded", "outer::inner::deep",
                                                   "outer::hidden", "a::b::nested", "templated",
                                                   "c_linkage", "v1::versioned"});
  REQUIRE(kernels.size() == 8);
  CHECK(kernels[0].line == 8);
  CHECK_FALSE(kernels[0].is_template);
  CHECK(kernels[1].line == 10);
  CHECK(kernels[5].is_template);
  CHECK(kernels[5].line == 20);
}

TEST_CASE("resolve_kernel accepts plain, qualified and instantiated names") {
  const std::vector<KernelInfo> kernels{
      {"reduce", false, 1},  {"ns::scan", false, 2}, {"a::dup", false, 3}, {"b::dup", false, 4},
      {"ns::sort", true, 5}, {"dup2", false, 6},     {"x::dup2", false, 7}};
  struct Row {
    const char* requested;
    const char* expression;
    const char* name;
  };
  const Row ok[] = {
      {"reduce", "::reduce", "reduce"},
      {"::reduce", "::reduce", "reduce"},
      {"scan", "::ns::scan", "ns::scan"},
      {"ns::scan", "::ns::scan", "ns::scan"},
      {"a::dup", "::a::dup", "a::dup"},
      {"sort<256>", "::ns::sort<256>", "ns::sort<256>"},
      {"ns::sort<float, 4>", "::ns::sort<float, 4>", "ns::sort<float, 4>"},
      {"dup2", "::dup2", "dup2"},  // the exact name wins over a namespaced one
  };
  for (const Row& row : ok) {
    const std::string requested = row.requested;
    CAPTURE(requested);
    auto choice = resolve_kernel(kernels, row.requested, "k.cu");
    REQUIRE_MESSAGE(choice, choice.error().message);
    CHECK(choice->expression == row.expression);
    CHECK(choice->name == row.name);
  }

  struct Bad {
    const char* requested;
    const char* message_part;
  };
  const Bad bad[] = {
      {"foo",
       "unknown kernel 'foo'; kernels in k.cu: reduce, ns::scan, a::dup, b::dup, "
       "ns::sort<...>, dup2, x::dup2"},
      {"dup", "kernel 'dup' is ambiguous in k.cu: a::dup, b::dup"},
      {"sort", "is a template; name an instantiation, e.g. --kernel 'ns::sort<256>'"},
      {"reduce<4>", "is not a template"},
      {"sort<4", "is not a kernel name"},
      {"", "is not a kernel name"},
      {"can", "unknown kernel"},  // a suffix must be a whole name
  };
  for (const Bad& row : bad) {
    const std::string requested = row.requested;
    CAPTURE(requested);
    auto choice = resolve_kernel(kernels, row.requested, "k.cu");
    CHECK_FALSE(choice);
    CHECK_MESSAGE(choice.error().message.find(row.message_part) != std::string::npos,
                  choice.error().message);
  }
}

TEST_CASE("extern __shared__ declarations become references to the runtime's buffer") {
  struct Row {
    const char* source;
    const char* expected;
  };
  const Row rows[] = {
      {"extern __shared__ float s[];",
       "float (&s)[] = *reinterpret_cast<float (*)[]>(warpsim_runner_dynamic_shared_);"},
      {"  extern   __shared__   int   partial [ ] ;  // tail",
       "  int (&partial)[] = *reinterpret_cast<int (*)[]>(warpsim_runner_dynamic_shared_);"
       "  // tail"},
      {"extern __shared__ __align__(16) unsigned char smem[];",
       "unsigned char (&smem)[] = *reinterpret_cast<unsigned char (*)[]>"
       "(warpsim_runner_dynamic_shared_);"},
      {"extern __shared__ alignas(8) double d[];",
       "double (&d)[] = *reinterpret_cast<double (*)[]>(warpsim_runner_dynamic_shared_);"},
      {"__shared__ extern volatile T buf[];",
       "volatile T (&buf)[] = *reinterpret_cast<volatile T (*)[]>"
       "(warpsim_runner_dynamic_shared_);"},
      {"extern __shared__ char raw[] __attribute__((aligned(16)));",
       "char (&raw)[] = *reinterpret_cast<char (*)[]>(warpsim_runner_dynamic_shared_);"},
      {"extern __shared__ Pair<int, float> pairs[];",
       "Pair < int , float > (&pairs)[] = *reinterpret_cast<Pair < int , float > (*)[]>"
       "(warpsim_runner_dynamic_shared_);"},
      // A 2-D array: the buffer as rows (cudaTensorCoreGemm's shmem[][CHUNK_K * K + SKEW]).
      {"extern __shared__ half shmem[][CHUNK_K * K + SKEW_HALF];",
       "half (&shmem)[][CHUNK_K*K+SKEW_HALF] = *reinterpret_cast<half (*)[][CHUNK_K*K+SKEW_HALF]>"
       "(warpsim_runner_dynamic_shared_);"},
      // alignas after __shared__ (nvcc takes it there, C++ only before the decl-specifiers).
      {"__shared__ alignas(alignof(float4)) float As[4][4];",
       "alignas(alignof(float4)) __shared__  float As[4][4];"},
      {"  static __shared__ alignas(16) int t[8];", "  alignas(16) static __shared__  int t[8];"},
      // Left alone: static shared arrays, comments, strings, other externs.
      {"__shared__ float tile[32][33];", "__shared__ float tile[32][33];"},
      {"// extern __shared__ float s[];", "// extern __shared__ float s[];"},
      {"const char* t = \"extern __shared__ float s[];\";",
       "const char* t = \"extern __shared__ float s[];\";"},
      {"extern int counter;", "extern int counter;"},
  };
  for (const Row& row : rows) {
    const std::string source = row.source;
    CAPTURE(source);
    CHECK(rewrite_extern_shared(row.source) == row.expected);
  }
  // In a macro's definition (the samples' SharedMemory<T> specializations), lines kept.
  const std::string macro =
      "#define SHARED(t, n) \\\n  t& at(int i) { \\\n    extern __shared__ t n[]; \\\n"
      "    return n[i]; \\\n  }\nSHARED(float, s_float)\n";
  const std::string rewritten = rewrite_extern_shared(macro);
  CHECK(rewritten.find("t (&n)[] = *reinterpret_cast<t (*)[]>(warpsim_runner_dynamic_shared_); \\\n") !=
        std::string::npos);
  CHECK(rewritten.find("extern") == std::string::npos);
  CHECK(std::count(rewritten.begin(), rewritten.end(), '\n') ==
        std::count(macro.begin(), macro.end(), '\n'));
}

TEST_CASE("the rewrite keeps every line where it was") {
  const std::string source =
      "__global__ void k(float* out) {\n"
      "  extern __shared__\n"
      "      __align__(16)\n"
      "      float s[];  /* spans\n"
      "  lines */\n"
      "  s[threadIdx.x] = 1.0f;\n"
      "  extern __shared__ int t[]; out[0] = t[0];\n"
      "}\n";
  const std::string rewritten = rewrite_extern_shared(source);
  CHECK(count_lines(rewritten) == count_lines(source));
  CHECK(line_of(rewritten, 2).find("float (&s)[]") != std::string::npos);
  CHECK(line_of(rewritten, 3).empty());
  CHECK(line_of(rewritten, 4) == "  /* spans");
  CHECK(line_of(rewritten, 5) == "  lines */");
  CHECK(line_of(rewritten, 6) == "  s[threadIdx.x] = 1.0f;");
  CHECK(line_of(rewritten, 7).find("int (&t)[]") != std::string::npos);
  CHECK(line_of(rewritten, 7).find("out[0] = t[0];") != std::string::npos);
  CHECK(line_of(rewritten, 8) == "}");
}

TEST_CASE("prepare_source puts the user's lines under #line and registers the kernel after") {
  const std::string user = "__global__ void k(int* x) { x[0] = __LINE__; }\n// last line";
  const std::string prepared =
      prepare_source(user, "/home/me/my \"kernels\"/k.cu", {"::ns::k<2>", "ns::k<2>"});
  const std::size_t line_directive =
      prepared.find("#line 1 \"/home/me/my \\\"kernels\\\"/k.cu\"\n");
  REQUIRE(line_directive != std::string::npos);
  const std::size_t user_start = prepared.find('\n', line_directive) + 1;
  // The user's lines, each where it was: a kernel the file defines is registered right after its
  // body, on the same line (graphs and cudaLaunchKernel take kernels as void*).
  const std::string first_line = "__global__ void k(int* x) { x[0] = __LINE__; }";
  CHECK(prepared.compare(user_start, first_line.size(), first_line) == 0);
  const std::size_t last_line = prepared.find("\n// last line", user_start);
  REQUIRE(last_line != std::string::npos);
  CHECK(std::count(prepared.begin() + static_cast<std::ptrdiff_t>(user_start),
                   prepared.begin() + static_cast<std::ptrdiff_t>(last_line), '\n') == 0);
  const std::size_t generated = prepared.find("#line 1 \"<warpsim-generated>\"");
  REQUIRE(generated != std::string::npos);
  CHECK(generated > last_line);
  CHECK(prepared.find("kernel_registry.hpp") < line_directive);
  CHECK(prepared.find("warpsim::kernel_descriptor< &::ns::k<2> >::value(\"ns::k<2>\")") !=
        std::string::npos);
  CHECK(prepared.find(std::string("extern \"C\"")) > generated);
  CHECK(prepared.find(kKernelEntrySymbol) != std::string::npos);
  CHECK(prepared.find("__asm__(\"warpsim_dynamic_shared_base\")") < line_directive);
}

TEST_CASE("rewrite_launches turns each <<<>>> into the shim's launch_kernel, lines kept") {
  struct Case {
    std::string source, kernel, config;
  };
  for (const Case& c : std::vector<Case>{
           {"  k<<<4, 256>>>(a, n);", "k", "4, 256"},
           {"ns::k<<<g, b, 0, s>>>();", "ns::k", "g, b, 0, s"},
           {"::top<<<1,32>>>(x);", "::top", "1,32"},
           {"reduce<float, 256><<<dim3(n / 256), dim3(256, 1)>>>(p);", "reduce<float, 256>",
            "dim3(n / 256), dim3(256, 1)"},
           {"a::b<int>::k<8><<<grid, f(x >> 1)>>>(p);", "a::b<int>::k<8>", "grid, f(x >> 1)"},
           {"nest<vec<int>><<<1, 1>>>(p);", "nest<vec<int>>", "1, 1"},
           // Template arguments with commas, comparisons in parentheses, nested templates.
           {"reduceMultiPass<512, true><<<grid, block, smem>>>(in, out, n);",
            "reduceMultiPass<512, true>", "grid, block, smem"},
           {"k<T, (N > 2)><<<g, b>>>(x);", "k<T, (N > 2)>", "g, b"},
           {"k<T, (N >> 1)><<<g, b>>>(x);", "k<T, (N >> 1)>", "g, b"},
           {"k<Foo<int, 2>, 3><<<g, b>>>(x);", "k<Foo<int, 2>, 3>", "g, b"},
           {"k<sizeof(int), a[1]><<<g, b>>>(x);", "k<sizeof(int), a[1]>", "g, b"},
           {"ns::template k<T><<<g, b>>>(x);", "ns::template k<T>", "g, b"},
           // Packs, function pointers, spaces and comments.
           {"kernel<<<g, b>>>(std::forward<Args>(args)...);", "kernel", "g, b"},
           {"k<<<1, 32>>>(a...);", "k", "1, 32"},
           {"k <<< dim3(a, b), dim3(c), 0, stream >>>(x);", "k", " dim3(a, b), dim3(c), 0, stream "},
           {"k<<<g, /* block */ b>>>(x);", "k", "g, /* block */ b"},
           {"if (c) ::ns::k<<<1, 32>>>(x);", "::ns::k", "1, 32"},
           {"else ::k<<<1, 32>>>(x);", "::k", "1, 32"},
           {"[&] { k<<<1, 32>>>(x); }();", "k", "1, 32"},
           // nvcc's lexer: `<<` then `<`, `>>` then `>`, the third apart (Rodinia's form).
           {"k << < nb, tpb >> >(a, n);", "k", " nb, tpb "},
           {"k<< <g, b>>>(x);", "k", "g, b"},
           // Any postfix expression that yields a kernel or a pointer to one.
           {"form->kernel<<<1, 32>>>(in, out);", "form->kernel", "1, 32"},
           {"table.k<<<1, 32>>>(x);", "table.k", "1, 32"},
           {"kernels[i % 2]<<<g, b>>>(x);", "kernels[i % 2]", "g, b"},
           {"(*fp)<<<g, b>>>(x);", "(*fp)", "g, b"},
           {"if (c) (*fp)<<<g, b>>>(x);", "(*fp)", "g, b"},
           {"while (c) ns::k<<<g, b>>>(x);", "ns::k", "g, b"},
           {"get(a, b)->k<<<g, b>>>(x);", "get(a, b)->k", "g, b"},
           {"p->tab[j].fn<<<g, b>>>(x);", "p->tab[j].fn", "g, b"},
           {"s.template k<T><<<g, b>>>(x);", "s.template k<T>", "g, b"},
           {"x = 1; kernels[0]<<<g, b>>>(x);", "kernels[0]", "g, b"},
       }) {
    CAPTURE(c.source);
    const std::string rewritten = rewrite_launches(c.source);
    CHECK(rewritten.find("::warpsim::shim::launch_kernel(\"" + c.kernel +
                         "\", __FILE__, __LINE__, ::warpsim::shim::launch_config(" + c.config +
                         "), [&](auto&&... warpsim_launch_args_) { " + c.kernel +
                         "(warpsim_launch_args_...); })(") != std::string::npos);
    CHECK(rewritten.find("<<<") == std::string::npos);
    CHECK(rewritten.find(">>>") == std::string::npos);
  }
  // Rodinia's spacing, the arguments apart too.
  CHECK(rewrite_launches("k << < nb, tpb >> > (a, n);") ==
        "::warpsim::shim::launch_kernel(\"k\", __FILE__, __LINE__, ::warpsim::shim::launch_config( "
        "nb, tpb ), [&](auto&&... warpsim_launch_args_) { k(warpsim_launch_args_...); }) (a, n);");
  // A bare 0 or NULL argument stays a null pointer constant (Rodinia's huffman passes 0 for an
  // unsigned int*); other zeros, inside expressions or the configuration, are left alone.
  const std::string zeros = rewrite_launches("k<<<1, 0>>>(p, 0, NULL, n0, f(0, 1), 0 + x);");
  CHECK(zeros.find("(p, ::warpsim::shim::ZeroLiteral{}, ::warpsim::shim::ZeroLiteral{}, n0, "
                   "f(0, 1), 0 + x);") != std::string::npos);
  CHECK(zeros.find("launch_config(1, 0)") != std::string::npos);
  CHECK(rewrite_launches("k<<<1, 1>>>(0);", LaunchTarget::gpu_recorder).find("ZeroLiteral") ==
        std::string::npos);
  // Launch configurations over several lines keep every line where it was.
  const std::string multi = "int x;\nk<<<grid,\n    block>>>(a,\n b);\nint y;\n";
  const std::string rewritten = rewrite_launches(multi);
  CHECK(std::count(rewritten.begin(), rewritten.end(), '\n') == 5);
  CHECK(line_of(rewritten, 5) == "int y;");
  CHECK(line_of(rewritten, 3) ==
        "    block), [&](auto&&... warpsim_launch_args_) { k(warpsim_launch_args_...); })(a,");
  // Comments, strings and shifts are left alone.
  for (const std::string untouched :
       {"// k<<<1, 1>>>();", "const char* s = \"k<<<1, 1>>>()\";", "int y = x << 2 >> 1;",
        "x <<<", "k < << 1, 1 >>> (x);"}) {
    CAPTURE(untouched);
    CHECK(rewrite_launches(untouched) == untouched);
  }
}

TEST_CASE("calls of cub's device-wide algorithms are marked with the user's line") {
  const std::string marked = "(::warpsim::shim::LibraryCallSite(__FILE__, __LINE__), ";
  struct Case {
    std::string source, call;
  };
  for (const Case& c : std::vector<Case>{
           {"CHECK(cub::DeviceReduce::Sum(tmp, bytes, in, out, n));",
            "cub::DeviceReduce::Sum(tmp, bytes, in, out, n)"},
           {"e = ::cub::DeviceScan::ExclusiveSum<int*, int*>(t, b, f(x), y, n);",
            "::cub::DeviceScan::ExclusiveSum<int*, int*>(t, b, f(x), y, n)"},
           {"cub::DeviceRadixSort::SortPairs(t, b,\n    k, v, n);", "cub::DeviceRadixSort::SortPairs(t, b,\n    k, v, n)"},
       }) {
    CAPTURE(c.source);
    const std::string rewritten = mark_library_calls(c.source);
    CHECK(rewritten.find(marked + c.call + ")") != std::string::npos);
    CHECK(count_lines(rewritten) == count_lines(c.source));
  }
  // Not a call of a device-wide algorithm, or not cub's: left alone.
  for (const std::string untouched :
       {"auto f = &cub::DeviceReduce::Sum<int*, int*>;", "cub::BlockReduce<int, 128> r;",
        "my::cub::DeviceReduce::Sum(a);", "// cub::DeviceReduce::Sum(a);",
        "const char* s = \"cub::DeviceReduce::Sum(a)\";"}) {
    CAPTURE(untouched);
    CHECK(mark_library_calls(untouched) == untouched);
  }
}

TEST_CASE("a launch whose template arguments span lines keeps its lines; its name is one line") {
  const std::string source = "reduce<T,\n       512><<<g, b>>>(x);\nint y;\n";
  const std::string rewritten = rewrite_launches(source);
  CHECK(count_lines(rewritten) == count_lines(source));
  CHECK(line_of(rewritten, 3) == "int y;");
  CHECK(rewritten.find("launch_kernel(\"reduce<T,        512>\"") != std::string::npos);
}

TEST_CASE("launches in a macro's definition are rewritten there, lines and continuations kept") {
  struct Case {
    std::string source, expected;
  };
  for (const Case& c : std::vector<Case>{
           // The kernel a parameter: the record names the macro's argument.
           {"#define LAUNCH(k, n) k<<<(n + 255) / 256, 256>>>(x)\n",
            "#define LAUNCH(k, n) ::warpsim::shim::launch_kernel(#k, __FILE__, __LINE__, "
            "::warpsim::shim::launch_config((n + 255) / 256, 256), [&](auto&&... "
            "warpsim_launch_args_) { k(warpsim_launch_args_...); })(x)\n"},
           // A qualified template whose argument is a parameter.
           {"#define RUN(T) ns::k<T, 4><<<1, 32>>>(p)\n",
            "#define RUN(T) ::warpsim::shim::launch_kernel(\"ns::k<\" #T \", 4>\", __FILE__, "
            "__LINE__, ::warpsim::shim::launch_config(1, 32), [&](auto&&... "
            "warpsim_launch_args_) { ns::k<T, 4>(warpsim_launch_args_...); })(p)\n"},
           // A pasted name; a macro that ends at `>>>` (its use gives the arguments).
           {"#define RUN(n) n##_kernel<<<1, 32>>>\n",
            "#define RUN(n) ::warpsim::shim::launch_kernel(#n \"_kernel\", __FILE__, __LINE__, "
            "::warpsim::shim::launch_config(1, 32), [&](auto&&... warpsim_launch_args_) { "
            "n##_kernel(warpsim_launch_args_...); })\n"},
           // An object-like macro: the name as written.
           {"#define GO k<<<G, B>>>(x)\n",
            "#define GO ::warpsim::shim::launch_kernel(\"k\", __FILE__, __LINE__, "
            "::warpsim::shim::launch_config(G, B), [&](auto&&... warpsim_launch_args_) { "
            "k(warpsim_launch_args_...); })(x)\n"},
       }) {
    CAPTURE(c.source);
    CHECK(rewrite_launches(c.source) == c.expected);
  }
  // Continuation lines stay continuation lines; the lines after the macro stay where they were.
  const std::string continued =
      "#define LAUNCH2(k) \\\n  k<<<1,           \\\n      32>>>(x, 6)\nint after;\n";
  const std::string rewritten = rewrite_launches(continued);
  CHECK(count_lines(rewritten) == count_lines(continued));
  CHECK(line_of(rewritten, 4) == "int after;");
  CHECK(line_of(rewritten, 2) ==
        "  ::warpsim::shim::launch_kernel(#k, __FILE__, __LINE__, "
        "::warpsim::shim::launch_config(1,           \\");
  CHECK(line_of(rewritten, 3) ==
        "      32), [&](auto&&... warpsim_launch_args_) { k(warpsim_launch_args_...); })(x, 6)");
  // A macro that only holds a configuration (`KERNEL_ARGS(g, b) <<<g, b>>>`) has no kernel: left.
  const std::string config_only = "#define KERNEL_ARGS(g, b) <<<g, b>>>\n";
  CHECK(rewrite_launches(config_only) == config_only);
  // For nvcc the launch in the macro stays a launch, wrapped.
  CHECK(rewrite_launches("#define L(k) k<<<1, 32>>>(x)\n", LaunchTarget::gpu_recorder) ==
        "#define L(k) ::warpsim::gpu_hooks::launch_kernel(#k, __FILE__, __LINE__, "
        "::warpsim::gpu_hooks::launch_shape(1, 32), [&](const ::warpsim::gpu_hooks::LaunchShape& "
        "warpsim_launch_shape_, auto&&... warpsim_launch_args_) { "
        "k<<<warpsim_launch_shape_.grid, warpsim_launch_shape_.block, "
        "warpsim_launch_shape_.shared_bytes, warpsim_launch_shape_.stream>>>"
        "(warpsim_launch_args_...); })(x)\n");
}

TEST_CASE("for nvcc, launches with template commas stay launches inside the recorder's wrapper") {
  const std::string rewritten =
      rewrite_launches("k<Foo<int, 2>, (N > 2)><<<g, b, 0, s>>>(a, b);", LaunchTarget::gpu_recorder);
  CHECK(rewritten ==
        "::warpsim::gpu_hooks::launch_kernel(\"k<Foo<int, 2>, (N > 2)>\", __FILE__, __LINE__, "
        "::warpsim::gpu_hooks::launch_shape(g, b, 0, s), [&](const "
        "::warpsim::gpu_hooks::LaunchShape& warpsim_launch_shape_, auto&&... "
        "warpsim_launch_args_) { k<Foo<int, 2>, (N > 2)><<<warpsim_launch_shape_.grid, "
        "warpsim_launch_shape_.block, warpsim_launch_shape_.shared_bytes, "
        "warpsim_launch_shape_.stream>>>(warpsim_launch_args_...); })(a, b);");
}

TEST_CASE("for nvcc, the hook gets the launch's stream: the fourth configuration value, else 0") {
  // The configuration, stream included, is evaluated once, in launch_shape; the launch inside
  // the wrapper takes all four values from it (the hook asks whether that stream is capturing).
  const std::string with_stream = rewrite_launches(
      "reduce<<<numOfBlocks, THREADS, 0, stream1>>>(in, out, n);", LaunchTarget::gpu_recorder);
  CHECK(with_stream.find("::warpsim::gpu_hooks::launch_shape(numOfBlocks, THREADS, 0, "
                         "stream1)") != std::string::npos);
  CHECK(with_stream.find("<<<warpsim_launch_shape_.grid, warpsim_launch_shape_.block, "
                         "warpsim_launch_shape_.shared_bytes, warpsim_launch_shape_.stream>>>") !=
        std::string::npos);
  CHECK(with_stream.find("stream1>>>") == std::string::npos);
  // Without a stream the shape's default (0, the default stream) stands.
  CHECK(rewrite_launches("k<<<g, b>>>(x);", LaunchTarget::gpu_recorder)
            .find("launch_shape(g, b), ") != std::string::npos);
  // A configuration over several lines keeps the lines of everything after it.
  const std::string spread =
      rewrite_launches("k<<<g,\n b, 0,\n streams[i]>>>(x);\nint after;", LaunchTarget::gpu_recorder);
  CHECK(std::count(spread.begin(), spread.end(), '\n') == 3);
  CHECK(spread.find("launch_shape(g,\n b, 0,\n streams[i])") != std::string::npos);
}

TEST_CASE("for nvcc, a launch in kernel code takes the same form (the hook launches it as written)") {
  // Dynamic parallelism: the launch in the parent's body goes through the hook too, whose call,
  // launch_shape and the lambda are device code there (gpu_launch_hooks.hpp); the device
  // streams CUDA names (cudaStreamTailLaunch, cudaStreamFireAndForget) reach the launch as the
  // shape's stream.
  const std::string parent =
      "__global__ void parent(int* d, int n) {\n"
      "  if (threadIdx.x == 0) child<<<n / 32, 32, 0, cudaStreamTailLaunch>>>(d, n);\n"
      "  leaf<<<1, 1>>>(d);\n"
      "}\n";
  const std::string rewritten = rewrite_user_file(parent, LaunchTarget::gpu_recorder);
  CHECK(count_lines(rewritten) == 4);
  CHECK(line_of(rewritten, 2) ==
        "  if (threadIdx.x == 0) ::warpsim::gpu_hooks::launch_kernel(\"child\", __FILE__, "
        "__LINE__, ::warpsim::gpu_hooks::launch_shape(n / 32, 32, 0, cudaStreamTailLaunch), "
        "[&](const ::warpsim::gpu_hooks::LaunchShape& warpsim_launch_shape_, auto&&... "
        "warpsim_launch_args_) { child<<<warpsim_launch_shape_.grid, "
        "warpsim_launch_shape_.block, warpsim_launch_shape_.shared_bytes, "
        "warpsim_launch_shape_.stream>>>(warpsim_launch_args_...); })(d, n);");
  CHECK(line_of(rewritten, 3).find("::warpsim::gpu_hooks::launch_kernel(\"leaf\", __FILE__, "
                                   "__LINE__, ::warpsim::gpu_hooks::launch_shape(1, 1), ") !=
        std::string::npos);
  CHECK(line_of(rewritten, 3).find("})(d);") != std::string::npos);
}

TEST_CASE("host variables, parameters and members named as built-ins get names of their own") {
  struct Case {
    std::string source, expected;
  };
  for (const Case& c : std::vector<Case>{
           // Locals, as the tensor-core samples declare them; the launch reads them.
           {"void f() {\n  dim3 gridDim;\n  dim3 blockDim;\n  blockDim.x = 128;\n"
            "  k<<<gridDim, blockDim>>>();\n}\n",
            "void f() {\n  dim3 warpsim_host_gridDim;\n  dim3 warpsim_host_blockDim;\n"
            "  warpsim_host_blockDim.x = 128;\n"
            "  k<<<warpsim_host_gridDim, warpsim_host_blockDim>>>();\n}\n"},
           // Declared together; only from the declaration on.
           {"void f() { int a = blockDim.x; dim3 gridDim(1), blockDim(32); g(gridDim, blockDim); }",
            "void f() { int a = blockDim.x; dim3 warpsim_host_gridDim(1), "
            "warpsim_host_blockDim(32); g(warpsim_host_gridDim, warpsim_host_blockDim); }"},
           // Parameters, by reference, with a member initializer list.
           {"void run(dim3 gridDim, const dim3& blockDim) { k<<<gridDim, blockDim>>>(); }",
            "void run(dim3 warpsim_host_gridDim, const dim3& warpsim_host_blockDim) { "
            "k<<<warpsim_host_gridDim, warpsim_host_blockDim>>>(); }"},
           {"S::S(dim3 gridDim) : g_(gridDim), h_{gridDim} { use(gridDim); }",
            "S::S(dim3 warpsim_host_gridDim) : g_(warpsim_host_gridDim), "
            "h_{warpsim_host_gridDim} { use(warpsim_host_gridDim); }"},
           // Members, used in the class and through objects and pointers.
           {"struct P {\n  dim3 gridDim;\n  int n() { return gridDim.x; }\n};\n"
            "void f(P p, P* q) { k<<<p.gridDim, q->gridDim>>>(); }\n",
            "struct P {\n  dim3 warpsim_host_gridDim;\n  int n() { return warpsim_host_gridDim.x; }\n"
            "};\nvoid f(P p, P* q) { k<<<p.warpsim_host_gridDim, q->warpsim_host_gridDim>>>(); }\n"},
           // Arrays and templates as types.
           {"void f() { int blockDim[3]; std::array<int, 3> gridDim; }",
            "void f() { int warpsim_host_blockDim[3]; std::array<int, 3> warpsim_host_gridDim; }"},
           // In a loop whose header assigns (deviceQueryDrv: `for (dev = 0; ...) { int
           // blockDim[3]; ...}`): the `=` in the parentheses makes it no initializer.
           {"int main() { for (d = 0; d < n; ++d) { int blockDim[3]; g(blockDim[0]); } }",
            "int main() { for (d = 0; d < n; ++d) { int warpsim_host_blockDim[3]; "
            "g(warpsim_host_blockDim[0]); } }"},
       }) {
    CAPTURE(c.source);
    CHECK(rename_host_builtins(c.source) == c.expected);
  }
  // Kernels keep reading the built-ins: uses, products, returns, arguments.
  for (const std::string kept :
       {"__global__ void k(int* o) { o[0] = gridDim.x * blockDim.x + threadIdx.x; }",
        "__device__ dim3 shape() { return blockDim; }",
        "__global__ void k() { f(gridDim, blockDim); int n = x * blockDim.x; }",
        "__global__ void k() { if (threadIdx.x < blockDim.x) return; }",
        "dim3 gridDim;  // at namespace scope: left to the compiler"}) {
    CAPTURE(kept);
    CHECK(rename_host_builtins(kept) == kept);
  }
  // The whole preparation renames too, and keeps the lines.
  const std::string program = "int main() {\n  dim3 gridDim(4);\n  k<<<gridDim, 32>>>();\n}\n";
  const std::string prepared = prepare_program_source(program, "/tmp/p.cu");
  CHECK(prepared.find("launch_config(warpsim_host_gridDim, 32)") != std::string::npos);
}

TEST_CASE(
    "each non-template kernel defined once is registered after its body, on its line, with its "
    "parameters") {
  const std::string reg_k = " WARPSIM_REGISTER_KERNEL(k, \"k\", ( ))";
  struct Case {
    std::string source, expected;
  };
  for (const Case& c : std::vector<Case>{
           {"__global__ void k(int* p) {\n  p[0] = 1;\n}\nint x;\n",
            "__global__ void k(int* p) {\n  p[0] = 1;\n}"
            " WARPSIM_REGISTER_KERNEL(k, \"k\", ( int * p ))\nint x;\n"},
           // Default arguments are not part of the type; attributes before the name are skipped.
           {"__global__ void __launch_bounds__(64) k(int n = f(1, 2), float* q = nullptr) {}",
            "__global__ void __launch_bounds__(64) k(int n = f(1, 2), float* q = nullptr) {}"
            " WARPSIM_REGISTER_KERNEL(k, \"k\", ( int n , float * q ))"},
           // In a namespace (the message names it qualified) and in an extern "C" block.
           {"namespace ns { __global__ void k() {} }",
            "namespace ns { __global__ void k() {} WARPSIM_REGISTER_KERNEL(k, \"ns::k\", ( )) }"},
           {"extern \"C\" { __global__ void k() {} }",
            "extern \"C\" { __global__ void k() {}" + reg_k + " }"},
           // Not: templates, declarations, overloads, qualified definitions, devices functions.
           {"template <int N> __global__ void t(int* p) { p[0] = N; }",
            "template <int N> __global__ void t(int* p) { p[0] = N; }"},
           {"__global__ void k(int* p);", "__global__ void k(int* p);"},
           {"__global__ void k(int* p) {}\n__global__ void k(float* p) {}\n",
            "__global__ void k(int* p) {}\n__global__ void k(float* p) {}\n"},
           {"__global__ void ns::k() {}", "__global__ void ns::k() {}"},
           {"__device__ void d() {}", "__device__ void d() {}"},
           // Preprocessor lines among the parameters (Rodinia's mummergpu): they cannot go into
           // a macro's argument, so the name alone registers it.
           {"__global__ void k(int* p,\n#if WIDE\n  int* q,\n#else\n  char* q,\n#endif\n  int n) {}\n",
            "__global__ void k(int* p,\n#if WIDE\n  int* q,\n#else\n  char* q,\n#endif\n  int n) {}"
            " WARPSIM_REGISTER_ONLY_KERNEL(k, \"k\")\n"},
       }) {
    CAPTURE(c.source);
    CHECK(register_defined_kernels(c.source) == c.expected);
  }
}

TEST_CASE("include_directives finds each #include with a literal name, and its line") {
  const std::string source =
      "#include <cstdio>\n// #include \"commented.h\"\n  #  include \"a/b.cuh\" // note\n"
      "#define H \"x.h\"\n#include H\nconst char* s = \"#include <no.h>\";\n#include_next <n.h>\n"
      "#if 0\n#include \"off.h\"\n#endif\n";
  const std::vector<IncludeDirective> includes = include_directives(source);
  REQUIRE(includes.size() == 3);
  CHECK(source.substr(includes[0].name_offset, includes[0].name_size) == "cstdio");
  CHECK(includes[0].angled);
  CHECK(includes[0].line == 1);
  CHECK(source.substr(includes[1].name_offset, includes[1].name_size) == "a/b.cuh");
  CHECK_FALSE(includes[1].angled);
  CHECK(includes[1].line == 3);
  CHECK(source.substr(includes[2].name_offset, includes[2].name_size) == "off.h");
  CHECK(includes[2].line == 9);
}

namespace {

// A folder tree in memory for prepare_user_headers.
struct Files {
  std::map<std::string, std::string> contents;
  FileReader reader() const {
    return [this](const std::string& path) -> std::optional<std::string> {
      const auto it = contents.find(path);
      if (it == contents.end()) return std::nullopt;
      return it->second;
    };
  }
};

const PreparedHeader* mirror_of(const UserSources& sources, const std::string& original) {
  for (const PreparedHeader& header : sources.headers) {
    if (header.text.rfind("#line 1 \"" + original + "\"\n", 0) == 0) return &header;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the user's headers that need rewriting get prepared copies, which the includes name") {
  Files files;
  files.contents = {
      {"/u/prog/common/launch.cuh",  // a launch, and a relative include of its own folder's file
       "#pragma once\n#include \"sizes.h\"\ninline void go(int* x) { k<<<1, BLOCK>>>(x); }\n"},
      {"/u/prog/common/sizes.h", "#define BLOCK 32\n"},  // nothing to rewrite
      {"/u/prog/kernel.cu",  // included .cu file with extern __shared__
       "__global__ void k(int* x) {\n  extern __shared__ int s[];\n  s[0] = x[0];\n}\n"},
      {"/u/prog/outer.h", "#include \"common/launch.cuh\"\n"},  // includes a rewritten header
      {"/u/inc/lib.h", "#include <sizes.h>\n"},                  // from a -I folder
      {"/u/inc/sizes.h", "#define OTHER 1\n"},
      {"/shim/cuda_runtime.h", "// the shim's\n"},
  };
  const std::string main =
      "#include <cuda_runtime.h>\n#include <vector>\n#include \"outer.h\"\n#include "
      "\"kernel.cu\"\n#include <lib.h>\n#include \"missing.h\"\nint main() {}\n";
  const std::vector<IncludeFolder> search{
      {"/shim", false}, {"/u/inc", true}, {"/u/prog", true}};
  const auto rewrite = [](std::string_view text) { return rewrite_user_file(text); };
  const UserSources sources =
      prepare_user_headers(main, "/u/prog/main.cu", search, "/cache/kernels", rewrite, files.reader());

  // Mirrored: the header with the launch, the one including it, the kernel file. Not: headers
  // with nothing to rewrite, the shim's, the system's.
  CHECK(sources.headers.size() == 3);
  const PreparedHeader* launch = mirror_of(sources, "/u/prog/common/launch.cuh");
  const PreparedHeader* outer = mirror_of(sources, "/u/prog/outer.h");
  const PreparedHeader* kernel = mirror_of(sources, "/u/prog/kernel.cu");
  REQUIRE(launch != nullptr);
  REQUIRE(outer != nullptr);
  REQUIRE(kernel != nullptr);
  for (const PreparedHeader& header : sources.headers) {
    CHECK(header.path.rfind("/cache/kernels/", 0) == 0);
  }
  CHECK(launch->path.size() > std::string("/cache/kernels/").size() + 32);
  // The copies are rewritten, line for line under #line, and name their includes by path.
  CHECK(launch->text.find("launch_kernel(\"k\"") != std::string::npos);
  CHECK(count_lines(launch->text) == count_lines(files.contents["/u/prog/common/launch.cuh"]) + 1);
  CHECK(launch->text.find("#include \"/u/prog/common/sizes.h\"") != std::string::npos);
  CHECK(outer->text.find("#include \"" + launch->path + "\"") != std::string::npos);
  CHECK(kernel->text.find("warpsim_runner_dynamic_shared_") != std::string::npos);
  // The main file: its user includes by path (mirror or original), the rest as written.
  CHECK(sources.main.find("#include <cuda_runtime.h>\n#include <vector>\n") == 0);
  CHECK(sources.main.find("#include \"" + outer->path + "\"") != std::string::npos);
  CHECK(sources.main.find("#include \"" + kernel->path + "\"") != std::string::npos);
  CHECK(sources.main.find("#include </u/inc/lib.h>") != std::string::npos);
  CHECK(sources.main.find("#include \"missing.h\"") != std::string::npos);
  CHECK(count_lines(sources.main) == count_lines(main));

  // Same files, same names; a header's change renames every copy, so the unit that includes
  // them (and the compile cache's key) changes.
  const UserSources again =
      prepare_user_headers(main, "/u/prog/main.cu", search, "/cache/kernels", rewrite, files.reader());
  CHECK(again.main == sources.main);
  files.contents["/u/prog/common/launch.cuh"] += "// edited\n";
  const UserSources edited =
      prepare_user_headers(main, "/u/prog/main.cu", search, "/cache/kernels", rewrite, files.reader());
  CHECK(edited.main != sources.main);
  REQUIRE(mirror_of(edited, "/u/prog/kernel.cu") != nullptr);
  CHECK(mirror_of(edited, "/u/prog/kernel.cu")->path != kernel->path);

  // Headers that include each other are fine.
  files.contents["/u/prog/common/sizes.h"] = "#pragma once\n#include \"launch.cuh\"\n#define BLOCK 32\n";
  const UserSources cycle =
      prepare_user_headers(main, "/u/prog/main.cu", search, "/cache/kernels", rewrite, files.reader());
  CHECK(cycle.headers.size() == 4);
}

TEST_CASE(
    "prepare_program_source is the user's file under #line with launches rewritten, no entry") {
  const std::string user = "__global__ void k() {}\nint main() { k<<<1, 32>>>(); return 0; }\n";
  const std::string prepared = prepare_program_source(user, "/tmp/p.cu");
  CHECK(prepared.find("#line 1 \"/tmp/p.cu\"\n") != std::string::npos);
  CHECK(prepared.find("launch_kernel(\"k\"") != std::string::npos);
  CHECK(prepared.find(kKernelEntrySymbol) == std::string::npos);
  CHECK(prepared.find("<warpsim-generated>") == std::string::npos);
}

TEST_CASE("kernel_body_size counts the tokens of a kernel's body, #if branches included") {
  const std::string source = R"cu(
__global__ void declared_first(int* p);
namespace ns {
template <int N>
__global__ void __launch_bounds__(256) templ(int* p) noexcept { p[N] = 1; }
}
__global__ void declared_first(int* p) {
#if __CUDA_ARCH__ >= 800
  p[0] = 1;  // comment
#endif
}
__global__ void empty(int*) {}
__global__ void [[maybe_unused]] attributed(int* p) [[]] { return; }
)cu";
  CHECK(warpsim::runner::kernel_body_size(source, "declared_first") == 7u);  // p [ 0 ] = 1 ;
  CHECK(warpsim::runner::kernel_body_size(source, "ns::templ") == 7u);
  CHECK(warpsim::runner::kernel_body_size(source, "templ") == std::nullopt);  // qualified names
  CHECK(warpsim::runner::kernel_body_size(source, "empty") == 0u);
  CHECK(warpsim::runner::kernel_body_size(source, "attributed") == 2u);
  CHECK(warpsim::runner::kernel_body_size(source, "missing") == std::nullopt);
  CHECK(warpsim::runner::kernel_body_size("__global__ void only_declared(int*);",
                                          "only_declared") == std::nullopt);
}

TEST_CASE("inline PTX in a macro's definition is rewritten there, keeping its lines and continuations") {
  const std::string lane =
      "#define LANE_ID(r) asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r))\nint x;\n";
  const std::string out = rewrite_inline_ptx(lane);
  CHECK(out.find("asm") == std::string::npos);
  CHECK(out.find("#define LANE_ID(r) do { { auto& warpsim_ptx_out0 = (r);") == 0);
  CHECK(out.find("} while (0)\nint x;\n") != std::string::npos);

  // cub's form: the cache hint a stringized parameter, the statement over continuation lines.
  const std::string cub =
      "#  define LOAD_4(cub_modifier, ptx_modifier) \\\n"
      "    unsigned f(unsigned const* ptr) { \\\n"
      "      unsigned retval; \\\n"
      "      asm volatile(\"ld.\" #ptx_modifier \".u32 %0, [%1];\" \\\n"
      "                   : \"=r\"(retval) : \"l\"(ptr)); \\\n"
      "      return retval; \\\n"
      "    }\n"
      "LOAD_4(LOAD_CG, cg)\n";
  const std::string rewritten = rewrite_inline_ptx(cub);
  CHECK(rewritten.find("asm") == std::string::npos);
  CHECK(std::count(rewritten.begin(), rewritten.end(), '\n') == std::count(cub.begin(), cub.end(), '\n'));
  CHECK(std::count(rewritten.begin(), rewritten.end(), '\\') == std::count(cub.begin(), cub.end(), '\\'));
  CHECK(rewritten.find("static_assert(::warpsim::ptx::runs_as_load(#ptx_modifier), \"warpsim: inline PTX "
                       "is not simulated (ld.\" #ptx_modifier \"): only the cache hints and "
                       ".global(.nc) are run\");") != std::string::npos);
  CHECK(rewritten.find("::warpsim::ptx::load<::warpsim::ptx::u32>") != std::string::npos);
  CHECK(rewritten.find("\\\n \\\n      return retval;") != std::string::npos);
  // In a toolkit's headers the check is a stop instead.
  CHECK(rewrite_inline_ptx(cub, UnsupportedPtx::runtime_stop)
            .find("if (!::warpsim::ptx::runs_as_load(#ptx_modifier)) ::warpsim::ptx::not_simulated(") !=
        std::string::npos);

  // A stringized parameter anywhere else, and an instruction outside the set: named.
  const std::string elsewhere =
      "#define M(op) asm(#op \".u32 %0, %1;\" : \"=r\"(d) : \"r\"(s));\n";
  CHECK(rewrite_inline_ptx(elsewhere).find("static_assert(sizeof(char) == 0, \"warpsim: inline PTX is not "
                                           "simulated (asm): it builds its PTX from the macro parameter "
                                           "#op, which warpsim reads only as an ld's or st's qualifiers") ==
        std::string("#define M(op) ").size());
  const std::string atomic =
      "#define ADD(p, v) asm volatile(\"red.global.add.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v))\n";
  CHECK(rewrite_inline_ptx(atomic).find("do { static_assert(sizeof(char) == 0, \"warpsim: inline PTX is not "
                                        "simulated (red.global.add.u32 [%0], %1): no such instruction") ==
        std::string("#define ADD(p, v) ").size());
  // A stringized parameter in an operand is the preprocessor's, as written.
  const std::string operand = "#define N(x) asm(\"mov.u32 %0, %1;\" : \"=r\"(d) : \"r\"(sizeof(#x)))\n";
  CHECK(rewrite_inline_ptx(operand).find("(sizeof(#x))") != std::string::npos);
  CHECK(rewrite_inline_ptx(operand).find("asm") == std::string::npos);
  // A parameter pasted (##) is not stringized; macros without asm stay as they are.
  const std::string plain = "#define CAT(a, b) a##b\n#define S(x) #x\n";
  CHECK(rewrite_inline_ptx(plain) == plain);
}

TEST_CASE("inline PTX becomes C++ on the asm's own line; PTX warpsim does not run a stop or a static_assert") {
  const std::string one =
      "int f() {\n  unsigned id;\n  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(id));\n  "
      "return id;\n}\n";
  const std::string out = rewrite_inline_ptx(one);
  CHECK(out.find("asm") == std::string::npos);
  CHECK(out.find("warpsim_ptx_0 = ::warpsim::ptx::laneid();") != std::string::npos);
  CHECK(out.find("::warpsim::ptx::out<std::uint32_t>(warpsim_ptx_out0, warpsim_ptx_0);") != std::string::npos);
  CHECK(out.find("{ auto& warpsim_ptx_out0 = (id);") == one.find("asm"));
  CHECK(std::count(out.begin(), out.end(), '\n') == std::count(one.begin(), one.end(), '\n'));

  // A block over two lines: its C++ on the first, the lines after it where they were.
  const std::string block =
      "asm(\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.u32 p, %1, 0;\\n\\tvote.sync.ballot.b32 %0, p, "
      "-1;\\n}\"\n"
      "    : \"=r\"(r) : \"r\"(x));\nint after;\n";
  const std::string rewritten = rewrite_inline_ptx(block);
  CHECK(rewritten.find("::warpsim::ptx::vote_ballot(warpsim_ptx_r_p, "
                       "static_cast<std::uint32_t>(0xffffffffffffffffULL))") < rewritten.find('\n'));
  CHECK(rewritten.find("int after;") != std::string::npos);
  CHECK(std::count(rewritten.begin(), rewritten.end(), '\n') ==
        std::count(block.begin(), block.end(), '\n'));

  // Not in the set: named in a static_assert where the asm was, with the reason.
  const std::string load = "asm(\"{ .reg .u32 t; ld.shared.u32 t, [%1]; mov.u32 %0, t; }\" : \"=r\"(v) : \"r\"(a));\n";
  const std::string unsupported = rewrite_inline_ptx(load);
  CHECK(unsupported.find("static_assert") == 0);
  CHECK(unsupported.find("inline PTX is not simulated (ld.shared.u32 t, [%1]): only generic and .global "
                        "addresses with cache hints are run for ld (not .shared)") !=
        std::string::npos);
  // In the user's files (rewrite_user_file) and a toolkit's headers (cub), whose unused functions
  // must compile: a stop if a lane gets there.
  CHECK(rewrite_user_file(load).find("::warpsim::ptx::not_simulated(\"ld.shared.u32 t, [%1])") !=
        std::string::npos);
  CHECK(rewrite_inline_ptx(load, UnsupportedPtx::runtime_stop) ==
        "::warpsim::ptx::not_simulated(\"ld.shared.u32 t, [%1]): only generic and .global "
        "addresses with cache hints are run for ld (not .shared)\");\n");
  // Named operands and an asm used inside an expression are not read: a static_assert too.
  CHECK(rewrite_inline_ptx("asm(\"mov.u32 %0, %1;\" : [d] \"=r\"(d) : [s] \"r\"(s));")
            .find("static_assert") == 0);

  // Not PTX: an asm label, x86 in host code, an empty barrier.
  for (const std::string& other :
       {std::string("extern int counter asm(\"my_counter\");\n"),
        std::string("void spin() { __asm__ __volatile__(\"pause\"); }\n"),
        std::string("asm volatile(\"\" ::: \"memory\");\n")}) {
    CHECK(rewrite_inline_ptx(other) == other);
  }
}

TEST_CASE("PTX warpsim does not run stops when reached, in the file given and in a header") {
  const std::string source =
      "__device__ float h(float x) { float y; asm(\"tanh.approx.f16x2 %0, %1;\" : \"=r\"(y) : \"r\"(x)); return y; }\n";
  const std::string rewritten = warpsim::runner::rewrite_user_file(source);
  CHECK(rewritten.find("::warpsim::ptx::not_simulated(") != std::string::npos);
  CHECK(rewritten.find("static_assert") == std::string::npos);
}
