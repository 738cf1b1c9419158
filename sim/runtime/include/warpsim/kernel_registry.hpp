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
#include <new>
#include <type_traits>
#include <utility>

namespace warpsim {

// Bump when KernelDescriptor or KernelParam change layout: a cached kernel built against another
// layout is then rejected instead of misread.
inline constexpr std::uint32_t kKernelAbiVersion = 2;

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

// What a parameter (or a struct field) of class, union or array type is.
enum class Aggregate : std::uint8_t {
  none,        // a scalar or a pointer
  reflected,   // a struct whose fields are known (KernelParam::fields)
  opaque,      // a class whose fields could not be reflected: only its size and alignment
  union_type,  // a union
  array,       // an array (a struct field only)
};

// The most fields a struct may have for its fields to be reflected.
inline constexpr std::uint32_t kMaxReflectedFields = 16;

struct KernelParam {
  bool is_pointer = false;
  ValueKind kind = ValueKind::other;  // of the scalar, or of the pointee for a pointer
  std::uint32_t size = 0;             // bytes of the scalar or pointee (0 for void)
  const char* type_name = "";         // as the compiler spells the parameter's type
  std::uint32_t align = 0;            // alignof the parameter's own type (a pointer's: 8)
  std::uint32_t offset = 0;           // a struct field: its byte offset in the struct
  Aggregate aggregate = Aggregate::none;
  std::uint32_t field_count = 0;      // Aggregate::reflected: the struct's fields, in order
  const KernelParam* fields = nullptr;
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

// ---- Fields of a plain struct (an aggregate), reflected at compile time ----
//
// The number of fields is the most initializers `T{{}, {}, ...}` takes (each `{}` value-initializes
// one member, whatever its type: scalar, pointer, array, class with constructors); the fields'
// types come from a structured binding of that many names. Only standard-layout, trivially
// copyable aggregates (no declared value kind) are reflected; other classes stay
// Aggregate::opaque (only their size and alignment are checked), as are structs with a base
// class and a struct whose one member is an array.

template <class T, std::size_t N, class = void>
struct takes_initializers : std::false_type {};

// Converts to anything but T and its bases: a base class cannot take one whole, so brace elision
// spreads a base's members (and an array's elements) over several of them.
template <class T>
struct any_but_base {
  template <class U, class = std::enable_if_t<!std::is_base_of_v<U, T>>>
  operator U() const;  // only named in unevaluated operands
};
template <class T, std::size_t N, class = void>
struct takes_values : std::false_type {};

// BRACES and VALUES are parenthesized lists; T{...} (never T(...), which C++20 reads as
// parenthesized aggregate initialization) is what is probed.
#define WARPSIM_LIST(...) __VA_ARGS__
#define WARPSIM_PROBE(N, BRACES, VALUES)                                                     \
  template <class T>                                                                         \
  struct takes_initializers<T, N, std::void_t<decltype(T{WARPSIM_LIST BRACES})>>             \
      : std::true_type {};                                                                   \
  template <class T>                                                                         \
  struct takes_values<T, N, std::void_t<decltype(T{WARPSIM_LIST VALUES})>> : std::true_type {};
#define WARPSIM_V any_but_base<T>{}
WARPSIM_PROBE(1, ({}), (WARPSIM_V))
WARPSIM_PROBE(2, ({}, {}), (WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(3, ({}, {}, {}), (WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(4, ({}, {}, {}, {}), (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(5, ({}, {}, {}, {}, {}), (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(6, ({}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(7, ({}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(8, ({}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V))
WARPSIM_PROBE(9, ({}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(10, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(11, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(12, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(13, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(14, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(15, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V))
WARPSIM_PROBE(16, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V))
WARPSIM_PROBE(17, ({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}),
              (WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V, WARPSIM_V,
                WARPSIM_V, WARPSIM_V, WARPSIM_V))
#undef WARPSIM_V
#undef WARPSIM_PROBE
#undef WARPSIM_LIST

// The most values `T{v, v, ...}` takes: the fields, with arrays' elements and bases' members
// counted one by one (brace elision).
template <class T, std::size_t N = 0>
constexpr std::uint32_t count_values() {
  if constexpr (N > kMaxReflectedFields) {
    return kMaxReflectedFields + 1;
  } else if constexpr (takes_values<T, N + 1>::value) {
    return count_values<T, N + 1>();
  } else {
    return static_cast<std::uint32_t>(N);
  }
}

// The number of fields of aggregate T; kMaxReflectedFields + 1 when it has more.
template <class T, std::size_t N = 0>
constexpr std::uint32_t count_fields() {
  if constexpr (N > kMaxReflectedFields) {
    return kMaxReflectedFields + 1;
  } else if constexpr (takes_initializers<T, N + 1>::value) {
    return count_fields<T, N + 1>();
  } else {
    return static_cast<std::uint32_t>(N);
  }
}

template <class T>
constexpr bool reflectable() {
  if constexpr (std::is_class_v<T> && std::is_aggregate_v<T> && std::is_standard_layout_v<T> &&
                std::is_trivially_copyable_v<T> && !std::is_empty_v<T> &&
                declared_value_kind<T>::value == ValueKind::other) {
    // The binding needs the exact number of the struct's own members. `{}` counts bases as
    // one each; values count a base's members (an array's elements) one by one. They agree for
    // a plain struct; an empty base makes the values fewer; a struct of one base with members
    // (or of one array) makes them more from a single `{}`: not reflected. More values from
    // several `{}` means arrays among the members (a standard-layout struct with a base that
    // has members has no members of its own).
    constexpr std::uint32_t n = count_fields<T>();
    constexpr std::uint32_t values = count_values<T>();
    return n >= 1 && n <= kMaxReflectedFields && (values == n || (values > n && n >= 2));
  } else {
    return false;
  }
}

template <class P>
KernelParam describe_param();

template <class T, class Field>
KernelParam describe_field(const T& object, const Field& field) {
  KernelParam param = describe_param<Field>();
  param.offset = static_cast<std::uint32_t>(reinterpret_cast<const unsigned char*>(&field) -
                                            reinterpret_cast<const unsigned char*>(&object));
  return param;
}

// Calls `with(a, b, ...)` on the fields of `object`, a struct of N fields.
template <std::uint32_t N, class T, class With>
void with_fields(const T& object, With&& with) {
  // clang-format off
  if constexpr (N == 1) { const auto& [a] = object; with(a); }
  else if constexpr (N == 2) { const auto& [a, b] = object; with(a, b); }
  else if constexpr (N == 3) { const auto& [a, b, c] = object; with(a, b, c); }
  else if constexpr (N == 4) { const auto& [a, b, c, d] = object; with(a, b, c, d); }
  else if constexpr (N == 5) { const auto& [a, b, c, d, e] = object; with(a, b, c, d, e); }
  else if constexpr (N == 6) { const auto& [a, b, c, d, e, f] = object; with(a, b, c, d, e, f); }
  else if constexpr (N == 7) { const auto& [a, b, c, d, e, f, g] = object; with(a, b, c, d, e, f, g); }
  else if constexpr (N == 8) { const auto& [a, b, c, d, e, f, g, h] = object; with(a, b, c, d, e, f, g, h); }
  else if constexpr (N == 9) { const auto& [a, b, c, d, e, f, g, h, i] = object; with(a, b, c, d, e, f, g, h, i); }
  else if constexpr (N == 10) { const auto& [a, b, c, d, e, f, g, h, i, j] = object; with(a, b, c, d, e, f, g, h, i, j); }
  else if constexpr (N == 11) { const auto& [a, b, c, d, e, f, g, h, i, j, k] = object; with(a, b, c, d, e, f, g, h, i, j, k); }
  else if constexpr (N == 12) { const auto& [a, b, c, d, e, f, g, h, i, j, k, l] = object; with(a, b, c, d, e, f, g, h, i, j, k, l); }
  else if constexpr (N == 13) { const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m] = object; with(a, b, c, d, e, f, g, h, i, j, k, l, m); }
  else if constexpr (N == 14) { const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, n] = object; with(a, b, c, d, e, f, g, h, i, j, k, l, m, n); }
  else if constexpr (N == 15) { const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o] = object; with(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o); }
  else { static_assert(N == 16, "kMaxReflectedFields is 16"); const auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p] = object; with(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p); }
  // clang-format on
}

// The fields of struct T, described as parameters are, with their offsets.
template <class T>
const KernelParam* reflect_fields() {
  static KernelParam table[kMaxReflectedFields] = {};
  static bool filled = false;
  if (!filled) {
    static const T sample{};
    with_fields<count_fields<T>()>(sample, [](const auto&... field) {
      std::uint32_t i = 0;
      ((table[i++] = describe_field(sample, field)), ...);
    });
    filled = true;
  }
  return table;
}

template <class P>
KernelParam describe_param() {
  using Decayed = std::decay_t<P>;
  using Value = std::remove_cv_t<std::remove_reference_t<P>>;
  KernelParam param;
  param.type_name = type_name<P>();
  if constexpr (std::is_array_v<Value>) {
    // Only a struct field can be an array (a parameter's array decays to a pointer).
    param.aggregate = Aggregate::array;
    param.size = static_cast<std::uint32_t>(sizeof(Value));
    param.align = static_cast<std::uint32_t>(alignof(Value));
  } else if constexpr (std::is_pointer_v<Decayed>) {
    using Pointee = std::remove_pointer_t<Decayed>;
    param.is_pointer = true;
    param.kind = value_kind<Pointee>();
    param.size = size_or_zero<std::remove_cv_t<Pointee>>();
    param.align = static_cast<std::uint32_t>(alignof(Decayed));
  } else {
    param.kind = value_kind<Decayed>();
    param.size = size_or_zero<Decayed>();
    if constexpr (std::is_object_v<Decayed>) {
      param.align = static_cast<std::uint32_t>(alignof(Decayed));
    }
    if constexpr (std::is_union_v<Decayed>) {
      param.aggregate = Aggregate::union_type;
    } else if constexpr (reflectable<Decayed>()) {
      param.aggregate = Aggregate::reflected;
      param.field_count = count_fields<Decayed>();
      param.fields = reflect_fields<Decayed>();
    } else if constexpr (std::is_class_v<Decayed>) {
      if (param.kind == ValueKind::other) param.aggregate = Aggregate::opaque;
    }
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
  } else if constexpr (std::is_trivially_copyable_v<Value>) {
    // A struct with a const member: its bytes, copied into place, are the object.
    alignas(Value) unsigned char storage[sizeof(Value)];
    std::memcpy(storage, source, sizeof(Value));
    return *std::launder(reinterpret_cast<Value*>(storage));
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
