// One entity's JSON → rows of the five part tables (kgdiff/rows/buffers.py,
// statements.py and terms.py for entities of the canonical serialisation).
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include "decode.hpp"
#include "tables.hpp"
#include "values.hpp"

namespace kgdiff {

enum TermKind : int8_t { kLabel = 0, kDescription = 1, kAlias = 2, kLemma = 3 };

struct Bound {
  std::optional<int32_t> lo, hi;
  OptString snaktype;
  bool seen = false;
};

class EntityWalk {
 public:
  explicit EntityWalk(Tables& tables) : t_(tables) {}

  // Append the rows of one entity; returns its statement count. Throws Defer.
  int add(element root, int64_t source_line);

 private:
  Tables& t_;
  KeySet keys_;
  ValueOut value_;
  int32_t index_ = 0;
  std::string_view subject_;

  void value_columns(ValueColumns& columns, const SnakView& snak, const ValueOut& value);
  void terms(std::optional<object> map, int8_t kind, OptString& english);
  void aliases(std::optional<object> map, bool& has_en);
  int sitelinks(std::optional<object> map);
  int statements(std::optional<object> groups);
  void statement(element value, std::string_view pid, int32_t ordinal);
  int32_t qualifier_rows(object qualifiers, std::vector<std::string_view>& order, OptString sid,
                         std::string_view pid, std::array<Bound, 3>& bounds);
};

inline void add_optional(StringColumn& column, const OptString& text) {
  text ? column.add(*text) : column.add_null();
}

inline void EntityWalk::value_columns(ValueColumns& columns, const SnakView& snak,
                                      const ValueOut& value) {
  columns.snaktype.add(snak.snaktype);
  add_optional(columns.datatype, snak.datatype);
  add_optional(columns.value_type, value.value_type);
  columns.value.add(value.key);
  value.has_qid ? columns.object_qid.add(value.key) : columns.object_qid.add_null();
  if (value.has_time) {
    columns.precision.add(static_cast<int8_t>(value.time.precision));
    columns.calendar.add(value.time.calendar);
    columns.lo.add(value.time.lo);
    columns.hi.add(value.time.hi);
  } else {
    columns.precision.add_null(), columns.calendar.add_null();
    columns.lo.add_null(), columns.hi.add_null();
  }
}

inline std::string_view term_value(element term) {
  uint32_t seen = 0;
  std::string_view value = "";
  for (auto field : need_object(term)) {
    if (equals(field.key, "value")) {
      see_field(seen, 0);
      value = need_string(field.value);
    }
  }
  return value;
}

inline void EntityWalk::terms(std::optional<object> map, int8_t kind, OptString& english) {
  if (!map) return;
  for (const auto& [lang, term] : sorted_fields(*map)) {
    std::string_view value = term_value(term);
    if (equals(lang, "en")) english = value;
    t_.labels.entity.add(index_), t_.labels.kind.add(kind);
    t_.labels.lang.add(lang), t_.labels.value.add(value), t_.labels.ordinal.add(0);
  }
}

inline void EntityWalk::aliases(std::optional<object> map, bool& has_en) {
  if (!map) return t_.entities.aliases_en.add_null();
  std::vector<std::string_view> english;
  for (const auto& [lang, terms] : sorted_fields(*map)) {
    int32_t ordinal = 0;
    bool en = equals(lang, "en");
    has_en = has_en || en;
    for (element term : need_array(terms)) {
      std::string_view value = term_value(term);
      if (en) english.push_back(value);
      t_.labels.entity.add(index_), t_.labels.kind.add(kAlias);
      t_.labels.lang.add(lang), t_.labels.value.add(value);
      t_.labels.ordinal.add(ordinal++);
    }
  }
  if (!has_en) return t_.entities.aliases_en.add_null();
  for (std::string_view value : english) t_.entities.aliases_en.add_item(value);
  t_.entities.aliases_en.end_list();
}

inline int EntityWalk::sitelinks(std::optional<object> map) {
  if (!map) return 0;
  int count = 0;
  for (const auto& [site, link] : sorted_fields(*map)) {
    std::string_view title = "";
    std::optional<array> badges;
    uint32_t seen = 0;
    for (auto part : need_object(link)) {
      if (equals(part.key, "title")) {
        see_field(seen, 0);
        title = need_string(part.value);
      } else if (equals(part.key, "badges")) {
        see_field(seen, 1);
        badges = need_array(part.value);
      }
    }
    t_.sitelinks.entity.add(index_), t_.sitelinks.site.add(site);
    t_.sitelinks.title.add(title);
    // No badges is an empty list, as published (not null, which finalize would replace).
    if (badges)
      for (element badge : *badges) t_.sitelinks.badges.add_item(need_string(badge));
    t_.sitelinks.badges.end_list();
    ++count;
  }
  return count;
}

}  // namespace kgdiff
