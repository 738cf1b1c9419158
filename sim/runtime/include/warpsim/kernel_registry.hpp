// What `warpsim run` knows about the kernel it launches: a type-erased descriptor built at compile
// time from the kernel's own signature. The runner generates, after the user's source,
//
//   extern "C" const warpsim::KernelDescriptor* warpsim_kernel_entry() {
//     return &warpsim::kernel_descriptor<&::ns::reduce<256>>::value("ns::reduce<256>");
//   }
//
// and, after dlopen, checks the `--arg` list against `params` and launches through `invoke`.
// This header is compiled into the kernel's shared object as C++17; keep it that way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>

namespace warpsim {

// Bump when KernelDescriptor or KernelParam change layout: a cached kernel built against another
// layout is then rejected instead of misread.
inline constexpr std::uint32_t kKernelAbiVersion = 1;

enum class ValueKind : std::uint8_t {
  signed_integer,  // char too, where it is signed (x86-64)
  unsigned_integer,
  floating,
  other,  // class, union, void, wide character types: no --arg type describes them
  boolean,
  half,      // __half
  bfloat16,  // __nv_bfloat16
};

// Classes that stand for a CUDA arithmetic type (the shim's __half and __nv_bfloat16) name their
// kind in a member `static constexpr ValueKind warpsim_value_kind`.
template <class T, class = void>
struct declared_value_kind {
  static constexpr ValueKind value = ValueKind::other;
};
template <class T>
struct declared_value_kind<T, std::void_t<decltype(T::warpsim_value_kind)>> {
  static constexpr ValueKind value = T::warpsim_value_kind;
};

struct KernelParam {
  bool is_pointer = false;
  ValueKind kind = ValueKind::other;  // of the scalar, or of the pointee for a pointer
  std::uint32_t size = 0;             // bytes of the scalar or pointee (0 for void)
  const char* type_name = "";         // as the compiler spells the parameter's type
};

struct KernelDescriptor {
  std::uint32_t abi_version = kKernelAbiVersion;
  const char* name = "";  // as requested with --kernel, e.g. "ns::reduce<256>"
  std::uint32_t param_count = 0;
  const KernelParam* params = nullptr;
  // Calls the kernel once (as one CUDA thread). args[i] points to parameter i's value: for a
  // pointer parameter, to a void* holding the address; for a scalar, to its bytes (at least
  // `size` of them, little-endian), exactly as cudaLaunchKernel takes them.
  void (*invoke)(void* const* args) = nullptr;
};

namespace detail {

template <class T>
constexpr ValueKind value_kind() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_enum_v<U>) {
    return value_kind<std::underlying_type_t<U>>();
  } else if constexpr (std::is_same_v<U, bool>) {
    return ValueKind::boolean;
  } else if constexpr (std::is_same_v<U, wchar_t> || std::is_same_v<U, char16_t> ||
                       std::is_same_v<U, char32_t>) {
    return ValueKind::other;
  } else if constexpr (std::is_floating_point_v<U>) {
    return ValueKind::floating;
  } else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
    return ValueKind::signed_integer;
  } else if constexpr (std::is_integral_v<U>) {
    return ValueKind::unsigned_integer;
  } else if constexpr (std::is_class_v<U>) {
    return declared_value_kind<U>::value;
  } else {
    return ValueKind::other;
  }
}

template <class T>
constexpr std::uint32_t size_or_zero() {
  if constexpr (std::is_object_v<T>) {
    return static_cast<std::uint32_t>(sizeof(T));
  } else {
    return 0;  // void
  }
}

// "T = const float*" out of the compiler's spelling of this function's signature.
template <class T>
const char* type_name() {
  static char name[160] = {};
  if (name[0] == '\0') {
    const char* text = __PRETTY_FUNCTION__;
    const char* start = std::strstr(text, "T = ");
    if (start == nullptr) {
      std::strcpy(name, "?");
      return name;
    }
    start += 4;
    std::size_t n = 0;
    int depth = 0;
    for (const char* p = start; *p != '\0' && n + 1 < sizeof name; ++p) {
      if (depth == 0 && (*p == ']' || *p == ';')) break;
      if (*p == '<' || *p == '(' || *p == '[') ++depth;
      if (*p == '>' || *p == ')' || *p == ']') --depth;
      name[n++] = *p;
    }
    name[n] = '\0';
  }
  return name;
}

template <class P>
KernelParam describe_param() {
  using Decayed = std::decay_t<P>;
  KernelParam param;
  param.type_name = type_name<P>();
  if constexpr (std::is_pointer_v<Decayed>) {
    using Pointee = std::remove_pointer_t<Decayed>;
    param.is_pointer = true;
    param.kind = value_kind<Pointee>();
    param.size = size_or_zero<std::remove_cv_t<Pointee>>();
  } else {
    param.kind = value_kind<Decayed>();
    param.size = size_or_zero<Decayed>();
  }
  return param;
}

template <class P>
std::decay_t<P> load_param(void* source) {
  using Value = std::decay_t<P>;
  if constexpr (std::is_trivially_copyable_v<Value> && std::is_default_constructible_v<Value>) {
    Value value;
    std::memcpy(&value, source, sizeof(Value));
    return value;
  } else {
    // The runner refuses such parameters before launching (their kind is `other`).
    std::abort();
  }
}

template <class Function>
struct Signature;

template <class... Params>
struct Signature<void (*)(Params...)> {
  static constexpr std::uint32_t count = sizeof...(Params);

  static const KernelParam* params() {
    if constexpr (sizeof...(Params) == 0) {
      return nullptr;
    } else {
      static const KernelParam table[] = {describe_param<Params>()...};
      return table;
    }
  }

  template <auto Kernel, std::size_t... I>
  static void call(void* const* args, std::index_sequence<I...>) {
    (void)args;
    Kernel(load_param<Params>(args[I])...);
  }
};

template <class... Params>
struct Signature<void (*)(Params...) noexcept> : Signature<void (*)(Params...)> {};

}  // namespace detail

// The descriptor of one kernel, deduced from the pointer `Kernel` (a `void(*)(Params...)`).
template <auto Kernel>
struct kernel_descriptor {
  using Sig = detail::Signature<decltype(Kernel)>;

  static void invoke(void* const* args) {
    Sig::template call<Kernel>(args, std::make_index_sequence<Sig::count>{});
  }

  static const KernelDescriptor& value(const char* name) {
    static const KernelDescriptor descriptor{kKernelAbiVersion, name, Sig::count, Sig::params(),
                                             &invoke};
    return descriptor;
  }
};

}  // namespace warpsim
