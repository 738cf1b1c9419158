// End to end: `warpsim grade` and `warpsim exercises` on the lessons' exercises: exit statuses,
// --json, --junit, --seed, a class folder into CSV and Markdown, hints.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_warpsim.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kSource = WARPSIM_SOURCE_DIR;
const fs::path kScratch = fs::path(WARPSIM_BINARY_DIR) / "tests" / "cli" / "grade";

fs::path exercise_dir(const std::string& lesson, const std::string& id) {
  return kSource / "lessons" / lesson / "exercises" / id;
}

using Outcome = warpsim::test::ProcessOutcome;

Outcome grade(const std::vector<std::string>& args) {
  std::vector<std::string> argv{WARPSIM_CLI_PATH};
  argv.insert(argv.end(), args.begin(), args.end());
  // A kernel cache that outlives the test, as the course suites keep theirs.
  return warpsim::test::run_process(
      argv, kScratch,
      {"WARPSIM_LESSONS_DIR=" + (kSource / "lessons").string(),
       "WARPSIM_CACHE_DIR=" +
           (fs::path(WARPSIM_BINARY_DIR) / "tests" / "cli" / "grade-cache").string()});
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

json parse(const Outcome& o) {
  INFO("stdout: " << o.out);
  INFO("stderr: " << o.err);
  json j;
  REQUIRE_NOTHROW(j = json::parse(o.out));
  return j;
}

// Drops what differs between two gradings of the same thing: the time they took.
void drop_seconds(json& j) {
  if (j.is_object()) {
    j.erase("seconds");
    for (auto& [key, value] : j.items()) drop_seconds(value);
  } else if (j.is_array()) {
    for (json& value : j) drop_seconds(value);
  }
}

// Whether `xml` is well formed as far as JUnit readers care: one prologue, tags that nest and
// close, attribute values quoted, no bare '<' or '&' in text.
bool well_formed(const std::string& xml, std::string& why) {
  std::vector<std::string> open;
  std::size_t i = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const std::size_t end = xml.find(';', i);
      const std::string entity = xml.substr(i, end == std::string::npos ? 1 : end - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" &&
          entity != "&apos;") {
        why = "bare & at " + std::to_string(i);
        return false;
      }
      i = end + 1;
      continue;
    }
    if (xml[i] != '<') {
      if (xml[i] == '>') {
        why = "bare > at " + std::to_string(i);
        return false;
      }
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    bool quoted = false;
    while (end < xml.size() && (quoted || xml[end] != '>')) {
      if (xml[end] == '"') quoted = !quoted;
      if (quoted && (xml[end] == '<')) {
        why = "< inside an attribute at " + std::to_string(end);
        return false;
      }
      ++end;
    }
    if (end >= xml.size()) {
      why = "unclosed tag at " + std::to_string(i);
      return false;
    }
    const std::string tag = xml.substr(i + 1, end - i - 1);
    if (tag.starts_with("/")) {
      const std::string name = tag.substr(1);
      if (open.empty() || open.back() != name) {
        why = "</" + name + "> closes " + (open.empty() ? "nothing" : open.back());
        return false;
      }
      open.pop_back();
    } else if (!tag.ends_with("/")) {
      open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
    }
    i = end + 1;
  }
  if (!open.empty()) {
    why = "<" + open.back() + "> never closed";
    return false;
  }
  return true;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("warpsim grade exits 0 when every case passes, 1 when one fails, 2 for bad input") {
  const fs::path scan = exercise_dir("07-scan", "inclusive-scan");
  const Outcome right =
      grade({"grade", "inclusive-scan", (scan / "solution.cu").string(), "--seed", "3"});
  CHECK_MESSAGE(right.exit_code == 0, right.out << right.err);
  CHECK(contains(right.out, "cases pass: PASSED"));

  const Outcome wrong = grade(
      {"grade", "inclusive-scan", (scan / "wrong" / "off-by-one.cu").string(), "--seed", "3"});
  CHECK_MESSAGE(wrong.exit_code == 1, wrong.out << wrong.err);
  CHECK(contains(wrong.out, "FAIL  one-warp"));
  CHECK(contains(wrong.out, "out[1] is"));
  CHECK(contains(wrong.out, "The first failing case: one-warp"));
  CHECK(contains(wrong.out, "__shfl_up_sync"));
  CHECK(contains(wrong.out, "expected"));
  CHECK(contains(wrong.out, "Rerun: warpsim grade inclusive-scan"));
  CHECK(contains(wrong.out, "Step through it lane by lane: warpsim gui --exercise inclusive-scan " +
                                (scan / "wrong" / "off-by-one.cu").string() + " --grade"));
  CHECK(!contains(right.out, "Step through it"));

  const Outcome unknown = grade({"grade", "no-such-exercise", (scan / "solution.cu").string()});
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.err, "no exercise 'no-such-exercise'"));
  CHECK(contains(unknown.err, "warp-sum"));  // it lists the exercises there are

  const Outcome missing = grade({"grade", "inclusive-scan", (kScratch / "missing.cu").string()});
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.err, "no file"));

  fs::create_directories(kScratch);
  std::ofstream(kScratch / "broken.cu")
      << "__global__ void inclusive_scan(const int* in, int* out) {\n  int x = ;\n}\n";
  const Outcome broken = grade({"grade", "inclusive-scan", (kScratch / "broken.cu").string()});
  CHECK(broken.exit_code == 2);
  CHECK(contains(broken.out, "did not compile"));
  CHECK(contains(broken.out, "broken.cu:2"));
}

TEST_CASE(
    "warpsim grade --json describes every case and the first failure; --junit writes well-formed "
    "JUnit XML; an exercise given as a folder is rerun as one") {
  const fs::path scan = exercise_dir("07-scan", "inclusive-scan");
  const fs::path xml_path = kScratch / "scan.xml";
  fs::remove(xml_path);
  const Outcome o =
      grade({"grade", scan.string(), (scan / "wrong" / "thread-index-as-lane.cu").string(),
             "--seed", "11", "--json", "--junit", xml_path.string()});
  CHECK(o.exit_code == 1);
  const json j = parse(o);
  CHECK(j["exercise"] == "inclusive-scan");
  CHECK(j["seed"] == 11);
  CHECK(j["status"] == "failed");
  CHECK(j["passed"] == false);
  REQUIRE(j["cases"].is_array());
  CHECK(j["cases_total"] == j["cases"].size());
  CHECK(j["cases"][0]["passed"] == true);  // one warp: threadIdx.x is the lane
  const json& failure = j["failure"];
  CHECK(failure["case"] == "several-warps");
  CHECK(failure["first_wrong"]["param"] == "out");
  CHECK(failure["first_wrong"]["index"] == 32);
  REQUIRE(failure["table"].size() == 3);
  CHECK(failure["table"][0]["kind"] == "input");
  CHECK(failure["table"][0]["first"] == 32);
  CHECK(failure["table"][2]["differs"][0] == true);
  REQUIRE(failure.contains("step"));
  CHECK(failure["step"]["name"] == "__shfl_up_sync");
  CHECK(failure["step"]["warp"] == 1);
  CHECK(failure["step"]["lanes"].size() == 32);
  CHECK(contains(failure["source_line"].get<std::string>(), "__shfl_up_sync"));
  CHECK(contains(j["rerun"].get<std::string>(), "--seed 11"));
  // Given as a folder, the exercise is rerun as a folder: the command works as typed.
  CHECK(j["rerun"].get<std::string>().starts_with("warpsim grade " + scan.string() + " "));
  CHECK(failure["gui"] == "warpsim gui --exercise " + scan.string() + " " +
                              (scan / "wrong" / "thread-index-as-lane.cu").string() + " --grade");

  const std::string xml = warpsim::test::read_text(xml_path);
  std::string why;
  CHECK_MESSAGE(well_formed(xml, why), why << "\n" << xml);
  CHECK(count(xml, "<testcase ") == j["cases"].size());
  CHECK(count(xml, "<failure ") == j["cases"].size() - j["cases_passed"].get<std::size_t>());
  CHECK(contains(xml, "name=\"several-warps\""));
  CHECK(contains(xml, "failures=\"" + std::to_string(count(xml, "<failure ")) + "\""));

  // A submission that does not compile is one JUnit error, and exit 2.
  std::ofstream(kScratch / "broken.cu")
      << "__global__ void inclusive_scan(const int* in, int* out) { int x = ; }\n";
  const Outcome broken = grade({"grade", "inclusive-scan", (kScratch / "broken.cu").string(),
                                "--json", "--junit", xml_path.string()});
  CHECK(broken.exit_code == 2);
  CHECK(parse(broken)["status"] == "bad_submission");
  const std::string error_xml = warpsim::test::read_text(xml_path);
  CHECK_MESSAGE(well_formed(error_xml, why), why);
  CHECK(count(error_xml, "<error ") == 1);
}

TEST_CASE("an output file that cannot be written is refused before anything is graded") {
  const fs::path scan = exercise_dir("07-scan", "inclusive-scan");
  const std::string solution = (scan / "solution.cu").string();
  const Outcome folder = grade({"grade", "inclusive-scan", solution, "--junit", kScratch.string()});
  CHECK(folder.exit_code == 2);
  CHECK(contains(folder.err, "--junit: " + kScratch.string() + " is a folder: give a file"));
  CHECK_FALSE(contains(folder.out, "cases pass"));  // refused before grading
  const std::string missing = (kScratch / "no-such-folder" / "grades.csv").string();
  const Outcome nowhere = grade({"grade", "inclusive-scan", kScratch.string(), "--csv", missing});
  CHECK(nowhere.exit_code == 2);
  CHECK(contains(nowhere.err, "--csv: no folder "));
}

TEST_CASE("warpsim grade --seed reproduces a grading; without it, the exercise's own fixed seed") {
  const fs::path argmax = exercise_dir("06-argmax-ballot", "argmax");
  const std::string file = (argmax / "wrong" / "highest-lane-on-ties.cu").string();
  json a = parse(grade({"grade", "argmax", file, "--seed", "5", "--json"}));
  json b = parse(grade({"grade", "argmax", file, "--seed", "5", "--json"}));
  drop_seconds(a);
  drop_seconds(b);
  CHECK(a == b);
  json c = parse(grade({"grade", "argmax", file, "--seed", "6", "--json"}));
  drop_seconds(c);
  CHECK(a["cases"] != c["cases"]);  // the random cases differ

  // No --seed: the same seed every time, so partial scores do not move between gradings.
  json d = parse(grade({"grade", "argmax", file, "--json"}));
  json e = parse(grade({"grade", "argmax", file, "--json"}));
  const std::uint64_t seed = d["seed"];
  CHECK(e["seed"] == seed);
  json f = parse(grade({"grade", "argmax", file, "--seed", std::to_string(seed), "--json"}));
  drop_seconds(d);
  drop_seconds(e);
  drop_seconds(f);
  CHECK(d == e);
  CHECK(d == f);
}

TEST_CASE(
    "warpsim grade: a case the time budget left unrun is incomplete, never failed: its own status, "
    "exit status 3 and a rerun hint") {
  const fs::path sum = exercise_dir("04-butterfly-reduction", "warp-sum");
  const std::string file = (sum / "solution.cu").string();
  const fs::path xml_path = kScratch / "incomplete.xml";
  // The budget is spent once the first case has run (its compile alone takes longer).
  const Outcome text = grade({"grade", "warp-sum", file, "--seed", "4", "--budget", "0.01"});
  CHECK_MESSAGE(text.exit_code == 3, text.out << text.err);
  CHECK(contains(text.out, "ok    one-warp"));
  CHECK(contains(text.out, "skip  several-warps"));
  CHECK_FALSE(contains(text.out, "FAIL"));
  CHECK(contains(text.out, ": INCOMPLETE"));
  CHECK(contains(text.out, "not run (incomplete, not failed)"));
  CHECK(contains(text.out, "Rerun with a larger budget: warpsim grade warp-sum " + file +
                               " --seed 4 --budget "));

  const Outcome o = grade({"grade", "warp-sum", file, "--seed", "4", "--budget", "0.01", "--json",
                           "--junit", xml_path.string()});
  CHECK(o.exit_code == 3);
  const json j = parse(o);
  CHECK(j["status"] == "incomplete");
  CHECK(j["seed"] == 4);
  CHECK(j["cases_failed"] == 0);
  CHECK(j["cases_passed"] == 1);
  CHECK(j["cases_incomplete"] == j["cases_total"].get<int>() - 1);
  CHECK(j["cases"][1]["outcome"] == "incomplete");
  CHECK(j["cases"][1]["passed"] == false);
  CHECK(contains(j["rerun"].get<std::string>(), "--budget "));
  const std::string xml = warpsim::test::read_text(xml_path);
  std::string why;
  CHECK_MESSAGE(well_formed(xml, why), why);
  CHECK(count(xml, "<failure ") == 0);
  CHECK(count(xml, "<skipped ") == j["cases_incomplete"].get<std::size_t>());
  CHECK(contains(xml, "<property name=\"seed\" value=\"4\"/>"));
}

TEST_CASE(
    "warpsim grade DIR grades a class into CSV and Markdown; a crash or a compile error costs only "
    "its own row") {
  const fs::path sum = exercise_dir("04-butterfly-reduction", "warp-sum");
  const fs::path dir = kScratch / "class";
  fs::remove_all(dir);
  fs::create_directories(dir / "dee");
  fs::copy_file(sum / "solution.cu", dir / "ada.cu");
  std::ofstream(dir / "bea.cu")
      << "__global__ void warp_sum(const float* in, float* out, int n) {\n"
         "  float* p = nullptr;\n  p[threadIdx.x] = in[0];\n}\n";
  std::ofstream(dir / "cal.cu")
      << "__global__ void warp_sum(const float* in, float* out, int n) { oops }\n";
  std::ofstream(dir / "dee" / "warp_sum.cu")
      << "__global__ void warp_sum(const float* in, float* out, int n) {\n"
         "  volatile int spin = 1;\n  while (spin) {}\n}\n";
  fs::copy_file(sum / "wrong" / "block-local-warp.cu", dir / "eve.cu");
  const fs::path csv = kScratch / "class.csv", md = kScratch / "class.md";
  const fs::path xml = kScratch / "class.xml", scores = kScratch / "class-scores.csv";
  fs::remove(xml);
  fs::remove(scores);
  const Outcome o = grade({"grade", "warp-sum", dir.string(), "--csv", csv.string(), "--report",
                           md.string(), "--seed", "2", "--time-limit", "1", "--junit",
                           xml.string()});
  CHECK_MESSAGE(o.exit_code == 0, o.out << o.err);
  CHECK(contains(o.out, "ok    ada"));
  CHECK(contains(o.out, "FAIL  bea"));
  CHECK(contains(o.out, "ERROR cal"));
  CHECK(contains(o.out, "FAIL  dee"));
  CHECK(contains(o.out, "FAIL  eve"));
  CHECK(contains(o.out, "1 of 5 submissions pass"));

  const std::string text = warpsim::test::read_text(csv);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  REQUIRE(!lines.empty());
  CHECK(lines[0] == "student,file,status,case,outcome,schedule,message,seed");
  for (std::size_t k = 1; k < lines.size(); ++k) CHECK(lines[k].ends_with(",2"));  // the seed
  std::size_t ada = 0, bea = 0, cal = 0, dee = 0, eve = 0;
  for (const std::string& line : lines) {
    ada += line.rfind("ada,", 0) == 0 ? 1 : 0;
    bea += line.rfind("bea,", 0) == 0 ? 1 : 0;
    cal += line.rfind("cal,", 0) == 0 ? 1 : 0;
    dee += line.rfind("dee,", 0) == 0 ? 1 : 0;
    eve += line.rfind("eve,", 0) == 0 ? 1 : 0;
  }
  CHECK(ada == 12);  // one row per case
  CHECK(bea == 12);
  CHECK(cal == 1);  // did not compile: one row
  CHECK(dee == 12);
  CHECK(eve == 12);
  CHECK(contains(text, "ada,"));
  CHECK(contains(text, ",passed,one-warp,passed,,"));
  CHECK(contains(text, "bea," + (dir / "bea.cu").string() + ",failed,one-warp,stopped,in order,"));
  CHECK(contains(text, "null pointer"));
  CHECK(contains(text, "cal," + (dir / "cal.cu").string() + ",bad_submission,,,,"));
  // 1 s, or 4 s where the first run starved on a busy machine (retried four times longer).
  CHECK(contains(text, "did not finish within "));
  CHECK(contains(text, ",incomplete,"));  // dee: the cases after the one that hung
  // eve's blocks all write out[0]: the checked rerun names that race first, in the sandbox too.
  CHECK(contains(text, "eve," + (dir / "eve.cu").string() +
                           ",failed,several-blocks,wrong_output,in order,\"the memory checks found "
                           "the bug: data race on element 0 of the buffer of --arg 2"));
  CHECK(contains(text, "What it did: out[0] is"));

  // Beside the per-case CSV, one row per student.
  const std::string score_text = warpsim::test::read_text(scores);
  CHECK(contains(score_text, "student,file,status,passed,failed,incomplete,total,score,seed\n"));
  CHECK(contains(score_text, "ada," + (dir / "ada.cu").string() + ",passed,12,0,0,12,1.0000,2\n"));
  CHECK(contains(score_text, "cal," + (dir / "cal.cu").string() + ",bad_submission,0,0,0,0,"));
  CHECK(contains(score_text, "dee," + (dir / "dee" / "warp_sum.cu").string() + ",failed,0,1,11,12,"));

  // JUnit: one testsuite per student, one testcase per case.
  const std::string junit = warpsim::test::read_text(xml);
  std::string why;
  CHECK_MESSAGE(well_formed(junit, why), why);
  CHECK(count(junit, "<testsuite ") == 5);
  CHECK(contains(junit, "name=\"warpsim.grade.warp-sum.ada\" tests=\"12\" failures=\"0\""));
  CHECK(count(junit, "<testcase ") == 4 * 12 + 1);  // cal: one error
  CHECK(count(junit, "<error ") == 1);
  CHECK(count(junit, "<property name=\"seed\" value=\"2\"/>") == 5);

  const std::string report = warpsim::test::read_text(md);
  CHECK(contains(report, "# Warp sum (warp-sum)"));
  CHECK(contains(report, "5 submissions graded with seed 2; 1 pass every case"));
  CHECK(contains(report, "| cal | bad_submission |"));
  CHECK(contains(report, "## eve"));
  // eve's blocks race on out[0]: her case opens on the last step before the racing write.
  CHECK(contains(report, "the last step recorded before the access the memory checks named first"));

  const Outcome nothing = grade({"grade", "warp-sum", (kScratch / "empty-class").string()});
  CHECK(nothing.exit_code == 2);
  fs::create_directories(kScratch / "empty-class");
  const Outcome empty = grade({"grade", "warp-sum", (kScratch / "empty-class").string()});
  CHECK(empty.exit_code == 2);
  CHECK(contains(empty.err, "no submissions"));
}

TEST_CASE(
    "warpsim grade --hint N unlocks hints one at a time; warpsim exercises lists and shows them") {
  const Outcome one = grade({"grade", "warp-sum", "--hint", "1"});
  CHECK(one.exit_code == 0);
  CHECK(contains(one.out, "Hint 1 of 4"));
  CHECK_FALSE(contains(one.out, "Hint 2 of 4"));
  CHECK(contains(one.out, "--hint 2 unlocks the next"));
  const Outcome two = grade({"grade", "warp-sum", "--hint", "2"});
  CHECK(contains(two.out, "Hint 2 of 4"));
  const Outcome all = grade({"grade", "warp-sum", "--hint", "9"});
  CHECK(contains(all.out, "Hint 4 of 4"));
  CHECK(contains(all.out, "that is every hint"));

  const Outcome list = grade({"exercises", "--json"});
  CHECK(list.exit_code == 0);
  const json j = parse(list);
  CHECK(j.size() >= 14);
  bool found = false;
  for (const json& e : j) {
    if (e["id"] != "ballot-compact") continue;
    found = true;
    CHECK(e["lesson"] == "08-ballot-compaction");
    CHECK(e["signature"] ==
          "__global__ void ballot_compact(const int* in, int* out, int* count, int n)");
    CHECK(e["fixed_cases"].get<int>() >= 5);
  }
  CHECK(found);
  const Outcome text = grade({"exercises"});
  CHECK(contains(text.out, "mask-repair"));
  const Outcome statement = grade({"exercises", "mask-repair"});
  CHECK(statement.exit_code == 0);
  CHECK(contains(statement.out, "# Repair the masks of a tail sum"));
  CHECK(contains(statement.out, "starter.cu"));
}
