// cbi.Workload: a workload of your own (cbi/sim/user_workload.hpp) from NumPy arrays of byte
// addresses, one row of memory instructions per task, or from a trace file (cbi.read_trace). Every
// engine takes it through the same route as the command line's --trace: cbi.simulate(workload=w),
// simulate_gpu and mrc hand it to config::point_from (commands.cpp).
#include "bindings.hpp"

#include "cbi/error.hpp"
#include "cbi/sim/trace.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cbi::python {

namespace {

using Addresses = py::array_t<uint64_t, py::array::c_style | py::array::forcecast>;

// Task (x, y)'s instruction j reads or writes addresses[..., y, x, j] (the array's last axis: the
// instructions in program order; the one before it: x; the others fold into y, §4.1.2).
class ArrayWorkload final : public sim::UserWorkload {
public:
  ArrayWorkload(Addresses addresses, std::vector<int32_t> bytes, std::vector<uint8_t> stores,
                std::string name)
      : m_array(std::move(addresses)), m_bytes(std::move(bytes)), m_stores(std::move(stores)),
        m_name(std::move(name)) {
    const py::buffer_info b = m_array.request();
    m_instructions = b.shape.back();
    for (int k = static_cast<int>(b.ndim) - 2; k >= 0; --k)
      m_dims.push_back(b.shape[static_cast<std::size_t>(k)]);
    m_data = m_array.data();
    // Replayed relative to the lowest address, rounded down to 1 MiB, as traces are
    // (docs/traces.md): real pointers (0x7f...) would size the curve's table by the address space.
    const int64_t n = m_array.size();
    uint64_t lowest = sim::kNoAccess, highest = 0;
    for (int64_t k = 0; k < n; ++k)
      if (m_data[k] != sim::kNoAccess) {
        if (m_data[k] > sim::kNoAccess - 128)
          throw UsageError("addresses", std::to_string(m_data[k]) + " at flat index " +
                                            std::to_string(k) +
                                            " leaves 64 bits with its bytes; allowed: 0 to 2^64 "
                                            "- 129, or cbi.NO_ACCESS");
        lowest = std::min(lowest, m_data[k]);
        highest = std::max<uint64_t>(
            highest, m_data[k] + uint64_t(m_bytes[std::size_t(k % m_instructions)]));
      }
    m_base = lowest == sim::kNoAccess ? 0 : lowest & ~((uint64_t{1} << 20) - 1);
    m_footprint = highest > m_base ? highest - m_base : 0;
    m_width = m_dims[0];
  }
  ~ArrayWorkload() override {
    py::gil_scoped_acquire gil; // the array's reference may be dropped from a released thread
    m_array = Addresses();
  }

  std::string describe() const override { return m_name; }
  std::vector<int64_t> task_dims() const override { return m_dims; }
  int64_t instructions() const override { return m_instructions; }
  int64_t footprint_bytes() const override { return static_cast<int64_t>(m_footprint); }
  // The sequential engines' fast path: the task's row of addresses as spans, consecutive accesses
  // of one kind and size at an even stride merged (a stencil row is one span).
  int64_t max_spans() const override { return m_instructions; }
  int spans(remap::Task<int64_t> t, sim::AccessSpan *out) const override {
    const uint64_t *a = m_data + (t.y * m_width + t.x) * m_instructions;
    int n = 0;
    for (int64_t j = 0; j < m_instructions; ++j) {
      if (a[j] == sim::kNoAccess)
        continue;
      const bool store = m_stores[std::size_t(j)] != 0;
      const int32_t bytes = m_bytes[std::size_t(j)];
      if (n > 0) {
        sim::AccessSpan &last = out[n - 1];
        const uint64_t next = last.byte_addr + uint64_t(last.stride_bytes) * uint64_t(last.count);
        if (last.is_store == store && last.bytes == bytes &&
            (last.count == 1 ? true : a[j] - m_base == next)) {
          if (last.count == 1)
            last.stride_bytes = static_cast<int64_t>(a[j] - m_base - last.byte_addr);
          ++last.count;
          continue;
        }
      }
      out[n++] = {a[j] - m_base, 0, 1, bytes, store};
    }
    return n;
  }
  sim::InstructionKind addresses(const remap::Task<int64_t> *tasks, int lanes, int64_t j,
                                 uint64_t *byte_addr) const override {
    for (int l = 0; l < lanes; ++l) {
      const uint64_t a = m_data[(tasks[l].y * m_width + tasks[l].x) * m_instructions + j];
      byte_addr[l] = a == sim::kNoAccess ? a : a - m_base;
    }
    return {m_stores[std::size_t(j)] != 0, m_bytes[std::size_t(j)]};
  }

private:
  Addresses m_array;
  std::vector<int32_t> m_bytes;
  std::vector<uint8_t> m_stores;
  std::string m_name;
  std::vector<int64_t> m_dims;
  int64_t m_instructions = 0, m_width = 1;
  const uint64_t *m_data = nullptr;
  uint64_t m_base = 0, m_footprint = 0;
};

// A per-instruction value: one for all, or a sequence of `k`.
template <class T>
std::vector<T> per_instruction(const py::object &v, int64_t k, const char *name) {
  if (py::isinstance<py::bool_>(v) || py::isinstance<py::int_>(v))
    return std::vector<T>(static_cast<std::size_t>(k), v.cast<T>());
  std::vector<T> out;
  for (const py::handle item : v)
    out.push_back(item.cast<T>());
  if (static_cast<int64_t>(out.size()) != k)
    throw UsageError(name, std::to_string(out.size()) + " values for " + std::to_string(k) +
                               " instructions; allowed: one value, or one per instruction (the "
                               "addresses' last axis)");
  return out;
}

Workload from_addresses(const py::array &array, const py::object &bytes, const py::object &stores,
                        int elem_bytes, const py::object &name) {
  require_integers(array, "addresses");
  // A negative address would become a huge one (-1: cbi.NO_ACCESS) when cast: refused.
  if (array.dtype().kind() == 'i' && array.size() > 0 && array.attr("min")().cast<int64_t>() < 0)
    throw UsageError("addresses", "holds negative values; allowed: byte addresses >= 0, and "
                                  "cbi.NO_ACCESS (in a uint64 array) where a task does not run "
                                  "the instruction");
  Addresses a = Addresses::ensure(array);
  if (!a || a.ndim() < 2)
    throw UsageError("addresses", "an array of " + std::to_string(array.ndim()) +
                                      " axes; allowed: byte addresses shaped (..., H, W, "
                                      "instructions) or (tasks, instructions), integers >= 0");
  for (py::ssize_t k = 0; k < a.ndim(); ++k)
    if (a.shape(k) < 1)
      throw UsageError("addresses", "an empty axis; allowed: every axis at least 1 long");
  const int64_t k = a.shape(a.ndim() - 1);
  std::vector<int32_t> b = per_instruction<int32_t>(bytes, k, "bytes");
  for (int32_t v : b)
    if (v < 1 || v > 128)
      throw UsageError("bytes", std::to_string(v) + " bytes per access; allowed: 1..128");
  std::vector<uint8_t> s = stores.is_none() ? std::vector<uint8_t>(std::size_t(k), 0)
                                            : per_instruction<uint8_t>(stores, k, "stores");
  std::string text = name.is_none() ? "" : py::str(name).cast<std::string>();
  if (text.empty()) {
    text = "addresses";
    for (py::ssize_t d = 0; d + 1 < a.ndim(); ++d)
      text += (d == 0 ? " " : "x") + std::to_string(a.shape(d));
    text += ", " + std::to_string(k) + " instructions";
  }
  Workload w;
  w.user = std::make_shared<ArrayWorkload>(std::move(a), std::move(b), std::move(s), text);
  w.elem_bytes = elem_bytes;
  if (elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8)
    throw UsageError("elem_bytes",
                     std::to_string(elem_bytes) + " is not allowed; allowed: 2, 4, 8");
  return w;
}

py::dict info_of(const sim::TraceInfo &t) {
  py::dict d;
  d["path"] = t.path;
  d["format"] = t.format;
  d["kernel"] = t.kernel;
  d["grid"] = py::make_tuple(t.grid[0], t.grid[1], t.grid[2]);
  d["block"] = py::make_tuple(t.block[0], t.block[1], t.block[2]);
  d["elem_bytes"] = t.elem_bytes;
  for (const auto &[key, value] :
       std::vector<std::pair<const char *, int64_t>>{{"blocks", t.blocks},
                                                     {"warps", t.warps},
                                                     {"instructions", t.instructions},
                                                     {"global_loads", t.global_loads},
                                                     {"global_stores", t.global_stores},
                                                     {"lane_accesses", t.lane_accesses},
                                                     {"skipped", t.skipped},
                                                     {"local", t.local},
                                                     {"shared", t.shared},
                                                     {"atomic", t.atomic},
                                                     {"other", t.other}})
    d[key] = value;
  return d;
}

// Thrown by the checking pass's progress when Python has a signal pending (Ctrl-C); the Python
// error is already set.
struct Interrupted {};

Workload read_trace(const std::string &path) {
  Workload w;
  try {
    py::gil_scoped_release release;
    w.user = sim::open_trace(path, [](int64_t, int64_t) {
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0)
        throw Interrupted{};
    });
  } catch (const Interrupted &) {
    throw py::error_already_set();
  } catch (const UsageError &e) { // the file at read_trace's path, named as its keyword
    throw UsageError("path", e.what());
  }
  w.elem_bytes = sim::trace_info(*w.user)->elem_bytes;
  return w;
}

// A path as Python spells one: a str or an os.PathLike (pathlib.Path), as open() takes it and
// cbi.simulate(trace=...) does; it was str only (pybind11's TypeError for a Path).
Workload read_trace_at(const py::object &path) {
  const py::object p = py::module_::import("os").attr("fspath")(path);
  if (!py::isinstance<py::str>(p))
    throw UsageError("path", "a bytes path; allowed: a str or os.PathLike path");
  return read_trace(p.cast<std::string>());
}

} // namespace

void bind_workloads(py::module_ &m) {
  m.attr("NO_ACCESS") = py::int_(sim::kNoAccess);
  py::class_<Workload>(m, "Workload",
                       R"(A workload of your own, for cbi.simulate, simulate_gpu and mrc.

    cbi.Workload(addresses, bytes=4, stores=None, elem_bytes=4, name=None): addresses[..., y, x, j]
    is the byte address that task (x, y) reads (or writes) at its instruction j, in program order;
    cbi.NO_ACCESS where the task does not run it. Axes before the last two fold into y (§4.1.2).
    Addresses are integers >= 0 (real pointers are fine: they are replayed relative to the lowest,
    rounded down to 1 MiB, as traces are).
    bytes: bytes per access, one for all or one per instruction; stores: True where instruction j
    stores (one for all or one per instruction). Pass it as cbi.simulate(workload=w, ...): the
    options it fixes (size, order, ...) are refused, as with --trace.)")
      .def(py::init(&from_addresses), py::arg("addresses"), py::arg("bytes") = 4,
           py::arg("stores") = py::none(), py::arg("elem_bytes") = 4, py::arg("name") = py::none())
      .def_property_readonly("shape",
                             [](const Workload &w) {
                               const remap::Shape<int64_t> s = w.user->task_shape();
                               return py::make_tuple(s.width, s.height);
                             })
      .def_property_readonly("instructions",
                             [](const Workload &w) { return w.user->instructions(); })
      .def_property_readonly("info",
                             [](const Workload &w) -> py::object {
                               const sim::TraceInfo *t = sim::trace_info(*w.user);
                               return t ? py::object(info_of(*t)) : py::none();
                             })
      .def_property_readonly("notes", [](const Workload &w) { return w.user->notes(); })
      .def("__repr__",
           [](const Workload &w) { return "<cbi.Workload " + w.user->describe() + ">"; });
  m.def(
      "read_trace", &read_trace_at, py::arg("path"),
      R"(A trace file (path: a str or os.PathLike) as a workload: cbi's format (cbi trace) or an Accel-Sim kernel trace
    (kernel-N.traceg), docs/traces.md. Checked whole first (ValueError with the file and line),
    replayed in bounded memory. cbi.simulate(workload=cbi.read_trace(p)) equals
    cbi.simulate(trace=p) and `cbi simulate --trace p`.)");
}

} // namespace cbi::python
