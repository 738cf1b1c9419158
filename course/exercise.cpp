// exercise.json into an Exercise, checked field by field; a lessons folder's exercises into a
// catalogue. Making an exercise's cases for a seed is exercise_cases.cpp; its expressions,
// exercise_expression.cpp.
#include <algorithm>
#include <nlohmann/json.hpp>

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

}  // namespace

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

std::vector<std::string> hints_up_to(const Exercise& exercise, std::size_t n) {
  n = std::min(n, exercise.hints.size());
  return {exercise.hints.begin(), exercise.hints.begin() + static_cast<std::ptrdiff_t>(n)};
}

}  // namespace warpsim::course
