// cbi reproduce: one command that reruns the thesis's chapter 5 and writes a report folder.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/text.hpp"
#include "reproduce.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace cbi::cli {

int cmd_reproduce(int argc, char **argv) {
  po::options_description desc("Options");
  // clang-format off
  desc.add_options()
    ("output,o", po::value<std::string>(), "report folder (created): report.md, CSVs, PNGs; "
                                           "required")
    ("out", po::value<std::string>(), "the same as -o/--output (the spelling of earlier "
                                      "versions, kept so their commands still run)")
    ("sim-only", po::bool_switch(), "no GPU: simulated sweeps, model against simulation, "
                                    "diagrams (a few minutes on 2 cores)")
    ("only", po::value<std::string>(), "comma-separated parts to run (gpu-fig5.1a, sim-fig5.2, "
                                       "...; see the report's command list); the report covers "
                                       "every CSV already in the folder")
    ("tiny", po::bool_switch(), "CI smoke test: every size cut to tens of elements; the report "
                                "gives no verdicts")
    ("jobs", po::value<std::string>(), (std::string("simulations replayed at once, one host thread "
                                       "each (default: all cores)") + cli::kJobsCapHelp).c_str())
    ("progress", po::bool_switch(), "progress bars on stderr (default on a terminal)");
  // clang-format on
  po::variables_map vm;
  if (!parse_args(
          argc, argv, desc, vm,
          "usage: cbi reproduce -o DIR [--sim-only] [--only PARTS]\n\n"
          "Reruns the thesis's results (Prasetya 2022, ch. 5) and writes DIR/report.md: "
          "for each result the\nthesis's number (RTX 2080 Super), ours (device, date, "
          "command) and a verdict computed from the data\n(holds / partly holds / does not "
          "hold / not testable, with why). A failed step exits 1 and is listed\nfirst. Every "
          "experiment is a `cbi sweep` into DIR/<part>.csv, run with --resume: if a run is cut\n"
          "short, the same command continues it. PNGs need cbi-viz next to this binary; without it "
          "the\n"
          "report says so and the CSVs are still complete.\n"
          "With a GPU the full run takes the thesis's grids (Figs 5.1a/b, 5.2 at all blocks, "
          "5.3, 5.4, §5.2\ncounters, half/double at block 256); split it with --only if one "
          "run must stay short.\nSection 7 runs the simulator's GPU model (model-* parts, block "
          "256) on rtx2080super beside\nthe thesis's numbers and, with a GPU, on the measured "
          "device's row beside the measurements;\n--sim-only models Figs 5.1a/b at 2048²/512² to "
          "stay short.",
          "  cbi reproduce --sim-only -o results              # no GPU needed\n"
          "  cbi reproduce -o docs/results/reproduce           # full, on a CUDA machine\n"
          "  cbi reproduce -o R --only gpu-fig5.1a,gpu-fig5.2  # one slice; rerun for the "
          "rest\n"
          "  cbi reproduce --sim-only -o R --only model-rtx2080super-sec5.2  # the model's §5.2",
          {}, {"output"}))
    return 0;
  if (has(vm, "output") && has(vm, "out"))
    throw UsageError("--out", "given with -o/--output; allowed: one of them (--out is the old "
                              "spelling of -o/--output)");
  if (!has(vm, "output") && !has(vm, "out"))
    throw UsageError("--output", "missing; allowed: a folder path for the report (-o DIR)");
  const std::string option = has(vm, "out") ? "--out" : "--output";
  reproduce::Options o;
  o.out_dir = get(vm, option.substr(2), "");
  o.out_option = option;
  check_output_folder(o.out_dir, option);
  o.sim_only = vm["sim-only"].as<bool>();
  o.tiny = vm["tiny"].as<bool>();
  o.progress = vm["progress"].as<bool>();
  if (has(vm, "jobs"))
    o.jobs = cli::parse_jobs(get(vm, "jobs", ""));
  if (has(vm, "only")) {
    o.only = parse_list(get(vm, "only", ""), "--only");
    refuse_repeats(o.only, o.only, "--only", "each part once"); // it was run once, unsaid
    reproduce::Options all = o;
    all.only.clear();
    std::vector<std::string> names;
    for (const reproduce::Part &p : reproduce::plan(all))
      names.push_back(p.name);
    const std::string allowed = join(names);
    reproduce::Options other = all; // the run with --sim-only flipped: a part of it is no typo
    other.sim_only = !o.sim_only;
    std::vector<std::string> other_names;
    for (const reproduce::Part &p : reproduce::plan(other))
      other_names.push_back(p.name);
    for (const std::string &p : o.only)
      if (std::find(names.begin(), names.end(), p) == names.end())
        throw UsageError("--only",
                         (std::find(other_names.begin(), other_names.end(), p) == other_names.end()
                              ? "unknown part '" + p + "'"
                              : "'" + p + "' is a part of the run " +
                                    (o.sim_only ? "on a GPU, which --sim-only leaves out"
                                                : "with --sim-only (the simulator-only job)")) +
                             "; allowed: " + allowed);
  }
  o.command = "cbi reproduce " + command_line(argc - 1, argv + 1);
  o.self_dir = self_dir();
  // A report folder that this run creates and cannot fill (no device) is not left behind.
  const bool existed = std::filesystem::exists(o.out_dir);
  try {
    return reproduce::run(o);
  } catch (const sweep::GpuUnavailable &e) {
    if (!existed) {
      std::error_code ignored;
      std::filesystem::remove_all(o.out_dir, ignored);
    }
    throw NoDeviceError(std::string(e.what()) + " (use --sim-only on machines without a GPU)");
  }
}

const cli::Registration kRegistration{
    {"reproduce", "rerun the thesis's chapter 5; write report.md with verdicts, CSVs and PNGs",
     cmd_reproduce, 50}};

} // namespace cbi::cli
