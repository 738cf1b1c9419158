// What `warpsim grade` prints and writes: a grading (course::GradeResult) as text for people, as
// JSON, as JUnit XML; a class's gradings as CSV (one row per student and case) and Markdown.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "trace_text.hpp"
#include "warpsim/grading.hpp"

namespace warpsim::cli {

// The command that repeats a grading: "warpsim grade warp-sum alice.cu --seed 42"; for an
// incomplete one, with a time budget large enough for every case ("--budget 150").
std::string rerun_command(const course::GradeResult& result);
// The command that opens the GUI on it: "warpsim gui --exercise warp-sum alice.cu --grade",
// which grades again and opens the first failing case at the step the report shows.
std::string gui_command(const course::GradeResult& result);
// The time budget a rerun of `result` needs, from the share of its cases that ran: 0 when every
// case ran.
double rerun_budget(const course::GradeResult& result);

void write_grade_text(std::ostream& out, const course::Exercise& exercise,
                      const course::GradeResult& result, const TextStyle& style);
nlohmann::ordered_json grade_json(const course::Exercise& exercise,
                                  const course::GradeResult& result);
nlohmann::ordered_json step_view_json(const StepView& view);
void write_junit(std::ostream& out, const course::Exercise& exercise,
                 const course::GradeResult& result);
// A class: one testsuite per student, one testcase per case (incomplete ones skipped).
void write_class_junit(std::ostream& out, const course::Exercise& exercise,
                       const std::vector<course::StudentGrade>& grades);

// One row per student and case (the seed in every row).
void write_class_csv(std::ostream& out, const std::vector<course::StudentGrade>& grades);
// One row per student: student, file, status, passed, failed, incomplete, total, score, seed.
void write_class_scores(std::ostream& out, const std::vector<course::StudentGrade>& grades);
void write_class_markdown(std::ostream& out, const course::Exercise& exercise,
                          const std::vector<course::StudentGrade>& grades, std::uint64_t seed);

// `warpsim exercises`: one entry per exercise.
nlohmann::ordered_json exercise_json(const course::Exercise& exercise);

// Text for CSV, XML and Markdown cells.
std::string csv_field(const std::string& text);

}  // namespace warpsim::cli
