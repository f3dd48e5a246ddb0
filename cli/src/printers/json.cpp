// JSON through nlohmann-json (typing and escaping done by the library): {"title", "context": {cbi
// version, commit, command, date, host, compiler}, "config": {...}, "meta": {...},
// "rows": [{column: value, ...}], "notes": [...]}, keys in the table's order; NaN is null. The
// table's json_groups, json_rows and json_single_row shape the rows (output.hpp).
#include "printers.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

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

// One row as an object: grouped columns nested under their group's name (at the place of the
// group's first column), the others flat, in the table's column order.
nlohmann::ordered_json json_row(const Table &t, const std::vector<Cell> &row) {
  nlohmann::ordered_json r = nlohmann::ordered_json::object();
  for (std::size_t c = 0; c < row.size() && c < t.columns.size(); ++c) {
    const std::string &name = t.columns[c];
    const auto group = std::find_if(t.json_groups.begin(), t.json_groups.end(), [&](const auto &g) {
      return std::find(g.columns.begin(), g.columns.end(), name) != g.columns.end();
    });
    if (group == t.json_groups.end()) {
      if (r.contains(name))
        throw std::logic_error("JSON key '" + name + "' is both a column and a group");
      r[name] = json_cell(row[c]);
    } else {
      if (r.contains(group->name) && !r[group->name].is_object())
        throw std::logic_error("JSON key '" + group->name + "' is both a column and a group");
      r[group->name][name] = json_cell(row[c]);
    }
  }
  return r;
}

class JsonPrinter final : public Printer {
  const char *do_name() const override { return "json"; }

  void do_print(std::ostream &os, const Table &t) const override {
    nlohmann::ordered_json j;
    j["title"] = t.title;
    j["context"] = json_fields(run_context());
    if (!t.config.empty())
      j["config"] = json_fields(t.config);
    if (t.json_single_row) {
      if (t.rows.size() != 1)
        throw std::logic_error("json_single_row with " + std::to_string(t.rows.size()) + " rows");
      const nlohmann::ordered_json row = json_row(t, t.rows.front());
      for (auto it = row.begin(); it != row.end(); ++it) {
        if (j.contains(it.key()) || it.key() == "meta" || it.key() == "notes")
          throw std::logic_error("JSON key '" + it.key() + "' is both a column and a document key");
        j[it.key()] = it.value();
      }
    }
    j["meta"] = json_fields(t.meta);
    if (!t.json_single_row) {
      j[t.json_rows] = nlohmann::ordered_json::array();
      for (const auto &row : t.rows)
        j[t.json_rows].push_back(json_row(t, row));
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
