// cbi.simulate, cbi.simulate_gpu, cbi.mrc and cbi.tune: the commands of the same names, run
// in-process. The keyword arguments become the command's options (name with '-' for '_'; True for a
// switch; a list for a repeated option; a tuple of whole numbers for an extent such as
// size=(1024, 512) or (64, 32, 8); None for "left out"),
// parsed by the command's own option groups (presets included) into the same configuration, and run
// by the same function as the commands (cbi/config/run.hpp: point_from, then the engine) with the
// GIL released and Ctrl-C checked every few million threads. The result is the command's JSON
// document as a dict, without its run context.
#include "bindings.hpp"

#include "cbi/cli/command.hpp"
#include "cbi/cli/options.hpp"
#include "cbi/cli/output.hpp"
#include "cbi/config/options.hpp"
#include "cbi/config/presets.hpp"
#include "cbi/config/run.hpp"
#include "cbi/config/tune.hpp"
#include "cbi/error.hpp"
#include "cbi/text.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace cbi::python {

namespace {

namespace po = boost::program_options;
using Run = cli::Table (*)(const po::variables_map &, const sim::Progress &,
                           const config::OwnWorkload &);

// Thrown by the progress check when Python has a signal pending (Ctrl-C); the Python error is
// already set.
struct Interrupted {};

// A tuple of whole numbers: an extent, (w, h) -> "WxH", (w, h, d) -> "WxHxD".
bool is_extent(const py::handle &v) {
  if (!py::isinstance<py::tuple>(v) || py::len(v) == 0)
    return false;
  const py::object integer = py::module_::import("numpy").attr("integer");
  for (const py::handle d : v)
    if (py::isinstance<py::bool_>(d) ||
        !(py::isinstance<py::int_>(d) || py::isinstance(d, integer)))
      return false;
  return true;
}

// A value as the command line spells it.
std::string text_of(const py::handle &v) {
  if (!is_extent(v))
    return py::str(v);
  return join(v, "x", [](const py::handle &d) { return py::str(d).cast<std::string>(); });
}

// Runs `cbi command` with these keyword arguments: parsed by the command's option groups (and
// --preset where it takes one), run by `result` with the GIL released.
py::dict run(const std::string &command, void (*add_options)(po::options_description &), Run result,
             const py::kwargs &kw, bool takes_preset = true) {
  po::options_description desc("Options");
  add_options(desc);
  // workload=cbi.Workload(...) or cbi.read_trace(...): a workload of your own, handed to point_from
  // as --trace hands a trace; workload="matmul" stays the option.
  config::OwnWorkload own;
  py::kwargs options;
  for (const auto &[key, value] : kw) {
    if (py::str(key).cast<std::string>() == "workload" && py::isinstance<Workload>(value)) {
      const Workload &w = value.cast<const Workload &>();
      own = {w.user, w.elem_bytes};
    } else {
      options[key] = value;
    }
  }
  std::vector<std::string> args = argv_of(command, options, desc, takes_preset);
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  cli::Table table;
  cli::drop_notices(); // a call that raised left its notices unsaid
  try {
    po::variables_map vm;
    const std::string usage = "cbi." + command + "(**options)";
    if (!(takes_preset
              ? config::parse_preset_args(static_cast<int>(argv.size()), argv.data(), desc, vm,
                                          usage, "")
              : cli::parse_args(static_cast<int>(argv.size()), argv.data(), desc, vm, usage, "")))
      return py::dict();
    const sim::Progress interrupt = [](int64_t, int64_t) {
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0)
        throw Interrupted{};
    };
    py::gil_scoped_release release;
    table = result(vm, interrupt, own);
  } catch (const Interrupted &) {
    throw py::error_already_set();
  } catch (const UsageError &e) { // named as the Python call names it
    throw keyword_error(e, desc, own.user != nullptr);
  }
  // Accepted: --jobs above the cores says so now, as the call spells it (jobs 64 is more ...).
  const std::string notices = cli::take_notices();
  if (!notices.empty())
    std::cerr << keyword_text(notices, desc, own.user != nullptr) << std::flush;
  std::ostringstream json;
  cli::print_json(json, table);
  py::dict d = py::module_::import("json").attr("loads")(json.str());
  d.attr("pop")("context", py::none());
  return d;
}

py::dict simulate(const py::kwargs &kw) {
  return run("simulate", config::add_simulate_options, config::simulate_result, kw);
}

py::dict simulate_gpu(const py::kwargs &kw) {
  if (kw.contains("model") && py::str(kw["model"]).cast<std::string>() != "gpu")
    throw UsageError("model", "simulate_gpu runs the GPU model; allowed: cbi.simulate(model=...)");
  py::kwargs all(kw);
  all["model"] = "gpu";
  return simulate(all);
}

// The curve's rows as columns: one NumPy array per column.
py::dict mrc(const py::kwargs &kw) {
  py::dict d = run("mrc", config::add_mrc_options, config::mrc_result, kw);
  py::list rows = d.attr("pop")("rows");
  if (rows.empty())
    return d;
  for (const auto &item : py::dict(rows[0])) {
    py::list column;
    for (const py::handle row : rows)
      column.append(row[item.first]);
    d[item.first] = py::module_::import("numpy").attr("array")(column);
  }
  return d;
}

// cbi tune: the ranking of built-in workloads' orders (a workload of your own runs in its own
// order).
cli::Table tune_run(const po::variables_map &vm, const sim::Progress &interrupt,
                    const config::OwnWorkload &own) {
  if (own.user)
    throw UsageError("workload", "cbi.tune ranks the thread orders of a built-in workload, and a "
                                 "workload of your own runs in its own order; allowed: a "
                                 "built-in workload's name such as workload=\"matmul\"");
  return config::tune_result(vm, interrupt);
}

py::dict tune(const py::kwargs &kw) {
  return run("tune", config::add_tune_options, tune_run, kw, false);
}

} // namespace

namespace {

// " (did you mean stencil?)" for a keyword (spelled with '-') that begins an option or nearly
// spells one (stencl, orders for order), or "".
std::string meant_keyword(const std::string &name, const po::options_description &desc) {
  std::string meant;
  for (const auto &o : desc.options()) {
    std::string option = o->long_name();
    if (option.rfind(name, 0) != 0 && !cli::near_spelling(name, option))
      continue;
    std::replace(option.begin(), option.end(), '-', '_');
    meant += (meant.empty() ? "" : " or ") + option;
  }
  return meant.empty() ? "" : " (did you mean " + meant + "?)";
}

} // namespace

std::vector<std::string> argv_of(const std::string &command, const py::kwargs &kw,
                                 const po::options_description &desc, bool takes_preset) {
  std::vector<std::string> argv{"cbi " + command};
  for (const auto &[key, value] : kw) {
    std::string name = py::str(key);
    std::replace(name.begin(), name.end(), '_', '-');
    if (name == "format" || name == "output" || name == "wide" || name == "help")
      throw UsageError(py::str(key), "is cbi " + command +
                                         "'s, for the text or file it writes; the call returns "
                                         "its result instead; allowed: leave it out");
    if ((name != "preset" || !takes_preset) && !desc.find_nothrow(name, false))
      throw UsageError(py::str(key),
                       "is not an option of cbi " + command + meant_keyword(name, desc) +
                           "; allowed: the options of `cbi " + command + " --help` with _ for -");
    if (value.is_none()) // key=None: as if left out, Python's spelling of "the default"
      continue;
    const std::string option = "--" + name;
    const po::option_description *d = desc.find_nothrow(name, false);
    const bool is_switch = d != nullptr && d->semantic()->max_tokens() == 0;
    if (is_switch != py::isinstance<py::bool_>(value))
      throw UsageError(py::str(key), is_switch
                                         ? "is a switch; allowed: True or False"
                                         : "takes a value, not True or False; allowed: "
                                           "what --" +
                                               name + " takes in `cbi " + command + " --help`");
    py::object items = py::reinterpret_borrow<py::object>(value);
    if (py::isinstance<py::array>(value)) // np.array([64, 256]): a list of values
      items = value.attr("tolist")();
    else if (py::isinstance<py::tuple>(value) && !is_extent(value)) // ("linear", "column:4")
      items = py::list(py::reinterpret_borrow<py::object>(value));
    if (is_switch) {
      if (value.cast<bool>())
        argv.push_back(option);
    } else if (py::isinstance<py::list>(items)) {
      if (py::len(items) == 0) // the command line refuses an empty list, and so does this
        throw UsageError(py::str(key), "is an empty list; allowed: one value, or a list of "
                                       "values (the option given once each)");
      // size=(16.5, 3) is no extent: as a list it was "--size: given twice".
      if (py::len(items) > 1 && !d->semantic()->is_composing())
        throw UsageError(py::str(key),
                         "is a list of " + std::to_string(py::len(items)) + " values, and " +
                             py::str(key).cast<std::string>() + " takes one; allowed: one value" +
                             (py::isinstance<py::tuple>(value)
                                  ? ", or a tuple of whole numbers for an extent, (1024, 512)"
                                  : ""));
      for (const py::handle item : items) {
        argv.push_back(option);
        argv.push_back(text_of(item));
      }
    } else {
      argv.push_back(option);
      argv.push_back(text_of(items));
    }
  }
  return argv;
}

namespace {

// `option` (--cache-bytes) as the keyword that sets it (cache_bytes), where `desc` has it.
std::string keyword_of(const std::string &option, const po::options_description &desc,
                       bool own_workload) {
  if (option.rfind("--", 0) != 0)
    return option;
  std::string name = option.substr(2);
  if (own_workload && name == "trace") // the workload's own field: its keyword is workload=
    return "workload";
  if (name != "preset" && !desc.find_nothrow(name, false))
    return option; // not a keyword of this call (--help in `cbi simulate --help`)
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

} // namespace

namespace {

bool value_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '.' || c == '_' ||
         c == '-';
}

// The word at `i` (gpu, column:32, sgemm-tiled, 32KiB); a ':' or '.' that ends it ends the
// sentence.
std::string word_at(const std::string &text, std::size_t i) {
  std::size_t end = i;
  while (end < text.size() && value_char(text[end]))
    ++end;
  while (end > i && (text[end - 1] == ':' || text[end - 1] == '.'))
    --end;
  return text.substr(i, end - i);
}

// An order's kind (column: of column:32), or the word itself.
std::string kind_of(const std::string &word) {
  const auto colon = word.find(':');
  return colon == std::string::npos ? word : word.substr(0, colon + 1);
}

// Whether `word` is a value the option's help lists (gpu for --model, lru for --policy, column:32
// for --order), not an English word of its sentence.
bool listed_value(const std::string &word, const po::option_description &option) {
  static const char *const prose[] = {"a",   "an",  "and",  "as", "at",  "by",  "default", "each",
                                      "for", "in",  "is",   "it", "its", "no",  "not",     "of",
                                      "on",  "one", "only", "or", "per", "the", "to",      "with"};
  if (word.empty() || std::find(std::begin(prose), std::end(prose), word) != std::end(prose))
    return false;
  const std::string help = option.description();
  for (std::size_t i = 0; i < help.size();) {
    if (!value_char(help[i])) {
      ++i;
      continue;
    }
    const std::string listed = word_at(help, i);
    if (kind_of(listed) == kind_of(word) && (listed == word || word.find(':') != std::string::npos))
      return true;
    while (i < help.size() && value_char(help[i]))
      ++i;
  }
  return false;
}

// `word` after `keyword` as a call writes it: jobs=64, lines=N, model='gpu'; "" where the word is
// no value of the option (its sentence goes on).
std::string assigned(const std::string &word, const std::string &option,
                     const po::options_description &desc) {
  const bool number = !word.empty() && std::isdigit(static_cast<unsigned char>(word[0]));
  const bool placeholder = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c));
  });
  if (number || placeholder)
    return word;
  const po::option_description *found = desc.find_nothrow(option.substr(2), false);
  return found && listed_value(word, *found) ? "'" + word + "'" : "";
}

// The value after an option in `what` at `i` as a call writes it: "--jobs 64" jobs=64, "--model
// gpu" model='gpu', and the values listed after it quoted too ("--policy random or volta":
// policy='random' or 'volta'). Returns where the message goes on; a word that is no value of the
// option is left to the sentence (a ' ' is appended in its place).
std::size_t append_value(std::string &message, const std::string &what, std::size_t i,
                         const std::string &option, const po::options_description &desc) {
  const std::string first = word_at(what, i), value = assigned(first, option, desc);
  if (value.empty()) {
    message += ' ';
    return i;
  }
  message += '=' + value;
  i += first.size();
  for (bool more = value.front() == '\''; more;) {
    more = false;
    for (const std::string sep : {", ", " or "}) {
      const std::string next =
          what.compare(i, sep.size(), sep) == 0 ? word_at(what, i + sep.size()) : "";
      if (!more && !next.empty() && assigned(next, option, desc).rfind('\'', 0) == 0) {
        message += sep + "'" + next + "'";
        i += sep.size() + next.size();
        more = true;
      }
    }
  }
  return i;
}

} // namespace

std::string keyword_text(const std::string &what, const po::options_description &desc,
                         bool own_workload) {
  std::string message;
  for (std::size_t i = 0; i < what.size();) {
    const bool starts = what.compare(i, 2, "--") == 0 &&
                        (i == 0 || !std::isalnum(static_cast<unsigned char>(what[i - 1])));
    if (!starts) {
      message += what[i++];
      continue;
    }
    std::size_t end = i + 2;
    while (end < what.size() &&
           (std::isalnum(static_cast<unsigned char>(what[end])) || what[end] == '-'))
      ++end;
    const std::string option = what.substr(i, end - i),
                      keyword = keyword_of(option, desc, own_workload);
    message += keyword;
    i = end;
    if (keyword != option && i + 1 < what.size() && what[i] == ' ')
      i = append_value(message, what, i + 1, option, desc);
  }
  return message;
}

UsageError keyword_error(const UsageError &e, const po::options_description &desc,
                         bool own_workload) {
  return UsageError(keyword_of(config::option_for_field(e.option()), desc, own_workload),
                    keyword_text(e.what(), desc, own_workload));
}

void bind_commands(py::module_ &m) {
  m.def("simulate", &simulate, R"(cbi simulate: keyword arguments are its options.

    cbi.simulate(size=1024, stencil="9x9", order="column:32", line_bytes=128, cache_bytes="32KiB",
                 ways=8) -> the dict that `cbi simulate ... --format json` prints (without
    "context"): "config", "meta" and one row per cache level in "rows".)");
  m.def("simulate_gpu", &simulate_gpu,
        R"(cbi simulate --model gpu: keyword arguments are its options.

    cbi.simulate_gpu(workload="matmul", size=1024, order="column:32", device="h100", block=256)
    -> {"metrics": {Nsight Compute metric name: value}, "predicted_ms": ..., ...}, as the JSON.)");
  m.def("mrc", &mrc, R"(cbi mrc: keyword arguments are its options.

    cbi.mrc(size=1024, stencil="9x9", line_bytes=128, order="column:32") -> {"capacity_lines":
    array, "capacity_bytes": array, "misses": array, "miss_pct": array, "config": ..., "meta": ...}:
    the misses of a fully associative LRU cache of every listed size, from one pass.)");
  m.def("tune", &tune, R"(cbi tune: keyword arguments are its options.

    cbi.tune(workload="matmul", size=1024, device="h100", block=256, order=["linear", "column:32"])
    -> the dict that `cbi tune ... --format json` prints (without "context"): "ranking", one row
    per order fastest first ("rank", "order", "predicted_ms", "tie_group", "margin_pct", "bound",
    "why", "replay", "metrics"), "config", "meta" (winner, runner_up, tie_tolerance_pct, ...) and
    "notes".)");
}

} // namespace cbi::python
