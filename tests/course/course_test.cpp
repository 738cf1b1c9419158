// The course layer: lessons load as typed data, anchor their text to source lines and passes,
// answer questions from the trace, and verify against their references (and recorded GPU runs).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "support/kernel_cache.hpp"
#include "warpsim/course.hpp"

namespace fs = std::filesystem;
using namespace warpsim;
using namespace warpsim::course;

namespace {

const fs::path kLessons = fs::path(WARPSIM_SOURCE_DIR) / "lessons";

// A lesson folder in the build tree, from a JSON text and a kernel.
fs::path scratch_lesson(const std::string& name, const std::string& json, const std::string& kernel) {
  const fs::path dir = fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / name;
  fs::create_directories(dir);
  std::ofstream(dir / "lesson.json") << json;
  std::ofstream(dir / "kernel.cu") << kernel;
  return dir;
}

const char* kKernel =
    "__global__ void k(const int* in, int* out) {\n"
    "  int v = in[threadIdx.x];\n"
    "  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);  // step: add\n"
    "  out[threadIdx.x] = v;\n"
    "}\n";

std::string lesson_json(const std::string& notes, const std::string& questions) {
  return R"({"title":"t","summary":"s","kernel":"k","grid":"1","block":"32",
             "args":["i32[32]:iota","i32[32]:zeros"],"check":[1],"reference":{"kernel":"r"},
             "intro":["i"],"outro":["o"],"notes":)" +
         notes + R"(,"questions":)" + questions + "}";
}

const std::string kTwoQuestions =
    R"([{"site":"step: add","pass":1,"lanes":[0,17],"prompt":"p"},
        {"site":"step: add","pass":5,"lanes":[3],"value":"source","prompt":"q"}])";

}  // namespace

TEST_CASE("every lesson in lessons/ loads, with at least two questions and a default preset") {
  const Catalogue catalogue = load_catalogue(kLessons);
  for (const Error& problem : catalogue.problems) FAIL_CHECK(problem.message);
  CHECK(catalogue.lessons.size() >= 12);
  for (const Lesson& lesson : catalogue.lessons) {
    CAPTURE(lesson.id);
    CHECK(lesson.presets.front().name == "default");
    CHECK(lesson.questions.size() >= 2);
    CHECK_FALSE(lesson.notes.empty());
    CHECK_FALSE(lesson.ops.empty());
  }
  REQUIRE(find_lesson(catalogue, "butterfly-reduction") != nullptr);
  CHECK(find_lesson(catalogue, "04-butterfly-reduction") == find_lesson(catalogue, "4"));
  CHECK(find_lesson(catalogue, "nonexistent") == nullptr);
}

TEST_CASE("notes anchor to a line and a pass; questions' answers come from the trace") {
  warpsim::test::use_test_kernel_cache();
  const fs::path dir = scratch_lesson(
      "anchors",
      lesson_json(R"([{"site":"step: add","pass":1,"text":"first"},{"site":"step: add","text":"other"}])",
                  kTwoQuestions),
      kKernel);
  auto lesson = load_lesson(dir);
  REQUIRE_MESSAGE(lesson, (lesson ? "" : lesson.error().message));
  CHECK(lesson->notes[0].line == 3);
  CHECK(lesson->ops == std::vector<std::string>{"__shfl_xor_sync"});
  const LessonRun run = run_lesson(*lesson, lesson->presets[0]);
  REQUIRE(run.result.status == runner::RunStatus::completed);
  REQUIRE(run.narrative.size() == 5);
  CHECK(run.narrative[0].note->text == "first");
  for (std::size_t i = 1; i < 5; ++i) CHECK(run.narrative[i].note->text == "other");
  REQUIRE(run.narrative[0].questions.size() == 1);
  REQUIRE(run.narrative[4].questions.size() == 1);

  const auto first = answers(run, lesson->questions[0]);
  REQUIRE(first);
  REQUIRE(first->size() == 2);
  CHECK((*first)[0].lane == 0);
  CHECK((*first)[0].text == "16");  // lane 0 receives lane 16's 16 in the first round
  CHECK((*first)[1].text == "1");   // lane 17 receives lane 1's 1
  CHECK(is_correct((*first)[0], "16"));
  CHECK(is_correct((*first)[0], " 16.0 "));
  CHECK(is_correct((*first)[0], "0x10"));
  CHECK_FALSE(is_correct((*first)[0], "17"));
  CHECK_FALSE(is_correct((*first)[0], "sixteen"));
  const auto last = answers(run, lesson->questions[1]);
  REQUIRE(last);
  CHECK((*last)[0].text == "2");  // lane 3 reads lane 3 ^ 1 in the fifth round
}

TEST_CASE("a lesson whose text names no line, or several, or asks too little is refused") {
  struct Row {
    const char* what;
    std::string notes, questions;
    const char* reason;
  };
  const Row rows[] = {
      {"no such line", R"([{"site":"nowhere","text":"x"}])", kTwoQuestions, "occurs on 0 lines"},
      {"several lines", R"([{"site":"threadIdx.x","text":"x"}])", kTwoQuestions, "occurs on 2 lines"},
      {"one question", R"([])", R"([{"site":"step: add","lanes":[0],"prompt":"p"}])", "at least two"},
      {"lane 32", R"([])",
       R"([{"site":"step: add","lanes":[32],"prompt":"p"},{"site":"step: add","lanes":[1],"prompt":"p"}])",
       "lanes are 0 to 31"},
      {"pass 0", R"([{"site":"step: add","pass":0,"text":"x"}])", kTwoQuestions, "positive integer"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    const fs::path dir = scratch_lesson("refused", lesson_json(row.notes, row.questions), kKernel);
    const auto lesson = load_lesson(dir);
    REQUIRE_FALSE(lesson);
    CHECK(lesson.error().message.find(row.reason) != std::string::npos);
    CHECK(lesson.error().message.find("lesson.json") != std::string::npos);
  }
  std::ofstream(fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "refused" / "lesson.json") << "{";
  CHECK_FALSE(load_lesson(fs::path(WARPSIM_BINARY_DIR) / "tests" / "course" / "refused"));
  CHECK(load_lesson("/nonexistent").error().kind == ErrorKind::file);
}

TEST_CASE("verification catches a note past the last step, a wrong reference and a GPU difference") {
  warpsim::test::use_test_kernel_cache();
  const fs::path dir = scratch_lesson(
      "verify", lesson_json(R"([{"site":"step: add","pass":6,"text":"there is no sixth"}])", kTwoQuestions),
      kKernel);
  std::ofstream(dir / "reference.cu")
      << "__global__ void r(const int* in, int* out) {\n"
         "  int sum = 0;\n"
         "  for (int i = 0; i < 32; ++i) sum += in[i];\n"
         "  for (int i = 0; i < 32; ++i) out[i] = sum + (i == 7);  // wrong at lane 7\n"
         "}\n";
  auto lesson = load_lesson(dir);
  REQUIRE(lesson);
  const LessonCheck check = verify_lesson(*lesson, lesson->presets[0], nullptr);
  CHECK_FALSE(check.passed());
  CHECK(check.status == runner::RunStatus::completed);
  REQUIRE(check.text_problems.size() == 1);
  CHECK(check.text_problems[0].find("pass 6") != std::string::npos);
  CHECK(check.reference_problem.find("first at [7]: kernel 496, reference 497") != std::string::npos);
  CHECK(check.gpu_note == "no GPU run to compare with");

  // A recorded GPU run that differs in one element, saved and loaded like a lesson's gpu/ file.
  const LessonRun run = run_lesson(*lesson, lesson->presets[0]);
  GpuRun gpu;
  gpu.device.name = "Test GPU";
  for (const runner::OutputBuffer& b : run.result.buffers) {
    gpu.buffers.push_back({b.arg, ValueType::i32, b.bytes});
  }
  gpu.buffers[1].bytes[0] = std::byte{7};
  REQUIRE(save_gpu_record(*lesson, lesson->presets[0], gpu));
  const auto loaded = load_gpu_record(*lesson, lesson->presets[0]);
  REQUIRE(loaded);
  CHECK(*loaded == gpu);
  const LessonCheck against_gpu = verify_lesson(*lesson, lesson->presets[0], &*loaded);
  REQUIRE(against_gpu.gpu);
  CHECK_FALSE(against_gpu.gpu->matches());
  CHECK(against_gpu.gpu->buffers[1].first_index == 0);
}

TEST_CASE("predict mode hides the asked lanes' inputs, any lane showing the same value, and a whole "
          "row of predicates") {
  Question asked_input;
  asked_input.lanes = {7};
  asked_input.value = AskedValue::input;
  Question asked_output;
  asked_output.lanes = {3};
  StepRow in;
  in.kind = RowKind::input;
  for (int lane = 0; lane < kWarpSize; ++lane)
    in.cells[static_cast<std::size_t>(lane)].text = std::to_string(100 + lane);
  SUBCASE("an output question leaves the inputs shown and hides the outputs") {
    CHECK(hidden_lanes(in, {&asked_output}) == 0);
    StepRow out = in;
    out.kind = RowKind::output;
    CHECK(hidden_lanes(out, {&asked_output}) == ~LaneMask{0});
  }
  SUBCASE("distinct inputs: only the asked lane") {
    CHECK(hidden_lanes(in, {&asked_input}) == lane_bit(7));
  }
  SUBCASE("a reduction's lanes 0-15 all hold lane 7's sum: all of them") {
    for (int lane = 0; lane < kWarpSize; ++lane)
      in.cells[static_cast<std::size_t>(lane)].text = lane < 16 ? "120" : "376";
    CHECK(hidden_lanes(in, {&asked_input}) == 0x0000FFFFu);
  }
  SUBCASE("predicates (0s and 1s): the whole row, as the others would leave one value") {
    for (int lane = 0; lane < kWarpSize; ++lane)
      in.cells[static_cast<std::size_t>(lane)].text = lane % 3 == 0 ? "1" : "0";
    CHECK(hidden_lanes(in, {&asked_input}) == ~LaneMask{0});
  }
}
