// The pieces of the Python module, one file each, registered in module.cpp. Bindings stay thin:
// they convert arguments, call the C++ that the command line calls, and convert results.
#pragma once

#include <pybind11/pybind11.h>

namespace cbi::python {

namespace py = pybind11;

void bind_orders(py::module_ &m);   // cbi.Order: parse, map, inverse (orders.cpp)
void bind_commands(py::module_ &m); // cbi.simulate, simulate_gpu, mrc (commands.cpp)

} // namespace cbi::python
