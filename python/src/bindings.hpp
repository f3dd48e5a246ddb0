// The pieces of the Python module, one file each, registered in module.cpp. Bindings stay thin:
// they convert arguments, call the C++ that the command line calls, and convert results.
#pragma once

#include "cbi/sim/user_workload.hpp"

#include <pybind11/pybind11.h>

#include <memory>

namespace cbi::python {

namespace py = pybind11;

void bind_orders(py::module_ &m);    // cbi.Order: parse, map, inverse (orders.cpp)
void bind_commands(py::module_ &m);  // cbi.simulate, simulate_gpu, mrc (commands.cpp)
void bind_workloads(py::module_ &m); // cbi.Workload, cbi.read_trace (workloads.cpp)

// cbi.Workload: a workload of your own and its element size (workloads.cpp).
struct Workload {
  std::shared_ptr<const sim::UserWorkload> user;
  int elem_bytes = 4;
};

} // namespace cbi::python
