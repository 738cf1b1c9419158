// An exercise's cases made concrete for a seed: launch shapes, vars and scalars, every input
// element's bits; and the schedules each case is graded under. Every draw comes from
// (seed, stream, index) alone, so a grade is the same however the cases are run.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "warpsim/course.hpp"
#include "warpsim/grading.hpp"
#include "warpsim/splitmix.hpp"

namespace warpsim::course {
namespace {

// Every draw from (seed, stream, index) alone, so nothing depends on draw order.
std::uint64_t draw(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return splitmix64(splitmix64(seed ^ splitmix64(stream)) + index);
}
std::uint64_t name_seed(std::string_view name) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

bool is_float(runner::ElementType t) {
  return t == runner::ElementType::f32 || t == runner::ElementType::f64;
}

// A number's bits as `type` holds it (integers must be whole).
Expected<std::uint64_t> bits_of(runner::ElementType type, double value) {
  if (type == runner::ElementType::f32)
    return std::uint64_t{std::bit_cast<std::uint32_t>(static_cast<float>(value))};
  if (type == runner::ElementType::f64) return std::bit_cast<std::uint64_t>(value);
  if (value != std::floor(value))
    return fail("the integer type gets the fraction " + std::to_string(value));
  const auto whole = static_cast<std::int64_t>(value);
  return runner::parse_element(type, std::to_string(whole));
}

Expected<std::uint64_t> bits_of(runner::ElementType type, const std::string& text) {
  if (text.rfind("bits:", 0) == 0) {
    const runner::ElementType raw =
        runner::element_size(type) == 4 ? runner::ElementType::u32 : runner::ElementType::u64;
    return runner::parse_element(raw, text.substr(5));
  }
  if (!is_float(type)) {
    // JSON writes whole numbers as "3"; tolerate "3.0" for integers too.
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() && *end == '\0' && text.find_first_of(".eE") != std::string::npos)
      return bits_of(type, d);
  }
  return runner::parse_element(type, text);
}

// The value bits hold, for sorting: floats by value (NaN last), integers signed or not.
double sort_key(runner::ElementType type, std::uint64_t bits) {
  switch (type) {
    case runner::ElementType::f32: {
      const float f = std::bit_cast<float>(static_cast<std::uint32_t>(bits));
      return std::isnan(f) ? INFINITY : f;
    }
    case runner::ElementType::f64: {
      const double d = std::bit_cast<double>(bits);
      return std::isnan(d) ? INFINITY : d;
    }
    case runner::ElementType::i32:
      return static_cast<std::int32_t>(bits);
    case runner::ElementType::i64:
      return static_cast<double>(static_cast<std::int64_t>(bits));
    default:
      return static_cast<double>(bits);
  }
}

Expected<std::vector<std::uint64_t>> generate(const Generator& g, runner::ElementType type,
                                              std::uint64_t count, std::uint64_t seed,
                                              std::map<std::string, std::int64_t> vars) {
  std::vector<std::uint64_t> out(count);
  std::vector<std::uint64_t> parsed;
  for (const std::string& v : g.values) {
    auto b = bits_of(type, v);
    if (!b) return b.error();
    parsed.push_back(*b);
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    switch (g.base) {
      case Generator::Base::fill:
        out[i] = parsed.front();
        break;
      case Generator::Base::list:
        out[i] = parsed[i % parsed.size()];
        break;
      case Generator::Base::choice:
        out[i] = parsed[draw(seed, 1, i) % parsed.size()];
        break;
      case Generator::Base::iota: {
        auto b = bits_of(type, g.start + static_cast<double>(i) * g.step);
        if (!b) return b.error();
        out[i] = *b;
        break;
      }
      case Generator::Base::random: {
        const auto steps = static_cast<std::uint64_t>(std::floor((g.high - g.low) / g.step + 1e-9));
        const std::uint64_t k = draw(seed, 2, i) % (steps + 1);
        auto b = bits_of(type, g.low + static_cast<double>(k) * g.step);
        if (!b) return b.error();
        out[i] = *b;
        break;
      }
    }
  }
  vars["count"] = static_cast<std::int64_t>(count);
  if (!g.sort.empty()) {
    std::uint64_t run = count;
    if (g.runs) {
      auto r = evaluate(*g.runs, vars);
      if (!r) return r.error();
      if (*r <= 0) return fail("sort runs of " + std::to_string(*r) + " elements");
      run = static_cast<std::uint64_t>(*r);
    }
    for (std::uint64_t begin = 0; begin < count; begin += run) {
      const auto first = out.begin() + static_cast<std::ptrdiff_t>(begin);
      const auto last = out.begin() + static_cast<std::ptrdiff_t>(std::min(count, begin + run));
      std::stable_sort(first, last, [&](std::uint64_t a, std::uint64_t b) {
        return g.sort == "ascending" ? sort_key(type, a) < sort_key(type, b)
                                     : sort_key(type, a) > sort_key(type, b);
      });
    }
  }
  for (const auto& [index, value] : g.set) {
    auto i = evaluate(index, vars);
    if (!i) return i.error();
    if (*i < 0 || static_cast<std::uint64_t>(*i) >= count) {
      return fail("\"set\" index " + index.text + " = " + std::to_string(*i) + " is outside the " +
                  std::to_string(count) + " elements");
    }
    auto b = bits_of(type, value);
    if (!b) return b.error();
    out[static_cast<std::size_t>(*i)] = *b;
  }
  return out;
}

Expected<GradeCase> make_case(const Exercise& e, const CaseSpec& spec, std::size_t spec_index,
                              std::size_t draw_index, std::uint64_t seed) {
  GradeCase c;
  c.name = spec.random ? spec.name + "-" + std::to_string(draw_index + 1) : spec.name;
  c.summary = spec.summary;
  c.random = spec.random;
  // Fixed cases are the same for everyone; random ones follow the grading seed.
  const std::uint64_t case_seed =
      spec.random ? draw(seed, 100 + spec_index, draw_index) : name_seed(spec.name);
  const std::string where = e.id + ", case " + c.name + ": ";
  auto grid = runner::parse_dim3(spec.grids[draw(case_seed, 3, 0) % spec.grids.size()]);
  auto block = runner::parse_dim3(spec.blocks[draw(case_seed, 4, 0) % spec.blocks.size()]);
  if (!grid || !block) return fail(where + "bad launch shape");
  c.grid = *grid;
  c.block = *block;
  if (Expected<void> shape = check_launch_shape(c.grid, c.block); !shape)
    return fail(where + shape.error().message);
  c.vars["blocks"] = static_cast<std::int64_t>(c.grid.count());
  c.vars["block"] = static_cast<std::int64_t>(c.block.count());
  c.vars["threads"] = static_cast<std::int64_t>(c.grid.count() * c.block.count());
  c.vars["warps"] = static_cast<std::int64_t>(c.warps());
  std::uint64_t var_draw = 0;
  const auto set_var = [&](const std::string& name, const Expression& expr) -> Expected<void> {
    auto v = evaluate(expr, c.vars);
    if (!v) return fail(where + "var " + name + ": " + v.error().message);
    c.vars[name] = *v;
    return {};
  };
  const auto overridden = [&](const std::string& name) {
    return std::any_of(spec.vars.begin(), spec.vars.end(),
                       [&](const auto& v) { return v.first == name; }) ||
           std::any_of(spec.random_vars.begin(), spec.random_vars.end(),
                       [&](const auto& v) { return v.name == name; });
  };
  // The case's own values first (they may only use the launch), then the exercise's defaults
  // that the case leaves alone (they may use the case's values).
  for (const CaseSpec::RandomVar& v : spec.random_vars) {
    const std::uint64_t r = draw(case_seed, 5, var_draw++);
    if (!v.choices.empty()) {
      if (auto r2 = set_var(v.name, v.choices[r % v.choices.size()]); !r2) return r2.error();
      continue;
    }
    auto lo = evaluate(v.low, c.vars);
    auto hi = evaluate(v.high, c.vars);
    if (!lo || !hi)
      return fail(where + "var " + v.name + ": " + (!lo ? lo.error() : hi.error()).message);
    if (*hi < *lo)
      return fail(where + "var " + v.name + ": [" + std::to_string(*lo) + ", " +
                  std::to_string(*hi) + "] is empty");
    c.vars[v.name] = *lo + static_cast<std::int64_t>(r % static_cast<std::uint64_t>(*hi - *lo + 1));
  }
  for (const auto& [name, expr] : spec.vars) {
    if (auto r = set_var(name, expr); !r) return r.error();
  }
  for (const auto& [name, expr] : e.vars) {
    if (overridden(name)) continue;
    if (auto r = set_var(name, expr); !r) return r.error();
  }
  for (std::size_t p = 0; p < e.params.size(); ++p) {
    const ExerciseParam& param = e.params[p];
    runner::ArgSpec arg;
    arg.type = param.type;
    arg.is_buffer = param.is_buffer;
    if (!param.is_buffer) {
      auto v = evaluate(param.value, c.vars);
      if (!v) return fail(where + "param " + param.name + ": " + v.error().message);
      auto bits = is_float(param.type) ? bits_of(param.type, static_cast<double>(*v))
                                       : runner::parse_element(param.type, std::to_string(*v));
      if (!bits) return fail(where + "param " + param.name + ": " + bits.error().message);
      arg.scalar_bits = *bits;
      c.args.push_back(std::move(arg));
      continue;
    }
    auto count = evaluate(param.count, c.vars);
    if (!count) return fail(where + "param " + param.name + ": " + count.error().message);
    if (*count < 0)
      return fail(where + "param " + param.name + " has " + std::to_string(*count) + " elements");
    const auto it = spec.inputs.find(param.name);
    const Generator& g = it != spec.inputs.end() ? it->second : param.init;
    auto values =
        generate(g, param.type, static_cast<std::uint64_t>(*count), draw(case_seed, 6, p), c.vars);
    if (!values) return fail(where + "param " + param.name + ": " + values.error().message);
    arg.count = static_cast<std::uint64_t>(*count);
    arg.init = runner::BufferInit::list;
    arg.list = std::move(*values);
    c.args.push_back(std::move(arg));
  }
  return c;
}

}  // namespace

std::uint64_t GradeCase::warps() const {
  return grid.count() * ((block.count() + kWarpSize - 1) / kWarpSize);
}

Expected<std::vector<GradeCase>> make_cases(const Exercise& exercise, std::uint64_t seed) {
  std::vector<GradeCase> cases;
  for (std::size_t s = 0; s < exercise.cases.size(); ++s) {
    const CaseSpec& spec = exercise.cases[s];
    for (std::size_t d = 0; d < spec.count; ++d) {
      auto c = make_case(exercise, spec, s, d, seed);
      if (!c) return c.error();
      cases.push_back(std::move(*c));
    }
  }
  return cases;
}

std::vector<Schedule> schedules_for(const Exercise& exercise, const GradeCase& grade_case,
                                    std::uint64_t seed, std::size_t case_index) {
  std::vector<Schedule> out;
  out.push_back({"in order", ConvergencePolicy::maximal, 1, 0});
  const bool several_warps = grade_case.warps() > 1;
  // Seeds are never 0 (0 means "in order").
  const auto seed_for = [&](std::uint64_t stream, std::uint32_t k) {
    return draw(seed, 1000 + stream, case_index * 64 + k) | 1;
  };
  if (several_warps) {
    for (std::uint32_t k = 0; k < exercise.orders; ++k) {
      out.push_back(
          {"order " + std::to_string(k + 1), ConvergencePolicy::maximal, 1, seed_for(1, k)});
    }
  }
  for (std::uint32_t k = 0; k < exercise.interleaved; ++k) {
    out.push_back({"interleaved " + std::to_string(k + 1), ConvergencePolicy::interleaved,
                   seed_for(2, k), several_warps ? seed_for(3, k) : 0});
  }
  return out;
}

}  // namespace warpsim::course
