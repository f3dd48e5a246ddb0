// A workload of your own (cbi/sim/user_workload.hpp) behind the built-ins' static interface, so
// that every engine's visit_workload takes it: its kind is kUserWorkloadKind, and Workload::user
// holds the object. Not in WorkloadTypes: it has no --workload name, no window and no thesis model.
#pragma once

#include "cbi/error.hpp"
#include "cbi/sim/model_types.hpp"
#include "cbi/sim/user_workload.hpp"
#include "cbi/sim/workload_params.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cbi::sim {

// The Workload that runs `user`. elem_bytes (2, 4 or 8) is the element size that byte counts and
// cache units are checked against: each access counts as one access per cache unit it touches, and
// L1 bytes are accesses x elem_bytes.
inline Workload make_workload(std::shared_ptr<const UserWorkload> user, int elem_bytes = 4) {
  Workload w;
  w.kind = kUserWorkloadKind;
  w.elem_bytes = elem_bytes;
  if (user) {
    const remap::Shape<int64_t> s = user->task_shape();
    w.width = s.width;
    w.height = s.height;
  }
  w.user = std::move(user);
  return w;
}

class UserWorkloadAdapter {
public:
  static constexpr const char *name = "user";
  static constexpr int size_dims = 2;
  static constexpr bool has_window = false;
  static constexpr bool has_depth = false;
  static constexpr bool has_block_order = false;
  static constexpr const char *kernel = nullptr; // no CUDA kernel of cbi runs it
  static constexpr bool has_boundary = false;
  static constexpr int64_t table_lines = 24;
  // The GPU model's arithmetic bound: one address instruction per load (nothing is known of the
  // kernel's arithmetic).
  static constexpr double address_ops_per_load = 1.0;
  static constexpr const char *window_name = "column";

  static void validate(const Workload &w) {
    if (!w.user)
      throw UsageError("workload.user", "no workload object; allowed: make_workload(object)");
    if (w.writes)
      throw UsageError("workload.writes", "a workload of your own stores through its own "
                                          "instructions; allowed: writes off");
    const std::vector<int64_t> dims = w.user->task_dims();
    if (dims.empty())
      throw UsageError("workload.size", "no task extents; allowed: 1 or more positive extents");
    for (int64_t d : dims)
      if (d < 1)
        throw UsageError("workload.size", "task extents must be positive; allowed: >= 1");
    if (w.user->instructions() < 1)
      throw UsageError("workload.instructions",
                       "a task needs at least one memory instruction; allowed: >= 1");
    if (w.user->block_threads() < 0)
      throw UsageError("workload.block_threads", "must be 0 or positive");
  }
  static remap::Shape<int64_t> task_shape(const Workload &w) { return w.user->task_shape(); }
  static int64_t loads_per_task(const Workload &w) { return w.user->instructions(); }
  static int64_t fp_ops_per_task(const Workload &) { return 0; }
  static int64_t input_bytes(const Workload &w) { return w.user->footprint_bytes(); }
  static std::string describe(const Workload &w) { return w.user->describe(); }
  static std::vector<ArrayLabel> arrays(const Workload &w) {
    const int64_t row_bytes = 1024;
    const int64_t bytes = w.user->footprint_bytes();
    if (bytes <= 0)
      return {};
    return {{"memory", 0, (bytes + row_bytes - 1) / row_bytes, row_bytes / w.elem_bytes}};
  }
  static void model(const ModelContext &ctx) {
    ctx.note("a workload of your own has no analytical model; compare orders by simulation");
  }
  static WindowColumn window_column(const Workload &w, int64_t x) { return {x, w.width, 1}; }

  explicit UserWorkloadAdapter(const Workload &w) : m_user(w.user.get()) {}

  int64_t loads() const { return m_user->instructions(); }
  // Instruction j of `n` lanes, the inactive ones (kNoAccess) left out: the active lanes' addresses
  // packed into byte_addr[0..k), k returned; `kind` gets what the instruction does.
  int lane_instruction(const remap::Task<int64_t> *lanes, int n, int64_t j, uint64_t *byte_addr,
                       InstructionKind &kind) const {
    kind = m_user->addresses(lanes, n, j, byte_addr);
    int k = 0;
    for (int l = 0; l < n; ++l)
      if (byte_addr[l] != kNoAccess)
        byte_addr[k++] = byte_addr[l];
    return k;
  }
  // One lane's instruction (tools and tests; the engines use the batches).
  MemAccess load(remap::Task<int64_t> t, int64_t j) const {
    uint64_t a = 0;
    const InstructionKind k = m_user->addresses(&t, 1, j, &a);
    return {a, k.bytes, k.is_store};
  }
  const UserWorkload &user() const { return *m_user; }

private:
  const UserWorkload *m_user;
};

} // namespace cbi::sim
