// JSON through nlohmann-json (typing and escaping done by the library): {"title", "context": {cbi
// version, commit, command, date, host, compiler}, "meta": {...},
// "rows": [{column: value, ...}], "notes": [...]}, keys in the table's order; NaN is null.
#include "printers.hpp"

#include <nlohmann/json.hpp>

namespace cbi::cli::detail {

namespace {

// A missing value (an empty text cell) and NaN are null; numbers stay numbers.
nlohmann::ordered_json json_cell(const Cell &c) {
  if (const auto *s = std::get_if<std::string>(&c); s && s->empty())
    return nullptr;
  return std::visit([](const auto &v) { return nlohmann::ordered_json(v); }, c);
}

nlohmann::ordered_json json_fields(const Fields &fields) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto &[k, v] : fields)
    j[k] = json_cell(v);
  return j;
}

class JsonPrinter final : public Printer {
  const char *do_name() const override { return "json"; }

  void do_print(std::ostream &os, const Table &t) const override {
    nlohmann::ordered_json j;
    j["title"] = t.title;
    j["context"] = json_fields(run_context());
    if (!t.config.empty())
      j["config"] = json_fields(t.config);
    j["meta"] = json_fields(t.meta);
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
