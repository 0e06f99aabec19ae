// A snak's value key, object QID and time fields: kgdiff/rows/values.py for
// the value shapes of current dumps. Errors and rarer shapes throw Defer.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "decode.hpp"
#include "pyrepr.hpp"
#include "timevalue.hpp"

namespace kgdiff {

constexpr std::string_view kSomeValue = "<somevalue>";
constexpr std::string_view kNoValue = "<novalue>";

struct ValueOut {
  OptString value_type;
  std::string key;
  bool has_qid = false;  // the key is the object QID
  bool has_time = false;
  TimeResult time;
};

inline std::string_view short_entity(std::string_view uri) {
  if (uri.substr(0, kEntityUri.size()) == kEntityUri) uri.remove_prefix(kEntityUri.size());
  return uri;
}

// f"{x}" of a Python ``str | None``.
inline void append_text(std::string& out, const OptString& text) {
  out += text ? *text : std::string_view("None");
}

inline void append_coordinate(std::string& out, const std::optional<double>& number) {
  number ? append_float_repr(out, *number) : void(out += "None");
}

inline void entity_key(const ValueFieldsView& fields, ValueOut& out) {
  if (fields.id && !fields.id->empty()) {
    out.key = *fields.id;
  } else {
    std::string_view kind = fields.entity_type && !fields.entity_type->empty()
                                ? *fields.entity_type
                                : std::string_view("item");
    char prefix = equals(kind, "item")       ? 'Q'
                  : equals(kind, "property") ? 'P'
                  : equals(kind, "lexeme")   ? 'L'
                                             : 0;
    if (prefix == 0 || !fields.numeric_id) throw Defer{};  // "entity id missing"
    out.key = prefix + std::to_string(*fields.numeric_id);
  }
  out.has_qid = true;
}

inline void time_key(const ValueFieldsView& fields, ValueOut& out) {
  double precision = fields.precision ? *fields.precision : 11.0;
  if (!(precision > -1.0 && precision < 15.0)) throw Defer{};  // int() then 0..14
  std::string_view model = fields.calendarmodel ? *fields.calendarmodel : kGregorian;
  std::string_view raw = fields.time ? *fields.time : std::string_view();
  if (!parse_time(raw, static_cast<int>(std::trunc(precision)), model, out.time)) throw Defer{};
  out.key = out.time.key;
  out.has_time = true;
}

inline void quantity_key(const ValueFieldsView& fields, ValueOut& out) {
  std::string& key = out.key;
  if (fields.amount) {
    std::string_view amount = *fields.amount;
    if (!amount.empty() && amount[0] != '+' && amount[0] != '-') key += '+';
    key += amount;
  }
  std::string_view unit = fields.unit ? short_entity(*fields.unit) : std::string_view();
  key += '|';
  key += unit.empty() ? std::string_view("1") : unit;
}

inline void coordinate_key(const ValueFieldsView& fields, ValueOut& out) {
  append_coordinate(out.key, fields.latitude);
  out.key += ',';
  append_coordinate(out.key, fields.longitude);
  out.key += ',';
  std::string_view globe = fields.globe ? short_entity(*fields.globe) : std::string_view();
  out.key += globe.empty() ? std::string_view("Q2") : globe;
}

inline void structured_key(std::string_view type, const ValueFieldsView& fields, ValueOut& out) {
  if (equals(type, "wikibase-entityid")) {
    entity_key(fields, out);
  } else if (equals(type, "time")) {
    time_key(fields, out);
  } else if (equals(type, "quantity")) {
    quantity_key(fields, out);
  } else if (equals(type, "monolingualtext")) {
    append_text(out.key, fields.language);
    out.key += ':';
    append_text(out.key, fields.text);
  } else if (equals(type, "globecoordinate")) {
    coordinate_key(fields, out);
  } else {
    throw Defer{};  // other structured types: JSON-encoded by the Python path
  }
}

inline void snak_value(const SnakView& snak, ValueOut& out) {
  out.value_type.reset();
  out.key.clear();
  out.has_qid = out.has_time = false;
  if (snak.snaktype != "value") {
    out.key = equals(snak.snaktype, "somevalue") ? kSomeValue : kNoValue;
    return;
  }
  if (!snak.has_datavalue) throw Defer{};  // "value snak without datavalue"
  out.value_type = snak.value_type;
  if (snak.kind == ValueKind::String) {
    out.key = snak.text;
  } else {
    structured_key(snak.value_type, snak.fields, out);
  }
}

}  // namespace kgdiff
