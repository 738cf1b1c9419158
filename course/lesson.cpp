// lesson.json into a Lesson, checked field by field; a folder of lessons into a Catalogue.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "json_problem.hpp"
#include "warpsim/course.hpp"
#include "warpsim/intrinsic_table.hpp"

namespace warpsim::course {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A problem with the lesson's text; caught at the top and turned into one Error.
struct Invalid {
  std::string reason;
};

const json& field(const json& object, const char* name, const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end()) throw Invalid{where + "missing \"" + name + "\""};
  return *it;
}

std::string text_field(const json& object, const char* name, const std::string& where) {
  const json& value = field(object, name, where);
  if (!value.is_string()) throw Invalid{where + "\"" + name + "\" must be a string"};
  return value.get<std::string>();
}

std::vector<std::string> paragraphs(const json& object, const char* name, const std::string& where) {
  const json& value = field(object, name, where);
  if (value.is_string()) return {value.get<std::string>()};
  if (!value.is_array()) throw Invalid{where + "\"" + name + "\" must be a list of paragraphs"};
  std::vector<std::string> out;
  for (const json& p : value) {
    if (!p.is_string()) throw Invalid{where + "\"" + name + "\" must hold strings"};
    out.push_back(p.get<std::string>());
  }
  return out;
}

Dim3 dims(const json& object, const char* name, const std::string& where) {
  auto parsed = runner::parse_dim3(text_field(object, name, where));
  if (!parsed) throw Invalid{where + "\"" + name + "\": " + parsed.error().message};
  return *parsed;
}

std::vector<runner::ArgSpec> arg_specs(const json& list, const std::string& where,
                                       std::vector<std::string>& texts) {
  if (!list.is_array()) throw Invalid{where + "\"args\" must be a list of --arg specs"};
  std::vector<runner::ArgSpec> specs;
  texts.clear();
  for (const json& a : list) {
    if (!a.is_string()) throw Invalid{where + "\"args\" must hold strings"};
    auto spec = runner::parse_arg_spec(a.get<std::string>());
    if (!spec) {
      throw Invalid{where + "--arg " + std::to_string(specs.size() + 1) + " '" +
                    a.get<std::string>() + "': " + spec.error().message};
    }
    specs.push_back(std::move(*spec));
    texts.push_back(a.get<std::string>());
  }
  return specs;
}

std::vector<DiagnosticKind> diagnostic_kinds(const json& list, const std::string& where) {
  std::vector<DiagnosticKind> kinds;
  if (!list.is_array()) throw Invalid{where + "\"diagnostics\" must be a list of kinds"};
  for (const json& k : list) {
    const auto kind = k.is_string() ? diagnostic_kind_from_string(k.get<std::string>()) : std::nullopt;
    if (!kind) throw Invalid{where + "unknown diagnostic kind " + k.dump()};
    kinds.push_back(*kind);
  }
  return kinds;
}

// The one line of `source` that contains `site`.
std::uint32_t site_line(const std::string& source, const std::string& site, const std::string& where) {
  if (site.empty()) throw Invalid{where + "\"site\" is empty"};
  std::uint32_t line = 1, found = 0, matches = 0;
  std::size_t start = 0;
  while (start <= source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    if (std::string_view(source).substr(start, end - start).find(site) != std::string_view::npos) {
      found = line;
      ++matches;
    }
    start = end + 1;
    ++line;
  }
  if (matches != 1) {
    throw Invalid{where + "site \"" + site + "\" occurs on " + std::to_string(matches) +
                  " lines of kernel.cu; it must name exactly one"};
  }
  return found;
}

std::optional<std::uint32_t> pass_of(const json& object, const std::string& where) {
  const auto it = object.find("pass");
  if (it == object.end()) return std::nullopt;
  if (!it->is_number_unsigned() || it->get<std::uint32_t>() == 0) {
    throw Invalid{where + "\"pass\" must be a positive integer"};
  }
  return it->get<std::uint32_t>();
}

// The intrinsics kernel.cu calls, by their CUDA names, in the table's order.
std::vector<std::string> intrinsics_called(const std::string& source) {
  std::vector<std::string> ops;
  for (const IntrinsicInfo& info : intrinsic_table()) {
    if (!info.op) continue;
    const std::string call = std::string(info.name) + "(";
    if (source.find(call) != std::string::npos) ops.emplace_back(info.name);
  }
  return ops;
}

// "gpu": {"skip": "why"} keeps a launch off GPUs (it would hang one); "gpu": {} lets a preset
// of such a lesson run there after all.
std::optional<std::string> gpu_skip(const json& gpu, const std::string& where) {
  if (!gpu.is_object()) throw Invalid{where + "\"gpu\" must be an object"};
  if (!gpu.contains("skip")) return std::nullopt;
  return text_field(gpu, "skip", where + "gpu: ");
}

Preset preset_from(const json& p, const Preset& base, const std::string& where) {
  Preset preset = base;
  preset.name = text_field(p, "name", where);
  preset.summary = p.contains("summary") ? text_field(p, "summary", where) : "";
  const std::string at = where.substr(0, where.size() - 2) + ", preset " + preset.name + ": ";
  if (p.contains("kernel")) preset.launch.kernel = text_field(p, "kernel", at);
  if (p.contains("grid")) preset.launch.grid = dims(p, "grid", at);
  if (p.contains("block")) preset.launch.block = dims(p, "block", at);
  if (p.contains("shared")) preset.launch.shared_bytes = p.at("shared").get<std::size_t>();
  if (p.contains("args")) preset.launch.args = arg_specs(p.at("args"), at, preset.launch.arg_texts);
  if (p.contains("reference")) preset.reference_kernel = text_field(field(p, "reference", at), "kernel", at);
  if (p.contains("diagnostics")) preset.diagnostics = diagnostic_kinds(p.at("diagnostics"), at);
  // Not inherited: a find-the-bug lesson's fixed presets match the reference.
  preset.differs_from_reference = p.value("differs_from_reference", false);
  if (p.contains("gpu")) preset.gpu_skip = gpu_skip(p.at("gpu"), at);
  // Not inherited either: the lesson's own stay its own (intro_of, outro_of).
  preset.intro = p.contains("intro") ? paragraphs(p, "intro", at) : std::vector<std::string>{};
  preset.outro = p.contains("outro") ? paragraphs(p, "outro", at) : std::vector<std::string>{};
  return preset;
}

Lesson lesson_from(const json& j, const fs::path& dir, std::string source) {
  const std::string where = (dir / "lesson.json").string() + ": ";
  if (!j.is_object()) throw Invalid{where + "expected a JSON object"};
  Lesson lesson;
  lesson.dir = dir;
  lesson.id = dir.filename().string();
  const std::size_t dash = lesson.id.find('-');
  lesson.short_id = dash != std::string::npos && dash > 0 &&
                            std::all_of(lesson.id.begin(), lesson.id.begin() + static_cast<long>(dash),
                                        [](char c) { return c >= '0' && c <= '9'; })
                        ? lesson.id.substr(dash + 1)
                        : lesson.id;
  lesson.source = std::move(source);
  lesson.title = text_field(j, "title", where);
  lesson.summary = text_field(j, "summary", where);
  lesson.intro = paragraphs(j, "intro", where);
  lesson.outro = paragraphs(j, "outro", where);

  Preset main;
  main.name = "default";
  main.summary = "the lesson's own inputs";
  main.launch.kernel = text_field(j, "kernel", where);
  main.launch.grid = dims(j, "grid", where);
  main.launch.block = dims(j, "block", where);
  if (j.contains("shared")) main.launch.shared_bytes = j.at("shared").get<std::size_t>();
  main.launch.args = arg_specs(field(j, "args", where), where, main.launch.arg_texts);
  const json& reference = field(j, "reference", where);
  main.reference_kernel = text_field(reference, "kernel", where + "reference: ");
  if (reference.contains("grid")) lesson.reference_grid = dims(reference, "grid", where);
  if (reference.contains("block")) lesson.reference_block = dims(reference, "block", where);
  if (j.contains("diagnostics")) main.diagnostics = diagnostic_kinds(j.at("diagnostics"), where);
  main.differs_from_reference = j.value("differs_from_reference", false);
  if (j.contains("gpu")) main.gpu_skip = gpu_skip(j.at("gpu"), where);
  lesson.presets.push_back(main);
  if (j.contains("presets")) {
    for (const json& p : j.at("presets")) {
      if (!p.is_object()) throw Invalid{where + "every preset must be an object"};
      Preset preset = preset_from(p, main, where);
      if (!p.contains("diagnostics")) preset.diagnostics = main.diagnostics;
      if (lesson.preset(preset.name) != nullptr) {
        throw Invalid{where + "two presets are named \"" + preset.name + "\""};
      }
      lesson.presets.push_back(std::move(preset));
    }
  }

  for (const json& c : field(j, "check", where)) {
    if (!c.is_number_unsigned()) throw Invalid{where + "\"check\" must list argument indices"};
    const auto arg = c.get<std::size_t>();
    if (arg >= main.launch.args.size() || !main.launch.args[arg].is_buffer) {
      throw Invalid{where + "\"check\" names argument " + std::to_string(arg) + ", which is no buffer"};
    }
    lesson.check.push_back(arg);
  }
  if (j.contains("tolerance_ulps")) lesson.tolerance_ulps = j.at("tolerance_ulps").get<std::uint64_t>();
  if (j.contains("focus")) {
    const json& f = j.at("focus");
    lesson.focus = {f.value("block", std::uint64_t{0}), f.value("warp", std::uint32_t{0})};
  }
  for (const json& n : field(j, "notes", where)) {
    const std::string at = where + "note: ";
    Note note;
    note.site = text_field(n, "site", at);
    note.line = site_line(lesson.source, note.site, at);
    note.pass = pass_of(n, at);
    note.text = text_field(n, "text", at);
    lesson.notes.push_back(std::move(note));
  }
  for (const json& q : field(j, "questions", where)) {
    const std::string at = where + "question: ";
    Question question;
    question.site = text_field(q, "site", at);
    question.line = site_line(lesson.source, question.site, at);
    question.pass = pass_of(q, at).value_or(1);
    for (const json& lane : field(q, "lanes", at)) {
      if (!lane.is_number_integer() || lane.get<int>() < 0 || lane.get<int>() >= kWarpSize) {
        throw Invalid{at + "lanes are 0 to 31"};
      }
      question.lanes.push_back(lane.get<int>());
    }
    if (question.lanes.empty()) throw Invalid{at + "asks about no lanes"};
    const std::string value = q.contains("value") ? text_field(q, "value", at) : "output";
    if (value == "output") {
      question.value = AskedValue::output;
    } else if (value == "input") {
      question.value = AskedValue::input;
    } else if (value == "source") {
      question.value = AskedValue::source;
    } else {
      throw Invalid{at + "\"value\" is output, input or source, not \"" + value + "\""};
    }
    question.prompt = text_field(q, "prompt", at);
    lesson.questions.push_back(std::move(question));
  }
  if (lesson.questions.size() < 2) throw Invalid{where + "a lesson asks at least two questions"};
  lesson.ops = intrinsics_called(lesson.source);
  return lesson;
}

}  // namespace

std::string_view to_string(AskedValue value) {
  switch (value) {
    case AskedValue::output:
      return "output";
    case AskedValue::input:
      return "input";
    case AskedValue::source:
      return "source";
  }
  return "output";
}

const Preset* Lesson::preset(std::string_view name) const {
  for (const Preset& p : presets) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Expected<Lesson> load_lesson(const fs::path& dir) {
  const auto text = runner::read_text_file((dir / "lesson.json").string());
  if (!text) return fail(ErrorKind::file, "no lesson at " + dir.string() + " (" + text.error().message + ")");
  const auto source = runner::read_text_file((dir / "kernel.cu").string());
  if (!source) return fail(ErrorKind::file, "lesson " + dir.string() + ": " + source.error().message);
  try {
    return lesson_from(json::parse(*text), dir, *source);
  } catch (const Invalid& invalid) {
    return fail(invalid.reason);
  } catch (const json::exception& e) {
    return fail(json_problem(dir / "lesson.json", *text, e));
  }
}

Catalogue load_catalogue(const fs::path& lessons_dir) {
  Catalogue catalogue;
  std::error_code error;
  std::vector<fs::path> folders;
  for (const auto& entry : fs::directory_iterator(lessons_dir, error)) {
    if (entry.is_directory() && fs::exists(entry.path() / "lesson.json")) folders.push_back(entry.path());
  }
  if (error) {
    catalogue.problems.push_back(fail(ErrorKind::file, "cannot read " + lessons_dir.string() + ": " + error.message()));
    return catalogue;
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    auto lesson = load_lesson(folder);
    if (lesson) {
      catalogue.lessons.push_back(std::move(*lesson));
    } else {
      catalogue.problems.push_back(lesson.error());
    }
  }
  return catalogue;
}

const Lesson* find_lesson(const Catalogue& catalogue, std::string_view id) {
  for (const Lesson& lesson : catalogue.lessons) {
    if (lesson.id == id || lesson.short_id == id) return &lesson;
  }
  // A number: "4" or "04".
  if (!id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const int wanted = std::atoi(std::string(id).c_str());
    for (const Lesson& lesson : catalogue.lessons) {
      if (std::atoi(lesson.id.c_str()) == wanted && lesson.id != lesson.short_id) return &lesson;
    }
  }
  return nullptr;
}

fs::path default_lessons_dir() {
  if (const char* dir = std::getenv("WARPSIM_LESSONS_DIR")) return dir;
  std::error_code error;
  const fs::path installed =
      fs::read_symlink("/proc/self/exe", error).parent_path().parent_path() / "share/warpsim/lessons";
  if (!error && fs::is_directory(installed)) return installed;
  return WARPSIM_SOURCE_LESSONS_DIR;
}

}  // namespace warpsim::course
