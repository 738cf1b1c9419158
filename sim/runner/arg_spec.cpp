// Parsing of `--arg`, `--grid` and `--block`, and matching an argument to a kernel parameter.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cstring>
#include <cmath>
#include <limits>
#include <string>

#include "warpsim/runner.hpp"
#include "warpsim/splitmix.hpp"

namespace warpsim::runner {
namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string unknown_type_message(std::string_view name) {
  std::string message = "unknown type " + quoted(name);
  for (const ElementTypeFacts& facts : element_types()) {
    for (const std::string_view c_name : facts.c_names) {
      if (!c_name.empty() && c_name == name) {
        return message + " (write " + std::string(facts.name) + ")";
      }
    }
  }
  message += "; types are ";
  for (const ElementTypeFacts& facts : element_types()) {
    if (facts.type != element_types().front().type) message += ", ";
    message += facts.name;
  }
  return message;
}

using Form = ElementTypeFacts::Form;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Magnitude of an integer literal (decimal or 0x hex), sign split off.
struct IntegerText {
  bool negative = false;
  bool hex = false;
  std::uint64_t magnitude = 0;
};

Expected<IntegerText> parse_integer_text(std::string_view text) {
  IntegerText out;
  std::string_view digits = text;
  if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
    out.negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    out.hex = true;
    digits.remove_prefix(2);
  }
  if (digits.empty()) return fail(quoted(text) + " is not an integer");
  const char* end = digits.data() + digits.size();
  auto [ptr, ec] = std::from_chars(digits.data(), end, out.magnitude, out.hex ? 16 : 10);
  if (ec == std::errc::result_out_of_range) {
    return fail(quoted(text) + " does not fit in 64 bits");
  }
  if (ec != std::errc{} || ptr != end) {
    return fail(quoted(text) + " is not an integer");
  }
  return Expected<IntegerText>(out);
}

Expected<std::uint64_t> parse_integer(ElementType type, std::string_view text) {
  auto parsed = parse_integer_text(text);
  if (!parsed) return fail(parsed.error().message);
  const bool is_signed = element_kind(type) == ValueKind::signed_integer;
  const std::size_t bits = element_size(type) * 8;
  const std::uint64_t all_ones = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t magnitude = parsed->magnitude;
  const std::uint64_t half_range = std::uint64_t{1} << (bits - 1);
  const std::string range = is_signed ? "-" + std::to_string(half_range) + ".." +
                                            std::to_string(half_range - 1)
                                      : "0.." + std::to_string(all_ones);
  auto out_of_range = [&] {
    return fail(quoted(text) + " is out of range for " +
                                       std::string(to_string(type)) + " (" + range +
                                       (is_signed ? ", or hex bits up to the type's width)" : ")"));
  };
  if (!parsed->negative) {
    // Hex is a bit pattern of the type's width; decimal must fit the type's value range.
    const std::uint64_t limit = (parsed->hex || !is_signed) ? all_ones : all_ones >> 1;
    if (magnitude > limit) return out_of_range();
    return Expected<std::uint64_t>(magnitude);
  }
  if (!is_signed) {
    if (magnitude == 0) return Expected<std::uint64_t>(0);
    return out_of_range();
  }
  const std::uint64_t min_magnitude = std::uint64_t{1} << (bits - 1);
  if (magnitude > min_magnitude) return out_of_range();
  return Expected<std::uint64_t>((~magnitude + 1) & all_ones);
}

template <class Float>
Expected<Float> parse_float_value(std::string_view text) {
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body.front() == '-' || body.front() == '+')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  auto format = std::chars_format::general;
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    format = std::chars_format::hex;
    body.remove_prefix(2);
  }
  Float value{};
  const char* end = body.data() + body.size();
  auto [ptr, ec] = body.empty() || body.front() == '-' || body.front() == '+'
                       ? std::from_chars_result{body.data(), std::errc::invalid_argument}
                       : std::from_chars(body.data(), end, value, format);
  if (ec == std::errc::result_out_of_range) {
    return fail(quoted(text) + " is out of range for " +
                               (sizeof(Float) == 4 ? "f32" : "f64"));
  }
  if (ec != std::errc{} || ptr != end) {
    return fail(quoted(text) + " is not a number");
  }
  return Expected<Float>(negative ? -value : value);
}

Expected<std::uint64_t> parse_count(std::string_view text, ElementType type) {
  auto parsed = parse_integer_text(text);
  if (!parsed || parsed->negative) {
    return fail("count " + quoted(text) + " is not a non-negative integer");
  }
  const std::uint64_t max_bytes = std::uint64_t{1} << 34;  // 16 GiB
  if (parsed->magnitude > max_bytes / element_size(type)) {
    return fail("count " + quoted(text) + " is too large (at most 16 GiB)");
  }
  return Expected<std::uint64_t>(parsed->magnitude);
}

Expected<ArgSpec> parse_buffer_init(ArgSpec spec, std::string_view init) {
  if (init == "zeros") {
    spec.init = BufferInit::zeros;
  } else if (init == "iota") {
    spec.init = BufferInit::iota;
  } else if (init == "undefined") {
    spec.init = BufferInit::undefined;
  } else if (init.substr(0, 7) == "random:") {
    spec.init = BufferInit::random;
    const ElementTypeFacts& facts = element_facts(spec.type);
    const bool is_unsigned = facts.random_low >= 0;
    spec.low = facts.random_low;
    spec.high = facts.random_high;
    std::vector<std::string_view> parts;
    for (std::string_view rest = init.substr(7);;) {
      const std::size_t colon = rest.find(':');
      parts.push_back(trim(rest.substr(0, colon)));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
    if (parts.size() != 1 && parts.size() != 3) {
      return fail("random needs SEED or SEED:LO:HI, e.g. random:7 or random:7:-5:5");
    }
    auto seed = parse_element(ElementType::u64, parts[0]);
    if (!seed) return fail("random: SEED " + quoted(parts[0]) + " is not a non-negative integer");
    spec.seed = *seed;
    if (parts.size() == 3) {
      auto low = parse_element(ElementType::i64, parts[1]);
      auto high = parse_element(ElementType::i64, parts[2]);
      if (!low || !high) return fail("random: LO and HI must be integers");
      spec.low = static_cast<std::int64_t>(*low);
      spec.high = static_cast<std::int64_t>(*high);
      if (spec.low > spec.high) return fail("random: LO is above HI");
      if (is_unsigned && spec.low < 0) return fail("random: an unsigned buffer needs LO >= 0");
      if (spec.low < facts.exact_low || spec.high > facts.exact_high) {
        // |x| < 2^31 for the 32-bit types, |x| < 2^53 for the 64-bit ones, else LO..HI.
        const bool symmetric = facts.exact_low == -facts.exact_high - 1;
        const std::string range =
            symmetric ? "|x| < 2^" + std::to_string(std::countr_zero(
                                         static_cast<std::uint64_t>(facts.exact_high) + 1))
                      : std::to_string(facts.exact_low) + ".." + std::to_string(facts.exact_high);
        return fail("random: LO and HI must fit the type exactly (" + range + ")");
      }
    }
  } else if (init.substr(0, 5) == "file:") {
    spec.init = BufferInit::file;
    spec.path = std::string(init.substr(5));
    if (spec.path.empty()) return fail("file: needs a path");
  } else {
    spec.init = BufferInit::list;
    std::size_t index = 0;
    std::string_view rest = init;
    while (true) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = trim(rest.substr(0, comma));
      if (item.empty()) {
        return fail(
            index == 0 && comma == std::string_view::npos
                ? "INIT is empty; use zeros, iota, random:SEED, file:PATH, undefined or a comma list"
                : "value " + std::to_string(index) + " of the list is empty");
      }
      auto value = parse_element(spec.type, item);
      if (!value) {
        if (index == 0 && comma == std::string_view::npos && spec.count != 1) {
          return fail("INIT " + quoted(init) +
                                       " is not zeros, iota, random:SEED, file:PATH, undefined or a comma list of " +
                                       std::to_string(spec.count) + " values");
        }
        return fail("value " + std::to_string(index) +
                                     " of the list: " + value.error().message);
      }
      spec.list.push_back(*value);
      ++index;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (spec.list.size() != spec.count) {
      const std::size_t n = spec.list.size();
      return fail("the list has " + std::to_string(n) +
                                   (n == 1 ? " value" : " values") + "; the buffer has " +
                                   std::to_string(spec.count) + " elements");
    }
  }
  return Expected<ArgSpec>(std::move(spec));
}

// The --arg spelling that fits a parameter, e.g. "f32[N]:zeros", "i32:VALUE" or
// "'{i32:VALUE; f32[N]:zeros}'"; "" if none does.
std::string suggested_plain_arg(const KernelParam& param);

std::string suggested_arg(const KernelParam& param) {
  if (param.aggregate == Aggregate::reflected && !param.is_pointer) {
    std::string text = "'{";
    for (std::uint32_t i = 0; i < param.field_count; ++i) {
      const std::string field = suggested_plain_arg(param.fields[i]);
      if (field.empty()) return {};
      text += (i == 0 ? "" : "; ") + field;
    }
    return text + "}'";
  }
  return suggested_plain_arg(param);
}

std::string suggested_plain_arg(const KernelParam& param) {
  if (param.aggregate != Aggregate::none) return {};
  for (const ElementTypeFacts& facts : element_types()) {
    if (facts.kind != param.kind || facts.size != param.size) continue;
    const std::string type(facts.name);
    return param.is_pointer ? type + "[N]:zeros" : type + ":VALUE";
  }
  return {};
}

// A 16-bit float from text: parsed as a float, rounded to nearest even; a finite value that
// rounds to infinity is out of range.
Expected<std::uint64_t> parse_16bit_float(ElementType type, std::string_view text) {
  auto value = parse_float_value<float>(text);
  if (!value) return fail(value.error().message);
  const bool half = element_facts(type).form == Form::half;
  const std::uint16_t bits = half ? f16_bits(*value) : bf16_bits(*value);
  const float back = half ? f16_value(bits) : bf16_value(bits);
  if (std::isinf(back) && !std::isinf(*value)) {
    return fail(quoted(text) + " is out of range for " + std::string(to_string(type)) +
                (half ? " (largest finite value 65504)" : " (largest finite value about 3.39e38)"));
  }
  return Expected<std::uint64_t>(bits);
}

}  // namespace

std::uint64_t random_element(ElementType type, std::uint64_t seed, std::int64_t low,
                             std::int64_t high, std::uint64_t index) {
  // splitmix64 of (seed, index): each element on its own, so a buffer fills in any order.
  const std::uint64_t z =
      splitmix64_finalize(seed * 0x9e3779b97f4a7c15ull + (index + 1) * 0xbf58476d1ce4e5b9ull);
  const auto span = static_cast<std::uint64_t>(high - low) + 1;
  const std::int64_t value = low + static_cast<std::int64_t>(span == 0 ? z : z % span);
  return integer_element(type, value);
}

std::uint64_t integer_element(ElementType type, std::int64_t value) {
  const ElementTypeFacts& facts = element_facts(type);
  switch (facts.form) {
    case Form::floating:
      return facts.size == 4 ? std::bit_cast<std::uint32_t>(static_cast<float>(value))
                             : std::bit_cast<std::uint64_t>(static_cast<double>(value));
    case Form::half:
      return f16_bits(static_cast<float>(value));
    case Form::bfloat16:
      return bf16_bits(static_cast<float>(value));
    case Form::boolean:
      return static_cast<std::uint64_t>(value) & 1;
    case Form::integer:
      break;
  }
  return facts.size == 8 ? static_cast<std::uint64_t>(value)
                         : static_cast<std::uint64_t>(value) & ((std::uint64_t{1} << (facts.size * 8)) - 1);
}

std::string ArgSpec::type_text() const {
  if (is_struct) {
    std::string text(1, kStructOpen);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) text += std::string(1, kFieldSeparator) + " ";
      text += fields[i].type_text();
    }
    return text + kStructClose;
  }
  std::string text(to_string(type));
  if (is_buffer) text += "[" + std::to_string(count) + "]";
  return text;
}

std::size_t arg_value_size(const ArgSpec& spec) {
  if (spec.is_struct) return struct_layout(spec).size;
  return spec.is_buffer ? sizeof(void*) : element_size(spec.type);
}

std::size_t arg_value_align(const ArgSpec& spec) {
  if (spec.is_struct) return struct_layout(spec).align;
  return spec.is_buffer ? alignof(void*) : element_size(spec.type);  // x86-64 and CUDA alike
}

StructLayout struct_layout(const ArgSpec& spec) {
  StructLayout layout;
  std::size_t end = 0;
  for (const ArgSpec& field : spec.fields) {
    const std::size_t align = arg_value_align(field);
    const std::size_t offset = (end + align - 1) / align * align;
    layout.offsets.push_back(offset);
    end = offset + arg_value_size(field);
    layout.align = std::max(layout.align, align);
  }
  layout.size = (end + layout.align - 1) / layout.align * layout.align;
  return layout;
}

std::vector<std::byte> pack_struct(const ArgSpec& spec,
                                   std::span<const std::uint64_t> buffer_addresses) {
  const StructLayout layout = struct_layout(spec);
  std::vector<std::byte> bytes(layout.size, std::byte{0});
  for (std::size_t i = 0; i < spec.fields.size(); ++i) {
    const ArgSpec& field = spec.fields[i];
    const std::uint64_t bits = field.is_buffer
                                   ? (i < buffer_addresses.size() ? buffer_addresses[i] : 0)
                                   : field.scalar_bits;
    std::memcpy(bytes.data() + layout.offsets[i], &bits, arg_value_size(field));  // little-endian
  }
  return bytes;
}

std::vector<BufferSlot> buffer_slots(const std::vector<ArgSpec>& args) {
  std::vector<BufferSlot> slots;
  for (std::size_t arg = 0; arg < args.size(); ++arg) {
    if (args[arg].is_buffer) slots.push_back({arg, -1, &args[arg]});
    for (std::size_t field = 0; field < args[arg].fields.size(); ++field) {
      if (args[arg].fields[field].is_buffer) {
        slots.push_back({arg, static_cast<std::int32_t>(field), &args[arg].fields[field]});
      }
    }
  }
  return slots;
}

std::string buffer_name(std::size_t arg, std::int32_t field) {
  std::string name = "arg " + std::to_string(arg);
  if (field >= 0) name += " field " + std::to_string(field);
  return name;
}

std::string buffer_label(std::size_t arg, std::int32_t field) {
  std::string label = "--arg " + std::to_string(arg + 1);
  if (field >= 0) label += " field " + std::to_string(field);
  return label;
}

Expected<std::uint64_t> parse_element(ElementType type, std::string_view text) {
  text = trim(text);
  switch (element_facts(type).form) {
    case Form::integer:
      return parse_integer(type, text);
    case Form::boolean:
      if (text == "1" || text == "true") return Expected<std::uint64_t>(1);
      if (text == "0" || text == "false") return Expected<std::uint64_t>(0);
      return fail(quoted(text) + " is not a b8 (bool) value: 0, 1, false or true");
    case Form::half:
    case Form::bfloat16:
      return parse_16bit_float(type, text);
    case Form::floating:
      break;
  }
  if (type == ElementType::f32) {
    auto value = parse_float_value<float>(text);
    if (!value) return fail(value.error().message);
    return Expected<std::uint64_t>(std::bit_cast<std::uint32_t>(*value));
  }
  auto value = parse_float_value<double>(text);
  if (!value) return fail(value.error().message);
  return Expected<std::uint64_t>(std::bit_cast<std::uint64_t>(*value));
}

namespace {

Expected<ArgSpec> parse_plain_arg_spec(std::string_view text);

// `{FIELD; FIELD; ...}`, the braces already checked.
Expected<ArgSpec> parse_struct_spec(std::string_view text) {
  ArgSpec spec;
  spec.is_struct = true;
  std::string_view body = text.substr(1, text.size() - 2);
  if (trim(body).empty()) return fail("a struct argument needs at least one field: {i32:1; f32:2}");
  for (std::size_t index = 0;; ++index) {
    const std::size_t separator = body.find(kFieldSeparator);
    const std::string_view item = trim(body.substr(0, separator));
    const std::string field_name = "field " + std::to_string(index);
    if (item.empty()) return fail(field_name + " of the struct is empty");
    if (item.front() == kStructOpen) {
      return fail(field_name + ": nested structs are not supported (only scalar and buffer fields)");
    }
    auto field = parse_plain_arg_spec(item);
    if (!field) {
      const bool comma_habit = item.find(',') != std::string_view::npos &&
                               item.find(':', item.find(',')) != std::string_view::npos;
      return fail(field_name + " of the struct: " + field.error().message +
                  (comma_habit ? " (fields are separated by ';', not ',')" : ""));
    }
    spec.fields.push_back(std::move(*field));
    if (separator == std::string_view::npos) break;
    body.remove_prefix(separator + 1);
  }
  return Expected<ArgSpec>(std::move(spec));
}

}  // namespace

Expected<ArgSpec> parse_arg_spec(std::string_view text) {
  const std::string_view trimmed = trim(text);
  if (!trimmed.empty() && trimmed.front() == kStructOpen) {
    if (trimmed.back() != kStructClose) {
      return fail("a struct argument ends with '}': {FIELD; FIELD; ...}, e.g. {i32:32; f32:0.5}");
    }
    if (trimmed.find(kStructOpen, 1) != std::string_view::npos) {
      return fail("nested structs are not supported (only scalar and buffer fields)");
    }
    return parse_struct_spec(trimmed);
  }
  if (text.find(kFieldSeparator) != std::string_view::npos) {
    return fail("';' separates the fields of a struct argument, written in braces: {i32:1; f32:2}");
  }
  return parse_plain_arg_spec(text);
}

namespace {

Expected<ArgSpec> parse_plain_arg_spec(std::string_view text) {
  if (text.find(kStructClose) != std::string_view::npos) {
    return fail("unexpected '}' (a struct argument is written {FIELD; FIELD; ...})");
  }
  const std::size_t colon = text.find(':');
  const std::size_t bracket = text.find('[');
  if (colon == std::string_view::npos) {
    return fail("expected TYPE:VALUE or TYPE[COUNT]:INIT");
  }
  ArgSpec spec;
  const bool buffer = bracket != std::string_view::npos && bracket < colon;
  const std::string_view type_name = text.substr(0, buffer ? bracket : colon);
  auto type = element_type_from_string(type_name);
  if (!type) return fail(unknown_type_message(type_name));
  spec.type = *type;

  if (!buffer) {
    auto value = parse_element(spec.type, text.substr(colon + 1));
    if (!value) return fail(value.error().message);
    spec.scalar_bits = *value;
    return Expected<ArgSpec>(std::move(spec));
  }

  const std::size_t close = text.find(']', bracket);
  if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
    return fail("expected TYPE[COUNT]:INIT, e.g. f32[32]:iota");
  }
  spec.is_buffer = true;
  auto count = parse_count(text.substr(bracket + 1, close - bracket - 1), spec.type);
  if (!count) return fail(count.error().message);
  spec.count = *count;
  return parse_buffer_init(std::move(spec), text.substr(close + 2));
}

}  // namespace

Expected<Dim3> parse_dim3(std::string_view text) {
  std::array<std::uint32_t, 3> extent{1, 1, 1};
  std::size_t n = 0;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    if (n == 3) return fail(quoted(text) + " has more than three extents");
    std::uint32_t value = 0;
    const char* end = item.data() + item.size();
    auto [ptr, ec] = std::from_chars(item.data(), end, value);
    if (item.empty() || ec != std::errc{} || ptr != end) {
      return fail(quoted(text) + " is not X or X,Y,Z with positive integers");
    }
    if (value == 0) return fail(quoted(text) + " has a zero extent");
    extent[n++] = value;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return Expected<Dim3>(Dim3{extent[0], extent[1], extent[2]});
}

namespace {

Error union_refusal(const std::string& param_type) {
  return fail("the parameter is a union " + param_type +
              ", which --arg does not describe (only structs of scalars and pointers)");
}

std::string bytes_text(std::size_t size, std::size_t align) {
  return std::to_string(size) + " bytes, alignment " + std::to_string(align);
}

// A struct argument against a struct (or other class) parameter.
Expected<void> check_struct_against_param(const ArgSpec& spec, const KernelParam& param) {
  const std::string param_type = std::string("'") + param.type_name + "'";
  const std::string given = spec.type_text();
  if (param.is_pointer || param.aggregate == Aggregate::none) {
    return fail("the parameter is " + std::string(param.is_pointer ? "a pointer " : "a scalar ") +
                param_type + " but the argument is a struct " + given);
  }
  if (param.aggregate == Aggregate::union_type) {
    return union_refusal(param_type);
  }
  const StructLayout layout = struct_layout(spec);
  if (param.aggregate == Aggregate::reflected) {
    // First what no argument could pass, then the count, then field by field.
    for (std::uint32_t i = 0; i < param.field_count; ++i) {
      const KernelParam& field = param.fields[i];
      const std::string which = "field " + std::to_string(i) + " of " + param_type;
      const std::string field_type = std::string("'") + field.type_name + "'";
      if (field.aggregate == Aggregate::array) {
        return fail(which + " is an array " + field_type +
                    ", which --arg structs do not describe (only scalar and pointer fields)");
      }
      if (field.aggregate != Aggregate::none) {
        return fail(which + " is " + field_type +
                    ": nested structs and unions are not supported (only scalar and pointer fields)");
      }
    }
    if (param.field_count != spec.fields.size()) {
      return fail("the struct " + param_type + " has " + std::to_string(param.field_count) +
                  (param.field_count == 1 ? " field" : " fields") + " but the argument " + given +
                  " gives " + std::to_string(spec.fields.size()));
    }
    for (std::uint32_t i = 0; i < param.field_count; ++i) {
      const KernelParam& field = param.fields[i];
      const std::string which = "field " + std::to_string(i) + " of " + param_type;
      const std::string field_type = std::string("'") + field.type_name + "'";
      if (const Expected<void> fits = check_arg_against_param(spec.fields[i], field); !fits) {
        // Say more only where the types agree in shape (a buffer of the wrong byte count).
        const bool same_shape = spec.fields[i].is_buffer == field.is_pointer;
        return fail(which + " is " + field_type + " but the argument gives " +
                    spec.fields[i].type_text() +
                    (same_shape && field.kind == ValueKind::other ? " (" + fits.error().message + ")"
                                                                  : std::string()));
      }
      if (field.offset != layout.offsets[i]) {
        return fail(which + " lies at byte " + std::to_string(field.offset) +
                    " but the argument's field " + std::to_string(i) + " at byte " +
                    std::to_string(layout.offsets[i]) +
                    " (the struct is not laid out by the plain C rules: alignas or packing)");
      }
    }
  }
  // A parameter may be more aligned than its fields make it (float4, alignas): the bytes are the
  // same, and the launch places the parameter itself.
  const bool alignment_fits = param.align >= layout.align && param.align % layout.align == 0;
  if (param.size != layout.size || !alignment_fits) {
    return fail("the parameter " + param_type + " has " + bytes_text(param.size, param.align) +
                " but the struct argument " + given + " has " +
                bytes_text(layout.size, layout.align));
  }
  return {};
}

}  // namespace

Expected<void> check_arg_against_param(const ArgSpec& spec, const KernelParam& param) {
  const std::string param_type = std::string("'") + param.type_name + "'";
  const std::string given = spec.type_text();
  if (spec.is_struct) return check_struct_against_param(spec, param);
  if (!param.is_pointer && param.aggregate != Aggregate::none) {
    if (param.aggregate == Aggregate::union_type) {
      return union_refusal(param_type);
    }
    return fail("the parameter is a struct " + param_type + " but the argument is " + given +
                "; pass a struct as {FIELD; FIELD; ...}");
  }
  if (param.is_pointer != spec.is_buffer) {
    return fail(param.is_pointer ? "the parameter is a pointer " + param_type +
                                  " but the argument is a scalar " + given
                            : "the parameter is a scalar " + param_type +
                                  " but the argument is a buffer " + given);
  }
  if (param.kind == ValueKind::other) {
    // void*, float4*, __half*, structs: no --arg type names them; any buffer of whole
    // pointees will do (the kernel reinterprets the bytes as CUDA code does).
    if (!param.is_pointer) {
      return fail("the parameter has type " + param_type + ", which no --arg type describes");
    }
    const std::uint64_t bytes = spec.count * element_size(spec.type);
    if (param.size != 0 && bytes % param.size != 0) {
      return fail("the buffer " + given + " holds " + std::to_string(bytes) +
                  " bytes, not a whole number of " + param_type + " elements of " +
                  std::to_string(param.size) + " bytes");
    }
    return {};
  }
  if (param.kind != element_kind(spec.type) || param.size != element_size(spec.type)) {
    return fail("the parameter has type " + param_type + " but the argument is " + given);
  }
  return {};
}

Expected<void> check_args_against_kernel(const std::vector<ArgSpec>& args,
                                         const KernelDescriptor& kernel) {
  const std::string name = std::string("'") + kernel.name + "'";
  if (args.size() != kernel.param_count) {
    std::string message = "kernel " + name + " takes " + std::to_string(kernel.param_count) +
                          (kernel.param_count == 1 ? " parameter" : " parameters") + " but " +
                          std::to_string(args.size()) + " --arg " +
                          (args.size() == 1 ? "was" : "were") + " given";
    for (std::uint32_t i = 0; i < kernel.param_count; ++i) {
      const std::string hint = suggested_arg(kernel.params[i]);
      message += std::string(i == 0 ? "; parameters: " : ", ") + std::to_string(i) + ": '" +
                 kernel.params[i].type_name + "'" + (hint.empty() ? "" : " (--arg " + hint + ")");
    }
    return fail(message);
  }
  for (std::uint32_t i = 0; i < kernel.param_count; ++i) {
    const Expected<void> fits = check_arg_against_param(args[i], kernel.params[i]);
    if (fits) continue;
    const std::string hint = suggested_arg(kernel.params[i]);
    return fail("parameter " + std::to_string(i) + " of " + name + " (--arg " +
                std::to_string(i + 1) + "): " + fits.error().message +
                (hint.empty() ? "" : "; write --arg " + hint));
  }
  return {};
}

}  // namespace warpsim::runner
