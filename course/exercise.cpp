// exercise.json into an Exercise, checked field by field; a lessons folder's exercises into a
// catalogue; an exercise's cases made concrete for a seed (sizes, scalars, every element's bits).
#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

#include "json_problem.hpp"
#include "warpsim/course.hpp"
#include "warpsim/grading.hpp"

namespace warpsim::course {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

// A problem with the exercise's text; caught at the top and turned into one Error.
struct Invalid {
  std::string reason;
};

// ---------------------------------------------------------------------------------------------
// Expressions: a recursive descent over the text, evaluated as it parses

class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, const std::map<std::string, std::int64_t>& vars)
      : text_(text), vars_(vars) {}

  Expected<std::int64_t> run() {
    std::int64_t value = sum();
    skip_space();
    if (error_.empty() && pos_ != text_.size())
      error_ = "unexpected '" + std::string(text_.substr(pos_)) + "'";
    if (!error_.empty()) return fail("expression '" + std::string(text_) + "': " + error_);
    return value;
  }

 private:
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::int64_t sum() {
    std::int64_t value = product();
    while (error_.empty()) {
      if (eat('+')) {
        value += product();
      } else if (eat('-')) {
        value -= product();
      } else {
        break;
      }
    }
    return value;
  }
  std::int64_t product() {
    std::int64_t value = unary();
    while (error_.empty()) {
      const bool times = eat('*');
      const bool divide = !times && eat('/');
      const bool modulo = !times && !divide && eat('%');
      if (!times && !divide && !modulo) break;
      const std::int64_t right = unary();
      if (times) {
        value *= right;
      } else if (right == 0) {
        error_ = "division by zero";
      } else {
        value = divide ? value / right : value % right;
      }
    }
    return value;
  }
  std::int64_t unary() {
    if (eat('-')) return -unary();
    return primary();
  }
  std::int64_t primary() {
    skip_space();
    if (eat('(')) {
      const std::int64_t value = sum();
      if (!eat(')')) error_ = "missing ')'";
      return value;
    }
    const std::size_t start = pos_;
    if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
      return std::stoll(std::string(text_.substr(start, pos_ - start)));
    }
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    const std::string name(text_.substr(start, pos_ - start));
    if (name.empty()) {
      if (error_.empty())
        error_ = pos_ < text_.size() ? "unexpected '" + std::string(1, text_[pos_]) + "'"
                                     : "missing a value";
      return 0;
    }
    if (name == "min" || name == "max") {
      if (!eat('(')) {
        error_ = name + " takes (a, b)";
        return 0;
      }
      const std::int64_t a = sum();
      if (!eat(',')) error_ = name + " takes (a, b)";
      const std::int64_t b = sum();
      if (!eat(')')) error_ = "missing ')'";
      return name == "min" ? std::min(a, b) : std::max(a, b);
    }
    const auto it = vars_.find(name);
    if (it == vars_.end()) {
      if (error_.empty()) error_ = "unknown name '" + name + "'";
      return 0;
    }
    return it->second;
  }

  std::string_view text_;
  const std::map<std::string, std::int64_t>& vars_;
  std::size_t pos_ = 0;
  std::string error_;
};

// ---------------------------------------------------------------------------------------------
// Reading the JSON

const json& field(const json& object, const char* name, const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end()) throw Invalid{where + "missing \"" + name + "\""};
  return *it;
}

std::string text_of(const json& value, const std::string& what) {
  if (value.is_string()) return value.get<std::string>();
  // Paragraphs may be written as a list of strings.
  if (value.is_array()) {
    std::string text;
    for (const json& p : value) {
      if (!p.is_string()) throw Invalid{what + " must hold strings"};
      text += (text.empty() ? "" : "\n\n") + p.get<std::string>();
    }
    return text;
  }
  throw Invalid{what + " must be a string"};
}

std::string text_field(const json& object, const char* name, const std::string& where) {
  return text_of(field(object, name, where), where + "\"" + name + "\"");
}

// A number or an expression's text.
Expression expression_of(const json& value, const std::string& what) {
  if (value.is_number_integer()) return {std::to_string(value.get<std::int64_t>())};
  if (value.is_string()) return {value.get<std::string>()};
  throw Invalid{what + " must be an integer or an expression"};
}

// A value as the element type reads it: JSON numbers as written, strings as they are.
std::string value_text(const json& value, const std::string& what) {
  if (value.is_number()) return value.dump();
  if (value.is_string()) return value.get<std::string>();
  throw Invalid{what + ": values are numbers or strings (\"nan\", \"-0\", \"bits:0x7fc00001\")"};
}

double number_of(const json& value, const std::string& what) {
  if (!value.is_number()) throw Invalid{what + " must be a number"};
  return value.get<double>();
}

Generator generator_of(const json& j, const std::string& where) {
  if (!j.is_object())
    throw Invalid{where + "a generator is an object ({\"random\": [-99, 99]}, {\"fill\": 0}, ...)"};
  Generator g;
  int bases = 0;
  if (j.contains("fill")) {
    g.base = Generator::Base::fill;
    g.values = {value_text(j.at("fill"), where + "\"fill\"")};
    ++bases;
  }
  if (j.contains("list")) {
    g.base = Generator::Base::list;
    if (!j.at("list").is_array() || j.at("list").empty())
      throw Invalid{where + "\"list\" must be a non-empty list"};
    for (const json& v : j.at("list")) g.values.push_back(value_text(v, where + "\"list\""));
    ++bases;
  }
  if (j.contains("choice")) {
    g.base = Generator::Base::choice;
    if (!j.at("choice").is_array() || j.at("choice").empty())
      throw Invalid{where + "\"choice\" must be a non-empty list"};
    for (const json& v : j.at("choice")) g.values.push_back(value_text(v, where + "\"choice\""));
    ++bases;
  }
  if (j.contains("iota")) {
    g.base = Generator::Base::iota;
    g.start = number_of(j.at("iota"), where + "\"iota\"");
    ++bases;
  }
  if (j.contains("random")) {
    g.base = Generator::Base::random;
    const json& r = j.at("random");
    if (!r.is_array() || r.size() != 2) throw Invalid{where + "\"random\" is [low, high]"};
    g.low = number_of(r[0], where + "\"random\"");
    g.high = number_of(r[1], where + "\"random\"");
    if (g.high < g.low) throw Invalid{where + "\"random\": high is below low"};
    ++bases;
  }
  if (bases != 1)
    throw Invalid{where + "a generator has exactly one of fill, list, choice, iota, random"};
  if (j.contains("step")) {
    g.step = number_of(j.at("step"), where + "\"step\"");
    if (g.step <= 0 && g.base == Generator::Base::random)
      throw Invalid{where + "\"step\" must be positive"};
  }
  if (j.contains("sort")) {
    g.sort = text_field(j, "sort", where);
    if (g.sort != "ascending" && g.sort != "descending") {
      throw Invalid{where + "\"sort\" is ascending or descending"};
    }
  }
  if (j.contains("runs")) g.runs = expression_of(j.at("runs"), where + "\"runs\"");
  if (j.contains("set")) {
    const json& s = j.at("set");
    if (!s.is_object()) throw Invalid{where + "\"set\" maps an index (an expression) to a value"};
    for (const auto& [index, value] : s.items())
      g.set.emplace_back(Expression{index}, value_text(value, where + "\"set\""));
  }
  for (const auto& [key, value] : j.items()) {
    static constexpr std::string_view kKeys[] = {"fill", "list", "choice", "iota", "random",
                                                 "step", "sort", "runs",   "set"};
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw Invalid{where + "unknown generator field \"" + key + "\""};
    }
  }
  return g;
}

void read_vars(const json& j, const std::string& where, CaseSpec* spec,
               std::vector<std::pair<std::string, Expression>>& fixed) {
  if (!j.is_object()) throw Invalid{where + "\"vars\" maps names to expressions"};
  for (const auto& [name, value] : j.items()) {
    if (value.is_object()) {
      if (spec == nullptr || (!value.contains("random") && !value.contains("choice"))) {
        throw Invalid{where + "var \"" + name +
                      "\": an integer, an expression, or (random cases) {\"random\": [lo, hi]} or "
                      "{\"choice\": [a, b, ...]}"};
      }
      CaseSpec::RandomVar var{name, {}, {}, {}};
      if (value.contains("random")) {
        const json& r = value.at("random");
        if (!r.is_array() || r.size() != 2)
          throw Invalid{where + "var \"" + name + "\": \"random\" is [lo, hi]"};
        var.low = expression_of(r[0], where + name);
        var.high = expression_of(r[1], where + name);
      } else {
        const json& c = value.at("choice");
        if (!c.is_array() || c.empty())
          throw Invalid{where + "var \"" + name + "\": \"choice\" is a non-empty list"};
        for (const json& e : c) var.choices.push_back(expression_of(e, where + name));
      }
      spec->random_vars.push_back(std::move(var));
    } else {
      fixed.emplace_back(name, expression_of(value, where + "var \"" + name + "\""));
    }
  }
}

std::vector<std::string> shapes(const json& j, const char* name, const std::string& where) {
  const json& value = field(j, name, where);
  std::vector<std::string> out;
  if (value.is_string()) {
    out.push_back(value.get<std::string>());
  } else if (value.is_array() && !value.empty()) {
    for (const json& v : value) out.push_back(text_of(v, where + "\"" + name + "\""));
  } else {
    throw Invalid{where + "\"" + name +
                  "\" is a shape (\"128\") or, for random cases, a list of shapes"};
  }
  for (const std::string& s : out) {
    if (auto d = runner::parse_dim3(s); !d)
      throw Invalid{where + "\"" + name + "\" '" + s + "': " + d.error().message};
  }
  return out;
}

CaseSpec case_of(const json& j, const Exercise& exercise, bool random, const std::string& where0) {
  if (!j.is_object()) throw Invalid{where0 + "every case is an object"};
  CaseSpec spec;
  spec.random = random;
  spec.name = text_field(j, "name", where0);
  const std::string where = where0 + "case " + spec.name + ": ";
  if (spec.name.empty() || spec.name.find_first_of(" \t,\"") != std::string::npos) {
    throw Invalid{where + "a case's name is one word (letters, digits, dashes)"};
  }
  spec.summary = j.contains("summary") ? text_field(j, "summary", where) : "";
  spec.grids = shapes(j, "grid", where);
  spec.blocks = shapes(j, "block", where);
  if (!random && (spec.grids.size() != 1 || spec.blocks.size() != 1)) {
    throw Invalid{where + "a fixed case has one grid and one block (lists are for random cases)"};
  }
  spec.grid = spec.grids.front();
  spec.block = spec.blocks.front();
  if (j.contains("vars")) read_vars(j.at("vars"), where, random ? &spec : nullptr, spec.vars);
  if (j.contains("inputs")) {
    const json& inputs = j.at("inputs");
    if (!inputs.is_object()) throw Invalid{where + "\"inputs\" maps parameter names to generators"};
    for (const auto& [name, g] : inputs.items()) {
      const ExerciseParam* p = exercise.param(name);
      if (p == nullptr || !p->is_buffer)
        throw Invalid{where + "\"inputs\" names \"" + name + "\", which is no buffer parameter"};
      spec.inputs[name] = generator_of(g, where + "input " + name + ": ");
    }
  }
  if (random) {
    spec.count = j.value("count", std::size_t{1});
    if (spec.count == 0) throw Invalid{where + "\"count\" must be at least 1"};
  }
  for (const auto& [key, value] : j.items()) {
    static constexpr std::string_view kKeys[] = {"name", "summary", "grid", "block",
                                                 "vars", "inputs",  "count"};
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw Invalid{where + "unknown field \"" + key + "\""};
    }
  }
  return spec;
}

ExerciseParam param_of(const json& j, const std::string& where0) {
  ExerciseParam p;
  p.name = text_field(j, "name", where0);
  const std::string where = where0 + "param " + p.name + ": ";
  const std::string type = text_field(j, "type", where);
  const auto element = runner::element_type_from_string(type);
  if (!element) throw Invalid{where + "\"type\" is one of i32 u32 f32 i64 u64 f64"};
  p.type = *element;
  p.is_buffer = j.contains("count");
  if (p.is_buffer == j.contains("value"))
    throw Invalid{where + "a buffer has \"count\", a scalar \"value\""};
  if (p.is_buffer) {
    p.count = expression_of(j.at("count"), where + "\"count\"");
    if (j.contains("init"))
      p.init = generator_of(j.at("init"), where + "\"init\": ");
    else
      p.init.values = {"0"};
    p.checked = j.value("check", false);
    if (j.contains("length_from")) p.length_from = text_field(j, "length_from", where);
    p.window = j.contains("window") ? expression_of(j.at("window"), where + "\"window\"")
                                    : Expression{"32 * (i / 32)"};
  } else {
    p.value = expression_of(j.at("value"), where + "\"value\"");
  }
  return p;
}

// Every expression of the exercise evaluates with the names it may use (each set to 64).
void check_expressions(const Exercise& e, const std::string& where) {
  std::map<std::string, std::int64_t> names{{"threads", 64}, {"warps", 64}, {"blocks", 64},
                                            {"block", 64},   {"i", 64},     {"count", 64}};
  for (const auto& [name, expr] : e.vars) names[name] = 64;
  for (const CaseSpec& c : e.cases) {
    for (const auto& [name, expr] : c.vars) names[name] = 64;
    for (const CaseSpec::RandomVar& v : c.random_vars) names[v.name] = 64;
  }
  const auto check = [&](const Expression& expr, const std::string& what) {
    if (expr.text.empty()) return;
    if (auto v = evaluate(expr, names); !v) throw Invalid{where + what + ": " + v.error().message};
  };
  const auto check_generator = [&](const Generator& g, const std::string& what) {
    if (g.runs) check(*g.runs, what + " runs");
    for (const auto& [index, value] : g.set) check(index, what + " set");
  };
  for (const auto& [name, expr] : e.vars) check(expr, "var " + name);
  for (const ExerciseParam& p : e.params) {
    check(p.is_buffer ? p.count : p.value, "param " + p.name);
    if (p.is_buffer) {
      check(p.window, "param " + p.name + " window");
      check_generator(p.init, "param " + p.name);
    }
    if (!p.length_from.empty()) {
      const ExerciseParam* n = e.param(p.length_from);
      if (n == nullptr || !n->is_buffer || !n->checked) {
        throw Invalid{where + "param " + p.name + ": \"length_from\" names no checked buffer"};
      }
    }
  }
  for (const CaseSpec& c : e.cases) {
    for (const auto& [name, expr] : c.vars) check(expr, "case " + c.name + " var " + name);
    for (const CaseSpec::RandomVar& v : c.random_vars) {
      check(v.low, "case " + c.name + " var " + v.name);
      check(v.high, "case " + c.name + " var " + v.name);
      for (const Expression& choice : v.choices) check(choice, "case " + c.name + " var " + v.name);
    }
    for (const auto& [name, g] : c.inputs) check_generator(g, "case " + c.name + " input " + name);
  }
}

std::vector<std::string> hint_list(const json& j, const std::string& where) {
  std::vector<std::string> hints;
  const json& list = field(j, "hints", where);
  if (!list.is_array()) throw Invalid{where + "\"hints\" is a list of strings"};
  for (const json& h : list) hints.push_back(text_of(h, where + "\"hints\""));
  return hints;
}

Exercise exercise_from(const json& j, const fs::path& dir) {
  const std::string where = (dir / "exercise.json").string() + ": ";
  if (!j.is_object()) throw Invalid{where + "expected a JSON object"};
  Exercise e;
  e.dir = dir;
  e.id = dir.filename().string();
  if (text_field(j, "id", where) != e.id) {
    throw Invalid{where + "\"id\" is \"" + text_field(j, "id", where) + "\" but the folder is " +
                  e.id};
  }
  e.lesson = text_field(j, "lesson", where);
  const fs::path lesson_dir = dir.parent_path().parent_path();
  if (dir.parent_path().filename() == "exercises" && lesson_dir.filename().string() != e.lesson) {
    throw Invalid{where + "\"lesson\" is \"" + e.lesson + "\" but the exercise sits in " +
                  lesson_dir.filename().string()};
  }
  e.title = text_field(j, "title", where);
  e.summary = text_field(j, "summary", where);
  e.kernel = text_field(j, "kernel", where);
  e.signature = text_field(j, "signature", where);
  e.contract = text_field(j, "contract", where);
  e.inputs = text_field(j, "inputs", where);
  e.hints = hint_list(j, where);
  if (e.hints.empty()) throw Invalid{where + "an exercise gives at least one hint"};
  for (const json& p : field(j, "params", where)) {
    e.params.push_back(param_of(p, where));
    if (std::count_if(e.params.begin(), e.params.end(),
                      [&](const ExerciseParam& q) { return q.name == e.params.back().name; }) > 1) {
      throw Invalid{where + "two parameters are named " + e.params.back().name};
    }
  }
  if (std::none_of(e.params.begin(), e.params.end(),
                   [](const ExerciseParam& p) { return p.checked; })) {
    throw Invalid{where + "no parameter has \"check\": true; nothing would be graded"};
  }
  if (j.contains("vars")) read_vars(j.at("vars"), where, nullptr, e.vars);
  if (j.contains("shared")) e.shared_bytes = j.at("shared").get<std::size_t>();
  const std::string compare = j.value("compare", std::string("bits"));
  if (compare == "bits") {
    e.comparison = Comparison::bits;
  } else if (compare == "values") {
    e.comparison = Comparison::values;
  } else {
    throw Invalid{where + "\"compare\" is bits or values"};
  }
  e.tolerance_ulps = j.value("tolerance_ulps", std::uint64_t{0});
  if (e.tolerance_ulps > 0 && e.comparison != Comparison::values) {
    throw Invalid{where + "\"tolerance_ulps\" goes with \"compare\": \"values\""};
  }
  for (const json& c : field(j, "cases", where)) e.cases.push_back(case_of(c, e, false, where));
  if (j.contains("random")) {
    for (const json& c : j.at("random")) e.cases.push_back(case_of(c, e, true, where));
  }
  for (std::size_t a = 0; a < e.cases.size(); ++a) {
    for (std::size_t b = a + 1; b < e.cases.size(); ++b) {
      if (e.cases[a].name == e.cases[b].name)
        throw Invalid{where + "two cases are named " + e.cases[a].name};
    }
  }
  if (e.cases.empty()) throw Invalid{where + "an exercise has at least one case"};
  if (j.contains("schedules")) {
    const json& s = j.at("schedules");
    e.orders = s.value("orders", e.orders);
    e.interleaved = s.value("interleaved", e.interleaved);
  }
  e.time_limit_seconds = j.value("time_limit_seconds", e.time_limit_seconds);
  e.max_steps = j.value("max_steps", e.max_steps);
  if (j.contains("wrong")) {
    for (const json& w : j.at("wrong")) {
      const std::string at = where + "wrong: ";
      WrongSolution wrong{text_field(w, "file", at), text_field(w, "bug", at),
                          text_field(w, "fails", at), text_field(w, "message", at)};
      if (!fs::exists(e.wrong_file(wrong))) throw Invalid{at + "no file wrong/" + wrong.file};
      if (std::none_of(e.cases.begin(), e.cases.end(),
                       [&](const CaseSpec& c) { return c.name == wrong.failing_case; })) {
        throw Invalid{at + wrong.file + ": \"fails\" names no case (\"" + wrong.failing_case +
                      "\")"};
      }
      e.wrong.push_back(std::move(wrong));
    }
  }
  if (j.contains("right")) {
    for (const json& r : j.at("right")) {
      RightSolution right{text_field(r, "file", where + "right: "),
                          text_field(r, "note", where + "right: ")};
      if (!fs::exists(e.right_file(right)))
        throw Invalid{where + "right: no file right/" + right.file};
      e.right.push_back(std::move(right));
    }
  }
  for (const auto& [key, value] : j.items()) {
    static constexpr std::string_view kKeys[] = {
        "id",        "title",          "lesson", "summary", "kernel",    "signature",
        "contract",  "inputs",         "hints",  "params",  "vars",      "shared",
        "compare",   "tolerance_ulps", "cases",  "random",  "schedules", "time_limit_seconds",
        "max_steps", "wrong",          "right"};
    if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
      throw Invalid{where + "unknown field \"" + key + "\""};
    }
  }
  check_expressions(e, where);
  for (const fs::path& file : {e.statement_file(), e.starter_file(), e.solution_file()}) {
    if (!fs::exists(file)) throw Invalid{where + "the exercise has no " + file.filename().string()};
  }
  return e;
}

// ---------------------------------------------------------------------------------------------
// Making cases

// splitmix64: every draw from (seed, stream, index) alone, so nothing depends on draw order.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
std::uint64_t draw(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return mix(mix(seed ^ mix(stream)) + index);
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

Expected<std::int64_t> evaluate(const Expression& expr,
                                const std::map<std::string, std::int64_t>& vars) {
  return ExpressionParser(expr.text, vars).run();
}

const ExerciseParam* Exercise::param(std::string_view name) const {
  for (const ExerciseParam& p : params) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Expected<Exercise> load_exercise(const fs::path& given) {
  // "lessons/04-x/exercises/warp-sum/" names the same folder as without the slash.
  const fs::path dir = given.has_filename() ? given : given.parent_path();
  const auto text = runner::read_text_file((dir / "exercise.json").string());
  if (!text)
    return fail(ErrorKind::file,
                "no exercise at " + dir.string() + " (" + text.error().message + ")");
  try {
    return exercise_from(json::parse(*text), dir);
  } catch (const Invalid& invalid) {
    return fail(invalid.reason);
  } catch (const json::exception& e) {
    return fail(json_problem(dir / "exercise.json", *text, e));
  }
}

ExerciseCatalogue load_exercises(const fs::path& lessons_dir) {
  ExerciseCatalogue catalogue;
  std::error_code error;
  std::vector<fs::path> folders;
  for (const auto& lesson : fs::directory_iterator(lessons_dir, error)) {
    const fs::path exercises = lesson.path() / "exercises";
    if (!lesson.is_directory() || !fs::is_directory(exercises)) continue;
    for (const auto& entry : fs::directory_iterator(exercises, error)) {
      if (entry.is_directory() && fs::exists(entry.path() / "exercise.json"))
        folders.push_back(entry.path());
    }
  }
  if (error) {
    catalogue.problems.push_back(
        fail(ErrorKind::file, "cannot read " + lessons_dir.string() + ": " + error.message()));
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    auto exercise = load_exercise(folder);
    if (!exercise) {
      catalogue.problems.push_back(exercise.error());
    } else if (find_exercise(catalogue, exercise->id) != nullptr) {
      catalogue.problems.push_back(
          fail(folder.string() + ": another exercise is named " + exercise->id));
    } else {
      catalogue.exercises.push_back(std::move(*exercise));
    }
  }
  return catalogue;
}

const Exercise* find_exercise(const ExerciseCatalogue& catalogue, std::string_view id) {
  for (const Exercise& e : catalogue.exercises) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

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

std::vector<std::string> hints_up_to(const Exercise& exercise, std::size_t n) {
  n = std::min(n, exercise.hints.size());
  return {exercise.hints.begin(), exercise.hints.begin() + static_cast<std::ptrdiff_t>(n)};
}

}  // namespace warpsim::course
