// cbi.Order: a thread order parsed from its command-line spelling ("column:32"), and its map and
// inverse over NumPy arrays of thread ids. The loops call remap's own map (the code the kernels and
// the simulator run), with the order's type resolved once per call and the GIL released.
#include "bindings.hpp"

#include "cbi/error.hpp"
#include "cbi/order_text.hpp"
#include "cbi/remap/order.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>

namespace cbi::python {

namespace {

using Ids = py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

// Any array-like of whole numbers (a NumPy array, a list, a scalar) as int64 ids.
Ids integer_ids(const py::object &v, const char *name) {
  const py::array a = py::module_::import("numpy").attr("asarray")(v);
  require_integers(a, name);
  return Ids::ensure(a);
}

// shape: (width, height) in tasks, I_w x I_h, or one number for a square.
remap::Shape<int64_t> shape_of(const py::object &shape) {
  int64_t w = 0, h = 0;
  if (py::isinstance<py::int_>(shape)) {
    w = h = shape.cast<int64_t>();
  } else {
    try {
      const auto t = shape.cast<std::pair<int64_t, int64_t>>();
      w = t.first;
      h = t.second;
    } catch (const py::cast_error &) { // pybind11's "Unable to cast Python instance ..."
      throw UsageError("shape", py::repr(shape).cast<std::string>() +
                                    " is not a task grid; allowed: (width, height) of two "
                                    "integers, or one integer for a square");
    }
  }
  if (w < 1 || h < 1 || w > (int64_t{1} << 31) || h > (int64_t{1} << 31))
    throw UsageError("shape", "(" + std::to_string(w) + ", " + std::to_string(h) +
                                  ") is not a task grid; allowed: (width, height), each 1 to 2^31");
  return {w, h};
}

// (x, y) of each thread id: arrays of the ids' shape.
py::tuple map_ids(const remap::Order &order, const py::object &ids_arg,
                  const py::object &shape_arg) {
  const Ids ids = integer_ids(ids_arg, "i");
  const remap::Shape<int64_t> shape = shape_of(shape_arg);
  const int64_t tasks = shape.width * shape.height;
  const int64_t n = ids.size();
  const int64_t *in = ids.data();
  for (int64_t k = 0; k < n; ++k)
    if (in[k] < 0 || in[k] >= tasks)
      throw UsageError("i", "thread id " + std::to_string(in[k]) + " at index " +
                                std::to_string(k) + " is outside the grid; allowed: 0 to " +
                                std::to_string(tasks - 1));
  py::array_t<int64_t> xs(ids.request().shape), ys(ids.request().shape);
  int64_t *x = xs.mutable_data(), *y = ys.mutable_data();
  {
    py::gil_scoped_release release;
    remap::visit(order, [&](auto o) {
      for (int64_t k = 0; k < n; ++k) {
        const remap::Task<int64_t> t = o.map(in[k], shape);
        x[k] = t.x;
        y[k] = t.y;
      }
      return 0;
    });
  }
  return py::make_tuple(xs, ys);
}

// The thread id of each task (x, y).
py::array_t<int64_t> inverse_tasks(const remap::Order &order, const py::object &x_arg,
                                   const py::object &y_arg, const py::object &shape_arg) {
  const Ids xs = integer_ids(x_arg, "x"), ys = integer_ids(y_arg, "y");
  const remap::Shape<int64_t> shape = shape_of(shape_arg);
  if (xs.size() != ys.size())
    throw UsageError("y", "has " + std::to_string(ys.size()) + " elements, x has " +
                              std::to_string(xs.size()) + "; allowed: arrays of one size");
  const int64_t n = xs.size();
  const int64_t *x = xs.data(), *y = ys.data();
  for (int64_t k = 0; k < n; ++k)
    if (x[k] < 0 || x[k] >= shape.width || y[k] < 0 || y[k] >= shape.height)
      throw UsageError(
          "x, y", "task (" + std::to_string(x[k]) + ", " + std::to_string(y[k]) + ") at index " +
                      std::to_string(k) + " is outside the grid; allowed: 0 <= x < " +
                      std::to_string(shape.width) + ", 0 <= y < " + std::to_string(shape.height));
  py::array_t<int64_t> ids(xs.request().shape);
  int64_t *out = ids.mutable_data();
  {
    py::gil_scoped_release release;
    remap::visit(order, [&](auto o) {
      for (int64_t k = 0; k < n; ++k)
        out[k] = o.inverse(remap::Task<int64_t>{x[k], y[k]}, shape);
      return 0;
    });
  }
  return ids;
}

} // namespace

void require_integers(const py::array &a, const char *name) {
  const char kind = a.dtype().kind();
  if (a.size() > 0 && kind != 'i' && kind != 'u')
    throw UsageError(name, "is an array of " + py::str(a.dtype()).cast<std::string>() +
                               "; allowed: an integer array (NumPy would truncate other values)");
}

void bind_orders(py::module_ &m) {
  py::class_<remap::Order>(m, "Order", R"(A thread order, spelled as the command line spells it.

    Order("column:32").map(np.arange(n), (width, height)) -> (x, y): the task of each thread id,
    computed by the same remap code as the CUDA kernels and the simulator.)")
      .def(py::init([](const std::string &text) { return remap::parse_order(text, "order"); }),
           py::arg("text"))
      .def("map", &map_ids, py::arg("i"), py::arg("shape"),
           "(x, y) arrays: the task that each thread id in i computes on a (width, height) grid")
      .def("inverse", &inverse_tasks, py::arg("x"), py::arg("y"), py::arg("shape"),
           "the thread id that computes each task (x, y) on a (width, height) grid")
      .def_property_readonly(
          "name",
          [](const remap::Order &o) {
            return remap::visit(o, [](auto order) { return std::string(decltype(order)::name); });
          })
      .def("__str__", [](const remap::Order &o) { return remap::to_string(o); })
      .def("__repr__",
           [](const remap::Order &o) { return "cbi.Order('" + remap::to_string(o) + "')"; })
      .def("__eq__", [](const remap::Order &a, const remap::Order &b) {
        return a.kind == b.kind && a.param_w == b.param_w && a.param_h == b.param_h;
      });
  m.def(
      "order_syntax", [] { return std::string(remap::order_syntax()); },
      "the orders and their spelling: 'linear, tile:T, ...'");
}

} // namespace cbi::python
