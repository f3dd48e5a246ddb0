// cbi analyze: the thesis's analytical model beside the simulated counts, with the model's blind
// spots spelled out.
#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/cli/progress.hpp"
#include "cbi/config/point_options.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/error.hpp"
#include "cbi/sim/model.hpp"
#include "cbi/sim/workloads.hpp"

namespace cbi::cli {

int cmd_analyze(int argc, char **argv) {
  po::options_description desc("Options");
  config::add_workload_options(desc, /*tiled=*/false);
  config::add_order_options(desc);
  // clang-format off
  desc.add_options()
    ("threads", po::value<std::string>(), "active threads t in §4.3's cache estimate (default 1)")
    ("no-simulate", po::bool_switch(), "print the model only")
    ("progress", po::bool_switch(), "print the simulation's progress to stderr (on by default "
                                    "for long runs, over 2^30 accesses: a line per tenth when not "
                                    "a terminal)");
  // clang-format on
  config::add_cache_options(desc);
  add_output_options(desc);
  po::variables_map vm;
  if (!config::parse_preset_args(
          argc, argv, desc, vm,
          "usage: cbi analyze [--preset NAME] [options]\n\n"
          "Computes the thesis's quantities — required cache lines M_l (eq. 3.2, 3.3, 3.6, "
          "3.9, §4.3, §4.4),\nfetch bounds and estimates F (eq. 3.5, 3.7, 3.8, 3.10, 4.8), "
          "suggested column width c —\nand prints each model fetch figure beside the "
          "simulated fetches, with notes where the model\ncannot see what the simulation "
          "shows (set conflicts, straddled lines, non-LRU policies).",
          "  cbi analyze --size 1024 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB\n"
          "  cbi analyze --size 1024 --stencil 9x9 --line-bytes 128 --cache-bytes 32KiB --ways 8\n"
          "  cbi analyze --size 1024 --stencil 9x9 --order column:64 --line-bytes 128 "
          "--cache-bytes 32KiB\n"
          "  cbi analyze --workload matmul --size 256 --order column:32 --line-bytes 128 "
          "--cache-bytes 64KiB"))
    return 0;
  const sim::SimConfig c =
      *config::sim_config(config::point_from(vm, {config::Engine::sequential, "analyze"}));
  // The model covers listings 3 and 4 only: a tiled kernel would print an empty table.
  if (sim::workload_traits(c.workload.kind).has_block_order) {
    const std::string name = sim::to_string(c.workload.kind);
    throw UsageError(has(vm, "kernel") ? "--kernel" : "--workload",
                     name +
                         " has no analytical model (the thesis's covers listings 3 and 4); "
                         "allowed: " +
                         sim::workload_names(false) + " (the GPU model replays " + name +
                         ": cbi simulate --model gpu --kernel " + name + ")");
  }
  const int64_t threads =
      has(vm, "threads") ? parse_positive(get(vm, "threads", ""), "--threads") : 1;
  const sim::ModelReport model = sim::analyze_model(c, threads);
  const bool simulate = !vm["no-simulate"].as<bool>();
  // What only the simulation reads would be ignored by the model alone: refused, naming it.
  if (!simulate)
    for (const char *option : {"writes", "seed", "sector-bytes"})
      if (has(vm, option) && !vm[option].defaulted())
        throw UsageError(std::string("--") + option,
                         "changes the simulation only, and --no-simulate runs the model alone "
                         "(it counts loads of whole lines); allowed: leave it out, or leave out "
                         "--no-simulate");
  if (!simulate && vm["progress"].as<bool>())
    throw UsageError("--progress", "shows the simulation's progress, and --no-simulate runs the "
                                   "model alone (at once); allowed: leave it out, or leave out "
                                   "--no-simulate");
  // Progress as cbi simulate shows it: when asked, and unasked for a long replay (a run of
  // seconds to minutes was silent).
  if (simulate)
    cli::announce_long_run("cbi analyze", double(c.workload.accesses()),
                           "a smaller --size, or --no-simulate (the model alone, at once),");
  const bool progress = vm["progress"].as<bool>() || cli::long_run(double(c.workload.accesses()));
  sim::SimResult sim_result;
  if (simulate)
    sim_result = sim::simulate(c, progress ? cli::thread_counter() : sim::Progress());

  Table t;
  t.title = "cbi analyze: " + c.workload.describe() + ", order " + remap::to_string(c.order);
  t.columns = {"level", "quantity", "equation", "model", "simulated", "sim/model", "meaning"};
  for (const sim::LevelModel &lm : model.levels) {
    const std::string level = "L" + std::to_string(lm.level + 1);
    for (const sim::ModelQuantity &mq : lm.quantities)
      t.add_row(
          {level, mq.symbol, mq.equation, mq.value, std::string(""), std::string(""), mq.meaning});
    if (lm.fetch_kind != sim::FetchKind::none) {
      const std::string kind =
          lm.fetch_kind == sim::FetchKind::upper_bound ? "F (bound)" : "F (estimate)";
      Cell simulated = std::string(), ratio = std::string(); // none: CSV empty, JSON null
      if (simulate) {
        const int64_t fetched = sim_result.levels[static_cast<std::size_t>(lm.level)].fetches;
        simulated = fetched;
        ratio = lm.fetches > 0 ? double(fetched) / lm.fetches : 0.0;
      }
      t.add_row({level, kind, lm.fetch_reference, lm.fetches, simulated, ratio, lm.fetch_equation});
      if (simulate && lm.fetch_kind == sim::FetchKind::upper_bound) {
        const int64_t fetched = sim_result.levels[static_cast<std::size_t>(lm.level)].fetches;
        t.notes.push_back(level + ": simulated fetches " + std::to_string(fetched) +
                          (double(fetched) <= lm.fetches ? " respect" : " EXCEED") +
                          " the model's bound " + format_cell(lm.fetches));
      }
    }
    for (const std::string &n : lm.notes)
      t.notes.push_back(level + ": " + n);
  }
  if (simulate && c.workload.writes)
    t.notes.push_back("--writes: the simulated fetches include the output stores' lines; the "
                      "model counts the loads only");
  t.config = config::sim_config_fields(c);
  t.table_omits = config::workload_fields_not_applying(c.workload);
  t.config.push_back({"cache", c.levels[0].describe()});
  t.config.push_back({"threads", threads});
  t.meta = {{"suggested_column_width", int64_t{model.suggested_column_width}}};
  emit(vm, t);
  return 0;
}

const cli::Registration kRegistration{
    {"analyze", "the thesis's analytical model (eq. 3.2-3.10, 4.8) beside the simulation",
     cmd_analyze, 30}};

} // namespace cbi::cli
