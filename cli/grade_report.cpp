#include "grade_report.hpp"

#include "warpsim/xml_escape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

namespace warpsim::cli {

using json = nlohmann::ordered_json;

namespace {

constexpr std::size_t kCellsPerLine = 8;

std::string pad_left(const std::string& text, std::size_t width) {
  std::size_t columns = 0;
  for (const char c : text) columns += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return columns >= width ? text : std::string(width - columns, ' ') + text;
}

std::string pad_right(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string seconds_text(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", s);
  return buffer;
}

std::string_view row_kind(course::ElementRow::Kind kind) {
  switch (kind) {
    case course::ElementRow::Kind::input:
      return "input";
    case course::ElementRow::Kind::expected:
      return "expected";
    case course::ElementRow::Kind::got:
      return "got";
  }
  return "input";
}

std::string_view row_kind_name(RowKind kind) {
  switch (kind) {
    case RowKind::input:
      return "input";
    case RowKind::argument:
      return "argument";
    case RowKind::width:
      return "width";
    case RowKind::source:
      return "source";
    case RowKind::output:
      return "output";
    case RowKind::predicate:
      return "predicate";
    case RowKind::other:
      return "expected";
    case RowKind::after:
      return "after";
  }
  return "input";
}

// The rows of one parameter, 8 elements a line, each line headed by the elements' indices.
void write_table(std::ostream& out, const std::vector<course::ElementRow>& table,
                 const TextStyle& style) {
  const std::string magenta = style.color ? "\033[35m" : "", reset = style.color ? "\033[0m" : "";
  std::size_t label = 5;
  for (const course::ElementRow& row : table) label = std::max(label, row.label.size());
  std::size_t r = 0;
  while (r < table.size()) {
    std::size_t end = r + 1;
    while (end < table.size() && table[end].arg == table[r].arg &&
           table[end].first == table[r].first)
      ++end;
    std::size_t width = 4, cells = 0;
    for (std::size_t k = r; k < end; ++k) {
      for (const std::string& c : table[k].cells) width = std::max(width, c.size() + 2);
      cells = std::max(cells, table[k].cells.size());
    }
    for (std::size_t begin = 0; begin < cells; begin += kCellsPerLine) {
      out << "    " << pad_right("", label) << " |";
      for (std::size_t c = begin; c < std::min(cells, begin + kCellsPerLine); ++c) {
        out << ' ' << pad_left("[" + std::to_string(table[r].first + c) + "]", width);
      }
      out << '\n';
      for (std::size_t k = r; k < end; ++k) {
        const course::ElementRow& row = table[k];
        out << "    " << pad_right(row.label, label) << " |";
        for (std::size_t c = begin; c < std::min(row.cells.size(), begin + kCellsPerLine); ++c) {
          const bool differs = c < row.differs.size() && row.differs[c];
          if (differs) {
            out << ' ' << magenta << pad_left("!" + row.cells[c], width) << reset;
          } else {
            out << ' ' << pad_left(row.cells[c], width);
          }
        }
        out << '\n';
      }
    }
    r = end;
  }
}

}  // namespace

namespace {

// Cases left unrun because the time budget was spent (not those after a runaway case).
std::size_t out_of_budget(const course::GradeResult& result) {
  return static_cast<std::size_t>(
      std::count_if(result.cases.begin(), result.cases.end(), [](const course::CaseResult& c) {
        return c.incomplete() && c.headline.find("time budget") != std::string::npos;
      }));
}

}  // namespace

double rerun_budget(const course::GradeResult& result) {
  const std::size_t left = out_of_budget(result);
  if (left == 0) return 0;
  const std::size_t ran = result.cases.size() - result.cases_incomplete();
  const double need = ran == 0 ? 2 * result.budget_seconds
                               : 1.25 * result.budget_seconds *
                                     static_cast<double>(result.cases.size()) /
                                     static_cast<double>(ran);
  return std::ceil(std::max(need, result.budget_seconds + 1));
}

std::string rerun_command(const course::GradeResult& result) {
  const std::string& exercise =
      result.exercise_named_as.empty() ? result.exercise : result.exercise_named_as;
  std::string command = "warpsim grade " + exercise + " " + result.submission +
                        " --seed " + std::to_string(result.seed);
  if (const double budget = rerun_budget(result); budget > 0)
    command += " --budget " + std::to_string(static_cast<long long>(budget));
  return command;
}

std::string gui_command(const course::GradeResult& result) {
  const std::string& exercise =
      result.exercise_named_as.empty() ? result.exercise : result.exercise_named_as;
  return "warpsim gui --exercise " + exercise + " " + result.submission + " --grade";
}

void write_grade_text(std::ostream& out, const course::Exercise& exercise,
                      const course::GradeResult& result, const TextStyle& style) {
  const std::string red = style.color ? "\033[31m" : "", green = style.color ? "\033[32m" : "",
                    bold = style.color ? "\033[1m" : "", reset = style.color ? "\033[0m" : "";
  out << exercise.id << ": " << exercise.title << " (lesson " << exercise.lesson << ")\n";
  out << "grading " << result.submission << ", seed " << result.seed << "\n";
  if (!result.sandbox.empty()) out << "sandbox: " << result.sandbox << "\n";
  if (result.status == course::GradeStatus::bad_submission ||
      result.status == course::GradeStatus::broken_exercise) {
    out << "\n"
        << red
        << (result.status == course::GradeStatus::bad_submission ? "cannot grade: "
                                                                 : "exercise problem: ")
        << reset << result.message << "\n";
    if (!result.details.empty())
      out << result.details << (result.details.back() == '\n' ? "" : "\n");
    return;
  }
  out << "\n";
  std::size_t name_width = 4, launch_width = 6;
  for (const course::CaseResult& c : result.cases) {
    name_width = std::max(name_width, c.name.size());
    launch_width = std::max(launch_width, c.launch.size());
  }
  for (const course::CaseResult& c : result.cases) {
    out << "  " << (c.passed() ? green + "ok  " : c.incomplete() ? std::string("skip") : red + "FAIL")
        << reset << "  "
        << pad_right(c.name, name_width) << "  " << pad_right(c.launch, launch_width);
    if (c.passed()) {
      out << "  " << c.runs << (c.runs == 1 ? " run" : " runs");
      if (!c.gpu.empty()) out << "; GPU " << c.gpu;
    } else {
      out << "  " << c.headline;
    }
    out << "\n";
  }
  const std::string verdict = result.passed()                                     ? ": PASSED"
                              : result.status == course::GradeStatus::incomplete ? ": INCOMPLETE"
                                                                                 : ": FAILED";
  out << "\n"
      << bold << result.cases_passed() << " of " << result.cases.size() << " cases pass"
      << verdict << reset << " (" << seconds_text(result.seconds) << " s)\n";
  if (const std::size_t left = result.cases_incomplete(); left > 0) {
    std::string why;
    for (const course::CaseResult& c : result.cases) {
      if (c.incomplete()) why = c.message.rfind("not run: ", 0) == 0 ? c.message.substr(9) : c.message;
      if (!why.empty()) break;
    }
    out << left << (left == 1 ? " case was" : " cases were")
        << " not run (incomplete, not failed): " << why << "\n";
    if (out_of_budget(result) > 0)
      out << "Rerun with a larger budget: " << rerun_command(result) << "\n";
  }
  if (result.failure) {
    const course::FailureDetail& f = *result.failure;
    const course::CaseResult& c = result.cases.at(f.case_index);
    out << "\nThe first failing case: " << c.name << " (" << c.launch << "), " << f.schedule.name
        << "\n";
    if (!c.summary.empty()) out << "  " << c.summary << "\n";
    out << "  " << c.message << "\n\n";
    if (!f.table.empty()) write_table(out, f.table, style);
    out << "\n  " << f.step_reason << "\n";
    if (f.step) {
      out << "\n";
      if (!f.source_line.empty())
        out << "  " << f.step->where.line << " |" << f.source_line << "\n";
      print_step(out, *f.step, style);
      out << "  (· diverged elsewhere or not in the mask · x exited · ?undefined result · !differs "
             "from the "
             "reference's lane at the same call)\n";
    }
  }
  if (result.failure) {
    // The GUI grades the file again and opens this case at the step the report shows; a case the
    // memory checks explained runs under them there, their findings listed and their lines marked.
    out << "\nStep through it lane by lane: " << gui_command(result) << "\n";
  }
  out << "\nRerun: " << rerun_command(result) << "\n";
}

json step_view_json(const StepView& v) {
  json out;
  out["step"] = v.step;
  out["block"] = v.warp.block;
  out["warp"] = v.warp.warp;
  out["position"] = v.position;
  out["warp_steps"] = v.warp_steps;
  out["pass"] = v.pass;
  out["name"] = v.name;
  out["site"] = v.site;
  out["line"] = v.where.line;
  json facts = json::object();
  for (const auto& [name, value] : v.facts) facts[name] = value;
  out["facts"] = std::move(facts);
  json lanes = json::array();
  for (const LaneState s : v.lanes) lanes.push_back(to_string(s));
  out["lanes"] = std::move(lanes);
  json rows = json::array();
  for (const StepRow& row : v.rows) {
    json cells = json::array();
    json undefined = json::array();
    json differs = json::array();
    for (const LaneCell& cell : row.cells) {
      cells.push_back(cell.text);
      undefined.push_back(cell.undefined);
      differs.push_back(cell.differs);
    }
    rows.push_back({{"label", row.label},
                    {"kind", row_kind_name(row.kind)},
                    {"cells", std::move(cells)},
                    {"undefined", std::move(undefined)},
                    {"differs", std::move(differs)}});
  }
  out["rows"] = std::move(rows);
  out["differs"] = format_mask(v.other_differs);
  return out;
}

json grade_json(const course::Exercise& exercise, const course::GradeResult& r) {
  json out;
  out["exercise"] = exercise.id;
  out["lesson"] = exercise.lesson;
  out["submission"] = r.submission;
  out["seed"] = r.seed;
  out["sandbox"] = r.sandbox;
  out["status"] = to_string(r.status);
  out["passed"] = r.passed();
  if (!r.message.empty()) out["message"] = r.message;
  if (!r.details.empty()) out["details"] = r.details;
  out["cases_passed"] = r.cases_passed();
  out["cases_failed"] = r.cases_failed();
  out["cases_incomplete"] = r.cases_incomplete();
  out["cases_total"] = r.cases.size();
  out["score"] = r.score();
  out["budget_seconds"] = r.budget_seconds;
  json cases = json::array();
  for (const course::CaseResult& c : r.cases) {
    json entry = {{"name", c.name},
                  {"summary", c.summary},
                  {"random", c.random},
                  {"launch", c.launch},
                  {"outcome", to_string(c.outcome)},
                  {"passed", c.passed()},
                  {"runs", c.runs},
                  {"seconds", c.seconds}};
    if (!c.gpu.empty()) entry["gpu"] = c.gpu;
    if (!c.passed()) {
      entry["schedule"] = c.schedule;
      entry["message"] = c.message;
      entry["headline"] = c.headline;
      if (!c.finding.empty()) entry["finding"] = c.finding;
    }
    cases.push_back(std::move(entry));
  }
  out["cases"] = std::move(cases);
  if (r.failure) {
    const course::FailureDetail& f = *r.failure;
    json failure;
    failure["case"] = r.cases.at(f.case_index).name;
    failure["schedule"] = {
        {"name", f.schedule.name},
        {"policy", f.schedule.policy == ConvergencePolicy::interleaved ? "interleaved" : "maximal"},
        {"seed", f.schedule.seed},
        {"order_seed", f.schedule.order_seed}};
    if (f.first_wrong) {
      failure["first_wrong"] = {{"param", exercise.params.at(f.first_wrong->first).name},
                                {"index", f.first_wrong->second}};
    }
    json table = json::array();
    for (const course::ElementRow& row : f.table) {
      json differs = json::array();
      for (const bool d : row.differs) differs.push_back(d);
      table.push_back({{"kind", row_kind(row.kind)},
                       {"label", row.label},
                       {"param", exercise.params.at(row.arg).name},
                       {"first", row.first},
                       {"values", row.cells},
                       {"differs", std::move(differs)}});
    }
    failure["table"] = std::move(table);
    failure["step_reason"] = f.step_reason;
    if (f.step) {
      failure["step"] = step_view_json(*f.step);
      failure["source_line"] = f.source_line;
    }
    json diagnostics = json::array();
    for (const Diagnostic& d : f.submission.trace.diagnostics) {
      diagnostics.push_back({{"kind", to_string(d.kind)},
                             {"message", d.message},
                             {"lanes", format_mask(d.lanes)},
                             {"block", d.block},
                             {"warp", d.warp},
                             {"line", d.where.line}});
    }
    failure["diagnostics"] = std::move(diagnostics);
    failure["gui"] = gui_command(r);
    out["failure"] = std::move(failure);
  }
  out["seconds"] = r.seconds;
  out["rerun"] = rerun_command(r);
  return out;
}

namespace {

bool not_gradable(const course::GradeResult& r) {
  return r.status == course::GradeStatus::bad_submission ||
         r.status == course::GradeStatus::broken_exercise;
}

// One <testsuite>: a submission's cases (`student` empty: a grading of one file).
void write_junit_suite(std::ostream& out, const course::Exercise& exercise,
                       const course::GradeResult& r, const std::string& student) {
  const bool bad = not_gradable(r);
  const std::size_t tests = bad ? 1 : r.cases.size();
  const std::size_t failures = bad ? 0 : r.cases_failed();
  const std::size_t skipped = bad ? 0 : r.cases_incomplete();
  const std::string suite =
      "warpsim.grade." + exercise.id + (student.empty() ? "" : "." + student);
  out << "  <testsuite name=\"" << xml_escape(suite) << "\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" errors=\"" << (bad ? 1 : 0) << "\" skipped=\""
      << skipped << "\" time=\"" << seconds_text(r.seconds) << "\">\n";
  out << "    <properties>\n";
  if (!student.empty())
    out << "      <property name=\"student\" value=\"" << xml_escape(student) << "\"/>\n";
  out << "      <property name=\"submission\" value=\"" << xml_escape(r.submission) << "\"/>\n"
      << "      <property name=\"seed\" value=\"" << r.seed << "\"/>\n"
      << "      <property name=\"status\" value=\"" << to_string(r.status) << "\"/>\n"
      << "      <property name=\"score\" value=\"" << r.score() << "\"/>\n"
      << "      <property name=\"sandbox\" value=\"" << xml_escape(r.sandbox) << "\"/>\n"
      << "    </properties>\n";
  const std::string classname = xml_escape(suite);
  if (bad) {
    out << "    <testcase classname=\"" << classname << "\" name=\"submission\" time=\"0\">\n"
        << "      <error message=\"" << xml_escape(r.message) << "\">" << xml_escape(r.details)
        << "</error>\n"
        << "    </testcase>\n";
  }
  for (const course::CaseResult& c : r.cases) {
    out << "    <testcase classname=\"" << classname << "\" name=\"" << xml_escape(c.name)
        << "\" time=\"" << seconds_text(c.seconds) << "\"";
    if (c.passed()) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    if (c.incomplete()) {
      out << "      <skipped message=\"" << xml_escape("incomplete: " + c.message) << "\"/>\n";
    } else {
      out << "      <failure message=\"" << xml_escape(c.message) << "\" type=\""
          << to_string(c.outcome) << "\">"
          << xml_escape(c.launch + "; " + c.schedule + "\n" + rerun_command(r)) << "</failure>\n";
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n";
}

}  // namespace

void write_junit(std::ostream& out, const course::Exercise& exercise,
                 const course::GradeResult& r) {
  write_class_junit(out, exercise, {course::StudentGrade{{}, r}});
}

void write_class_junit(std::ostream& out, const course::Exercise& exercise,
                       const std::vector<course::StudentGrade>& grades) {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  for (const course::StudentGrade& g : grades) {
    const bool bad = not_gradable(g.result);
    tests += bad ? 1 : g.result.cases.size();
    failures += bad ? 0 : g.result.cases_failed();
    errors += bad ? 1 : 0;
    skipped += bad ? 0 : g.result.cases_incomplete();
    seconds += g.result.seconds;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"warpsim.grade." << xml_escape(exercise.id) << "\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped
      << "\" time=\"" << seconds_text(seconds) << "\">\n";
  for (const course::StudentGrade& g : grades) {
    write_junit_suite(out, exercise, g.result, g.submission.student);
  }
  out << "</testsuites>\n";
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void write_class_csv(std::ostream& out, const std::vector<course::StudentGrade>& grades) {
  out << "student,file,status,case,outcome,schedule,message,seed\n";
  for (const course::StudentGrade& g : grades) {
    const course::GradeResult& r = g.result;
    const std::string head = csv_field(g.submission.student) + "," +
                             csv_field(g.submission.file.string()) + "," +
                             std::string(to_string(r.status)) + ",";
    if (r.cases.empty()) {
      out << head << ",,"
          << "," << csv_field(r.message) << "," << r.seed << "\n";
      continue;
    }
    for (const course::CaseResult& c : r.cases) {
      out << head << csv_field(c.name) << "," << to_string(c.outcome) << ","
          << csv_field(c.schedule) << "," << csv_field(c.message) << "," << r.seed << "\n";
    }
  }
}

void write_class_scores(std::ostream& out, const std::vector<course::StudentGrade>& grades) {
  out << "student,file,status,passed,failed,incomplete,total,score,seed\n";
  for (const course::StudentGrade& g : grades) {
    const course::GradeResult& r = g.result;
    char score[32];
    std::snprintf(score, sizeof score, "%.4f", r.score());
    out << csv_field(g.submission.student) << "," << csv_field(g.submission.file.string()) << ","
        << to_string(r.status) << "," << r.cases_passed() << "," << r.cases_failed() << ","
        << r.cases_incomplete() << "," << r.cases.size() << "," << score << "," << r.seed << "\n";
  }
}

namespace {

// A Markdown table cell: one line, pipes escaped.
std::string md_cell(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

void write_class_markdown(std::ostream& out, const course::Exercise& exercise,
                          const std::vector<course::StudentGrade>& grades, std::uint64_t seed) {
  std::size_t passed = 0;
  for (const course::StudentGrade& g : grades) passed += g.result.passed() ? 1 : 0;
  out << "# " << exercise.title << " (" << exercise.id << ")\n\n";
  out << "Lesson " << exercise.lesson << ". " << grades.size() << " submissions graded with seed "
      << seed << "; " << passed << " pass every case.\n\n";
  if (!grades.empty() && !grades.front().result.sandbox.empty())
    out << "Sandbox: " << grades.front().result.sandbox << ".\n\n";
  out << "| student | status | cases passed | first failing case | why |\n|---|---|---|---|---|\n";
  for (const course::StudentGrade& g : grades) {
    const course::GradeResult& r = g.result;
    std::string first, why = r.message;
    for (const course::CaseResult& c : r.cases) {
      if (!c.failed()) continue;
      first = c.name;
      why = c.message;
      break;
    }
    out << "| " << md_cell(g.submission.student) << " | " << to_string(r.status) << " | "
        << r.cases_passed() << " / " << r.cases.size() << " | " << md_cell(first) << " | "
        << md_cell(why) << " |\n";
  }
  for (const course::StudentGrade& g : grades) {
    const course::GradeResult& r = g.result;
    out << "\n## " << md_cell(g.submission.student) << "\n\n";
    out << "`" << g.submission.file.string() << "`: " << to_string(r.status);
    if (!r.message.empty()) out << ": " << r.message;
    out << "\n\n";
    if (!r.details.empty())
      out << "```\n" << r.details << (r.details.back() == '\n' ? "" : "\n") << "```\n\n";
    if (r.cases.empty() || r.passed()) continue;
    out << "| case | launch | outcome | schedule | message |\n|---|---|---|---|---|\n";
    for (const course::CaseResult& c : r.cases) {
      out << "| " << md_cell(c.name) << " | " << md_cell(c.launch) << " | " << to_string(c.outcome)
          << " | " << md_cell(c.schedule) << " | " << md_cell(c.message) << " |\n";
    }
    if (r.failure) {
      std::ostringstream table;
      write_table(table, r.failure->table, TextStyle{});
      out << "\nFirst failing case, element by element:\n\n```\n"
          << table.str() << "```\n\n"
          << r.failure->step_reason << "\n";
      if (r.failure->step) {
        std::ostringstream step;
        if (!r.failure->source_line.empty())
          step << r.failure->step->where.line << " |" << r.failure->source_line << "\n";
        print_step(step, *r.failure->step, TextStyle{});
        out << "\n```\n" << step.str() << "```\n";
      }
    }
  }
}

json exercise_json(const course::Exercise& e) {
  std::size_t fixed = 0, random = 0;
  for (const course::CaseSpec& c : e.cases) (c.random ? random : fixed) += c.count;
  json cases = json::array();
  for (const course::CaseSpec& c : e.cases) {
    cases.push_back(
        {{"name", c.name}, {"summary", c.summary}, {"random", c.random}, {"count", c.count}});
  }
  return {{"id", e.id},
          {"title", e.title},
          {"lesson", e.lesson},
          {"summary", e.summary},
          {"kernel", e.kernel},
          {"signature", e.signature},
          {"contract", e.contract},
          {"fixed_cases", fixed},
          {"random_cases", random},
          {"cases", std::move(cases)},
          {"hints", e.hints.size()},
          {"compare", e.comparison == course::Comparison::bits ? "bits" : "values"},
          {"tolerance_ulps", e.tolerance_ulps},
          {"dir", e.dir.string()},
          {"starter", e.starter_file().string()},
          {"statement", e.statement_file().string()}};
}

}  // namespace warpsim::cli
