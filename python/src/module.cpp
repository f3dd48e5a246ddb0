// `import cbi`: the module's front door. Every cbi::UsageError (a bad value, named as the command
// line names it) becomes a ValueError with the command line's message.
#include "bindings.hpp"

#include "cbi/error.hpp"

namespace cbi::python {

PYBIND11_MODULE(cbi, m) {
  m.doc() = "cbi: cache simulation and thread remapping for GPU kernels (docs/library.md)";
  m.attr("__version__") = CBI_PYTHON_VERSION; // the project's, as `cbi --version` prints it
  // Every function takes or returns NumPy arrays: without NumPy, one ImportError that says so here,
  // not an obscure "No module named 'numpy.core'" from each call.
  try {
    py::module_::import("numpy");
  } catch (py::error_already_set &e) {
    if (!e.matches(PyExc_ImportError))
      throw;
    throw py::import_error("cbi needs NumPy (its functions take and return NumPy arrays), and "
                           "importing numpy failed: " +
                           std::string(e.what()) +
                           "; install it: apt-get install python3-numpy (or pip install numpy)");
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p)
        std::rethrow_exception(p);
    } catch (const UsageError &e) {
      PyErr_SetString(PyExc_ValueError, (e.option() + ": " + e.what()).c_str());
    } catch (const NoDeviceError &e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  bind_orders(m);
  bind_workloads(m);
  bind_commands(m);
#ifdef CBI_PYTHON_VIZ
  bind_diagrams(m);
#endif
}

} // namespace cbi::python
