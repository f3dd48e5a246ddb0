// cbi.diagram_cells: the cell grid of `cbi diagram` as NumPy arrays, for matplotlib. The keyword
// arguments are cbi diagram's options (as for cbi.simulate: '_' for '-', True for a switch, a list
// for a repeated option), parsed and built by the same functions as the command (viz/app:
// diagram_request, build_panels), so that the cells are those the command draws and writes with
// --csv. The replay runs on a worker thread with the GIL released while this thread checks Ctrl-C.
#include "bindings.hpp"

#include "cbi/cli/options.hpp"
#include "cbi/config/options.hpp"
#include "cbi/error.hpp"
#include "cbi/viz/diagram.hpp"
#include "diagram_options.hpp"

#include <pybind11/numpy.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace cbi::python {

namespace {

namespace po = boost::program_options;

// Thrown inside a replay that stops because Python has a signal pending.
struct Stopped {};

// Runs job(check) on a worker thread with the GIL released; this thread checks Python's signals
// every 50 ms, and once one is pending (its error set, e.g. KeyboardInterrupt) check throws in the
// worker at its next progress report, and error_already_set is thrown here.
template <class Job> void run_interruptible(Job job) {
  std::atomic<bool> stop{false};
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  const sim::Progress check = [&](int64_t, int64_t) {
    if (stop)
      throw Stopped{};
  };
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        job(check);
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex);
      done = true;
      finished.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
      if (stop)
        continue;
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        stop = true;
      }
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted)
    throw py::error_already_set();
  if (error)
    std::rethrow_exception(error);
}

// One panel's cells as arrays [row, col]: rows are the cache lines (or sectors, --model gpu) top to
// bottom, columns the time steps left to right, as the diagram draws them.
py::dict panel(const viz::Grid &g) {
  const auto rows = static_cast<py::ssize_t>(g.rows), cols = static_cast<py::ssize_t>(g.cols);
  const int levels = g.levels();
  py::array_t<uint8_t> state({rows, cols});
  py::array_t<int64_t> accesses({rows, cols});
  py::array_t<int64_t> missed({static_cast<py::ssize_t>(levels), rows, cols});
  auto s = state.mutable_unchecked<2>();
  auto a = accesses.mutable_unchecked<2>();
  auto m = missed.mutable_unchecked<3>();
  for (int64_t col = 0; col < g.cols; ++col)
    for (int64_t row = 0; row < g.rows; ++row) {
      s(row, col) = g.at(col, row);
      a(row, col) = g.accesses_at(col, row);
      for (int k = 0; k < levels; ++k)
        m(k, row, col) = g.missed_at(col, row, k);
    }
  py::list names;
  for (int code = 0; code <= viz::cell::served + levels; ++code)
    names.append(viz::state_name(static_cast<uint8_t>(code), levels));
  py::dict d;
  d["order"] = remap::to_string(g.sim.order);
  d["state"] = state;
  d["states"] = names;
  d["accesses"] = accesses;
  d["misses"] = missed;
  d["time_bin"] = g.bins.time_bin;
  d["line_bin"] = g.bins.line_bin;
  d["steps"] = g.steps;
  d["lines"] = g.lines;
  d["levels"] = levels;
  if (g.gpu)
    d["sm"] = g.gpu->sm;
  return d;
}

py::object diagram_cells(const py::kwargs &kw) {
  po::options_description desc("Options");
  viz_app::add_diagram_options(desc);
  const std::vector<std::string> args = viz_app::expand_preset(argv_of("diagram", kw, desc, false));
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  std::vector<viz::Grid> grids;
  try {
    po::variables_map vm;
    if (!cli::parse_args(static_cast<int>(argv.size()), argv.data(), desc, vm,
                         "cbi.diagram_cells(**options)", ""))
      return py::none();
    const viz_app::DiagramRequest request = viz_app::diagram_request(vm);
    run_interruptible(
        [&](const sim::Progress &check) { grids = viz_app::build_panels(request, false, check); });
  } catch (const UsageError &e) { // named as the Python call names it
    throw keyword_error(e, desc);
  }
  if (grids.size() == 1)
    return panel(grids.front());
  py::list panels;
  for (const viz::Grid &g : grids)
    panels.append(panel(g));
  return std::move(panels);
}

} // namespace

void bind_diagrams(py::module_ &m) {
  m.def("diagram_cells", &diagram_cells,
        R"(cbi diagram's cell grid: keyword arguments are its options.

    cbi.diagram_cells(size=64, stencil="5x5", order="column:8", line_bytes=64, cache_bytes="2KiB")
    -> {"state": uint8 array [row, col], "states": the name of each state code ("not_cached",
    "in_lower", "in_l1", "hit", then the level or "miss"/"memory" that served an access),
    "accesses": int64 [row, col], "misses": int64 [level, row, col] (accesses that missed level k),
    "order", "time_bin", "line_bin", "steps", "lines", "levels"}: rows are cache lines, columns
    time steps, binned as `cbi diagram` bins them for the same options. Several orders
    (order=["linear", "column:8"]) give a list of such dicts, one per panel, at one scale.)");
}

} // namespace cbi::python
