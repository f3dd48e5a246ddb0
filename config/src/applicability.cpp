#include "cbi/config/applicability.hpp"

#include "cbi/error.hpp"

#include <vector>

namespace cbi::config {

namespace {

constexpr unsigned kSequential = static_cast<unsigned>(Engine::sequential);
constexpr unsigned kGpu = static_cast<unsigned>(Engine::gpu_model);

// One row per option that does not apply to every engine; `commands` narrows a row to the
// commands named (space-separated), nullptr: every command that declares the option.
struct Scope {
  const char *option;
  unsigned engines;
  const char *why; // the reason, for the refusal
  const char *commands = nullptr;
};

const char *const kDeviceCaches = "the GPU model takes its caches from the device row";

const std::vector<Scope> &scopes() {
  static const std::vector<Scope> table = {
      {"preset", kSequential,
       "a preset fixes the cache and granularity, and the GPU model takes "
       "its caches from the device row"},
      {"granularity", kSequential, "the GPU model counts every access"},
      {"classify-misses", kSequential, "the GPU model does not sort misses into 3C classes"},
      {"line-bytes", kSequential, kDeviceCaches},
      {"lines", kSequential, kDeviceCaches},
      {"cache-bytes", kSequential, kDeviceCaches},
      {"ways", kSequential, kDeviceCaches},
      {"policy", kSequential, kDeviceCaches},
      {"sector-bytes", kSequential, kDeviceCaches},
      {"seed", kSequential, kDeviceCaches},
      {"level", kSequential, kDeviceCaches},
      {"writes", kSequential,
       "the GPU model always replays each task's output store, as the CUDA kernels do",
       "simulate tune diagram view"}, // cbi trace --writes records the stores
      {"warp", kSequential, "the GPU model's diagram draws warp instructions already",
       "diagram view"},
      {"device", kGpu, "the sequential simulator has no device"},
      {"sample-sms", kGpu, "the sequential simulator has no SMs"},
      {"jobs", kGpu, "the sequential replay runs on one thread", "simulate"},
      {"sm", kGpu, "the sequential simulator has no SMs"},
      {"block", kGpu, "the sequential replay has no blocks", "simulate"},
  };
  return table;
}

// The options a trace fixes (--trace, docs/traces.md): what the traced launch already holds.
struct Fixed {
  const char *option;
  const char *what;
};

const std::vector<Fixed> &trace_fixes() {
  static const std::vector<Fixed> table = {
      {"preset", "the workload"},
      {"workload", "the kernel"},
      {"size", "the task grid"},
      {"stencil", "the kernel's accesses"},
      {"depth", "the kernel's accesses"},
      {"type", "the element size"},
      {"elem-bytes", "the element size"}, // --type's alias
      {"boundary", "the kernel's accesses"},
      {"writes", "its own stores"},
      {"order", "the thread order"},
      {"block", "the thread blocks"},
      {"block-order", "the thread blocks"},
  };
  return table;
}

// One row per option that only some workloads take: the trait that says a workload takes it, why
// the others do not, and what is allowed instead.
struct WorkloadScope {
  const char *option;
  bool sim::WorkloadTraits::*takes;
  const char *why;
};

const std::vector<WorkloadScope> &workload_scopes() {
  static const std::vector<WorkloadScope> table = {
      {"block-order", &sim::WorkloadTraits::has_block_order,
       "has no tiles to order (its thread order is --order)"},
      {"stencil", &sim::WorkloadTraits::has_window, "has no stencil window"},
      {"depth", &sim::WorkloadTraits::has_depth, "has no inner dimension or planes"},
      {"boundary", &sim::WorkloadTraits::has_boundary, "has no edges to clamp or leave out"},
  };
  return table;
}

// "--workload stencil or stencil-smem": the workloads whose trait `takes` holds.
std::string workloads_taking(bool sim::WorkloadTraits::*takes) {
  std::vector<std::string> names;
  sim::for_each_workload([&](auto tag) {
    using W = typename decltype(tag)::type;
    const sim::WorkloadTraits traits = sim::workload_traits(sim::kind_of<W>());
    if (traits.*takes)
      names.push_back(traits.name);
  });
  std::string text = "--workload ";
  for (std::size_t k = 0; k < names.size(); ++k)
    text += (k == 0 ? "" : k + 1 == names.size() ? " or " : ", ") + names[k];
  return text;
}

// Given by the user: a bool_switch is always stored, with its default marked.
bool given(const cli::po::variables_map &vm, const char *option) {
  return vm.count(option) && !vm[option].defaulted();
}

bool for_command(const Scope &s, const std::string &command) {
  if (!s.commands)
    return true;
  const std::string list = std::string(" ") + s.commands + " ";
  return list.find(" " + command + " ") != std::string::npos;
}

const char *model_name(unsigned engines) {
  return engines == kGpu ? "--model gpu" : "--model sequential";
}

const char *engine_name(Engine e) {
  return e == Engine::gpu_model ? "GPU model" : "sequential simulator";
}

} // namespace

Engine parse_model(const cli::po::variables_map &vm) {
  const std::string model = cli::get(vm, "model", "sequential");
  if (model == "sequential")
    return Engine::sequential;
  if (model == "gpu")
    return Engine::gpu_model;
  throw UsageError("--model", "unknown model '" + model + "'; allowed: sequential, gpu");
}

void refuse_inapplicable(const cli::po::variables_map &vm, Engine engine,
                         const std::string &command, const sim::UserWorkload *own) {
  for (const Scope &s : scopes())
    if (for_command(s, command) && given(vm, s.option) &&
        !(s.engines & static_cast<unsigned>(engine)))
      throw UsageError(std::string("--") + s.option,
                       // The commands whose --model picks the engine name the model (cbi view,
                       // on diagram's options, was told "cbi diagram runs ...", and diagram
                       // --device "leave it out" where --model gpu takes it).
                       command == "simulate" || command == "diagram"
                           ? "applies to " + std::string(model_name(s.engines)) + " only (" +
                                 s.why + "); allowed: leave it out or " + model_name(s.engines)
                           : "does not apply: cbi " + command + " runs the " + engine_name(engine) +
                                 " (" + s.why + "); allowed: leave it out");
  const bool own_workload = own != nullptr;
  if (given(vm, "trace") || own_workload)
    for (const Fixed &f : trace_fixes())
      if (given(vm, f.option) &&
          !(own_workload && own->block_threads() == 0 && std::string(f.option) == "block"))
        throw UsageError(std::string("--") + f.option,
                         std::string(own_workload ? "a workload of your own" : "a trace") +
                             " fixes " + f.what + "; allowed: " +
                             (own_workload ? "a workload" : "--trace") + " without --" + f.option);
}

void refuse_inapplicable(const cli::po::variables_map &vm, sim::WorkloadKind kind) {
  const sim::WorkloadTraits traits = sim::workload_traits(kind);
  for (const WorkloadScope &s : workload_scopes())
    if (given(vm, s.option) && !(traits.*s.takes))
      throw UsageError(std::string("--") + s.option, std::string(traits.name) + " " + s.why +
                                                         "; allowed: leave it out, or " +
                                                         workloads_taking(s.takes));
}

std::string applicability_help(const cli::po::options_description &desc,
                               const std::string &command) {
  std::string text;
  for (unsigned engines : {kGpu, kSequential}) {
    std::string options;
    for (const Scope &s : scopes())
      if (s.engines == engines && for_command(s, command) &&
          desc.find_nothrow(s.option, false) != nullptr)
        options += (options.empty() ? "" : ", ") + std::string("--") + s.option;
    if (!options.empty())
      text += cli::wrap_text(std::string(model_name(engines)) + " only: ", options, 2);
  }
  if (desc.find_nothrow("trace", false) != nullptr) {
    std::string options;
    for (const Fixed &f : trace_fixes())
      if (desc.find_nothrow(f.option, false) != nullptr)
        options += (options.empty() ? "" : ", ") + std::string("--") + f.option;
    text += cli::wrap_text("--trace fixes (leave out): ", options, 2);
  }
  // Each line wrapped at the terminal's 100 columns; the help puts its own break after the last.
  if (!text.empty())
    text.pop_back();
  return text;
}

} // namespace cbi::config
