// A JSON file of the course (lesson.json, exercise.json) that nlohmann could not read, said for
// the person who wrote it: the file, the line and column, what was wrong, in words. Not
// installed.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace warpsim::course {

// "lessons/x/lesson.json, line 3, column 5: not valid JSON: unexpected '}'; expected string
// literal" for a parse error; "...: a value has the wrong type (type must be string, but is
// number)" for the others. `text`: the file's contents, to turn a byte offset into a line.
std::string json_problem(const std::filesystem::path& file, std::string_view text,
                         const nlohmann::json::exception& error);

}  // namespace warpsim::course
