// `warpsim vectors check FILE...` and `warpsim vectors record ...`.
#include <cstdio>
#include <iostream>
#include <string>

#include <memory>
#include <vector>

#include "commands.hpp"
#include "gpu_hooks.hpp"
#include "vectors_report.hpp"
#include "warpsim/vectors.hpp"

namespace warpsim::cli {
namespace {

int check(const std::vector<std::string>& files) {
  const VectorCheck result = check_vector_files(files);
  write_vector_check(std::cout, std::cerr, result);
  return result.exit_status();
}

}  // namespace

CommandRun add_vectors_command(CLI::App& app) {
  CLI::App* vectors = app.add_subcommand("vectors", "GPU test vectors: check the simulator, record");
  vectors->require_subcommand(0, 1);
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* check = vectors->add_subcommand(
      "check", "run every case of GPU-recorded vector files through the simulator's semantics and "
               "report each mismatch; exit status 1 on any");
  check->add_option("files", *files, "vector files (.jsonl or .jsonl.gz)")->required();
  auto record = std::make_shared<VectorRecordFlags>();
  CLI::App* rec = vectors->add_subcommand(
      "record", "generate seeded cases and record what this machine's GPU returns (builds with "
                "CUDA only; exit status 3 without a device)");
  rec->add_option("--out", record->out, "the vector file to write (.jsonl or .jsonl.gz)")->required();
  rec->add_option("--seed", record->seed, "generator seed");
  rec->add_option("--cases", record->cases, "number of cases");
  rec->add_option("--device", record->device, "CUDA device ordinal");
  return [files, record, check, rec] {
    if (check->parsed()) return cli::check(*files);
    if (rec->parsed()) return vectors_record(*record);
    return usage_error("vectors", "give a subcommand: check FILE... or record --out FILE");
  };
}

}  // namespace warpsim::cli
