// The pieces of the Python module, one file each, registered in module.cpp. Bindings stay thin:
// they convert arguments, call the C++ that the command line calls, and convert results.
#pragma once

#include "cbi/error.hpp"
#include "cbi/sim/user_workload.hpp"

#include <boost/program_options.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace cbi::python {

namespace py = pybind11;

void bind_orders(py::module_ &m);    // cbi.Order: parse, map, inverse (orders.cpp)
void bind_commands(py::module_ &m);  // cbi.simulate, simulate_gpu, mrc, tune (commands.cpp)
void bind_diagrams(py::module_ &m);  // cbi.diagram_cells (diagrams.cpp; built with viz)
void bind_workloads(py::module_ &m); // cbi.Workload, cbi.read_trace (workloads.cpp)

// cbi.Workload: a workload of your own and its element size (workloads.cpp).
struct Workload {
  std::shared_ptr<const sim::UserWorkload> user;
  int elem_bytes = 4;
};

// argv of `cbi <command>` from keyword arguments: '_' for '-', True for a switch, a list for a
// repeated option, a tuple of whole numbers for an extent, None for "left out"; an unknown
// keyword, an empty list, a switch given a value or an option given True/False is a ValueError
// naming it (commands.cpp). `takes_preset`: preset= is allowed though `desc` lacks it (the command
// adds it).
std::vector<std::string> argv_of(const std::string &command, const py::kwargs &kw,
                                 const boost::program_options::options_description &desc,
                                 bool takes_preset);

// A command line's UsageError as the Python call spells it: its option (named by
// config::option_for_field) and every option of `desc` that its message names become the keyword
// (--cache-bytes -> cache_bytes, --ways N -> ways N); --trace is workload where the call handed
// a cbi.Workload (commands.cpp). A Python user never typed --cache-bytes.
UsageError keyword_error(const UsageError &e,
                         const boost::program_options::options_description &desc,
                         bool own_workload = false);
// keyword_error's spelling of a message alone (a notice: jobs 64 is more than the 2 cores here).
std::string keyword_text(const std::string &text,
                         const boost::program_options::options_description &desc,
                         bool own_workload = false);

// Thread ids, tasks and addresses are whole numbers: a float array (np.arange(8.0) + 0.5) is a
// ValueError naming `name`, never truncated by NumPy's cast (orders.cpp).
void require_integers(const py::array &a, const char *name);

} // namespace cbi::python
