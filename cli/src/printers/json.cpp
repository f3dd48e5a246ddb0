// JSON through nlohmann-json (typing and escaping done by the library): {"title", "context": {cbi
// version, commit, command, date, host, compiler}, "meta": {...},
// "rows": [{column: value, ...}], "notes": [...]}, keys in the table's order; NaN is null.
#include "printers.hpp"

#include <nlohmann/json.hpp>

namespace cbi::cli::detail {

namespace {

nlohmann::ordered_json json_cell(const Cell &c) {
  return std::visit([](const auto &v) { return nlohmann::ordered_json(v); }, c);
}

class JsonPrinter final : public Printer {
  const char *do_name() const override { return "json"; }

  void do_print(std::ostream &os, const Table &t) const override {
    nlohmann::ordered_json j;
    j["title"] = t.title;
    j["context"] = nlohmann::ordered_json::object();
    for (const auto &[k, v] : run_context())
      j["context"][k] = json_cell(v);
    j["meta"] = nlohmann::ordered_json::object();
    for (const auto &[k, v] : t.meta)
      j["meta"][k] = v;
    j["rows"] = nlohmann::ordered_json::array();
    for (const auto &row : t.rows) {
      nlohmann::ordered_json r = nlohmann::ordered_json::object();
      for (std::size_t c = 0; c < row.size() && c < t.columns.size(); ++c)
        r[t.columns[c]] = json_cell(row[c]);
      j["rows"].push_back(std::move(r));
    }
    if (!t.notes.empty())
      j["notes"] = t.notes;
    os << j.dump(2) << "\n";
  }
};

} // namespace

const Printer &json_printer() {
  static const JsonPrinter p;
  return p;
}

} // namespace cbi::cli::detail
