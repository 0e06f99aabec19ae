// Typed views of an entity's JSON, checked the way msgspec checks the structs of
// kgdiff/readers/entity_model.py. Whatever msgspec would refuse, or decode in a
// way these views do not model (duplicate keys, numbers where strings may be,
// integers beyond int64), throws Defer: the Python path then decides.
#pragma once

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace kgdiff {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;
using OptString = std::optional<std::string_view>;

struct Defer {};

// ``text == literal``, with the literal's length known when compiling: the compiler then
// compares a word or two inline where ``string_view ==`` calls memcmp with a length known
// only at run time (the walk compares every JSON key it meets with a few names).
template <size_t N>
inline bool equals(std::string_view text, const char (&literal)[N]) {
  return text.size() == N - 1 && std::memcmp(text.data(), literal, N - 1) == 0;
}

inline std::string_view need_string(element value) {
  std::string_view text;
  if (value.get_string().get(text)) throw Defer{};
  return text;
}

inline OptString optional_string(element value) {
  if (value.is_null()) return std::nullopt;
  return need_string(value);
}

inline std::optional<int64_t> optional_int(element value) {
  if (value.is_null()) return std::nullopt;
  int64_t number;
  if (value.type() != element_type::INT64 || value.get_int64().get(number)) throw Defer{};
  return number;
}

// A msgspec ``float | None``: JSON integers become floats.
inline std::optional<double> optional_float(element value) {
  switch (value.type()) {
    case element_type::NULL_VALUE:
      return std::nullopt;
    case element_type::INT64: {
      int64_t number = 0;
      if (value.get_int64().get(number)) throw Defer{};
      return static_cast<double>(number);
    }
    case element_type::DOUBLE: {
      double number = 0;
      if (value.get_double().get(number)) throw Defer{};
      return number;
    }
    default:
      throw Defer{};
  }
}

inline object need_object(element value) {
  object result;
  if (value.get_object().get(result)) throw Defer{};
  return result;
}

inline array need_array(element value) {
  array result;
  if (value.get_array().get(result)) throw Defer{};
  return result;
}

// A ``dict[...] | list[Any]`` field: the object, or nothing for a JSON array (PHP's empty map).
inline std::optional<object> map_or_list(element value) {
  if (value.type() == element_type::ARRAY) return std::nullopt;
  return need_object(value);
}

// Marks a struct field as seen; a second occurrence is a duplicate key.
inline void see_field(uint32_t& seen, int bit) {
  if (seen & (1u << bit)) throw Defer{};
  seen |= 1u << bit;
}

using Field = std::pair<std::string_view, element>;

// The first eight bytes of ``key``, big-endian, zero-padded: comparing two of these orders
// keys as a bytewise comparison of their first eight bytes would, so only keys that share
// them (rare for language codes, site ids and property ids) need a full comparison.
inline uint64_t key_prefix(std::string_view key) {
  uint64_t prefix = 0;
  size_t length = key.size() < 8 ? key.size() : 8;
  for (size_t i = 0; i < length; ++i)
    prefix |= uint64_t(static_cast<uint8_t>(key[i])) << (56 - 8 * i);
  return prefix;
}

// A map's fields in key order (bytewise, as Arrow compares strings): each entity's rows
// leave the walk in the order of the published tables, so finalize only orders entities.
// A repeated key makes the entity the Python path's, as with KeySet. Sorting on the
// integer prefix first: comparing whole keys with memcmp took ~2.5 % of an ingest's CPU
// time (perf, 2-worker ingest of the bench dump), the prefixes ~0.1 %.
inline std::vector<Field> sorted_fields(object map) {
  struct Keyed {
    uint64_t prefix;
    Field field;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(map.size());
  for (auto field : map) keyed.push_back({key_prefix(field.key), {field.key, field.value}});
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    return a.prefix != b.prefix ? a.prefix < b.prefix : a.field.first < b.field.first;
  });
  std::vector<Field> fields;
  fields.reserve(keyed.size());
  for (size_t i = 0; i < keyed.size(); ++i) {
    if (i && keyed[i].prefix == keyed[i - 1].prefix &&
        keyed[i].field.first == keyed[i - 1].field.first)
      throw Defer{};
    fields.push_back(keyed[i].field);
  }
  return fields;
}

// Python dicts keep one entry per key: maps with a repeated key are the Python path's.
// An open-addressing set of the keys (short language codes, site ids, property ids):
// far cheaper than sorting them.
class KeySet {
 public:
  void check_unique(object map) {
    size_t size = map.size();
    if (size < 2) return;
    size_t capacity = 16;
    while (capacity < 2 * size) capacity <<= 1;
    slots_.assign(capacity, std::string_view());
    for (auto field : map) {
      std::string_view key = field.key;
      size_t slot = hash(key) & (capacity - 1);
      while (slots_[slot].data() != nullptr) {  // keys point into the parsed document
        if (slots_[slot] == key) throw Defer{};
        slot = (slot + 1) & (capacity - 1);
      }
      slots_[slot] = key;
    }
  }

 private:
  std::vector<std::string_view> slots_;
  static uint64_t hash(std::string_view key) {
    uint64_t h = 14695981039346656037ull;  // FNV-1a
    for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
    return h;
  }
};

struct ValueFieldsView {
  OptString id, entity_type, time, calendarmodel, amount, unit, text, language, globe;
  std::optional<int64_t> numeric_id;
  std::optional<double> precision, latitude, longitude;
};

inline ValueFieldsView decode_value_fields(object fields) {
  static const std::pair<std::string_view, int> names[] = {
      {"id", 0},        {"entity-type", 1}, {"time", 2},     {"calendarmodel", 3},
      {"amount", 4},    {"unit", 5},        {"text", 6},     {"language", 7},
      {"globe", 8},     {"numeric-id", 9},  {"precision", 10}, {"latitude", 11},
      {"longitude", 12}};
  ValueFieldsView view;
  OptString* strings[] = {&view.id,     &view.entity_type, &view.time, &view.calendarmodel,
                          &view.amount, &view.unit,        &view.text, &view.language,
                          &view.globe};
  std::optional<double>* floats[] = {&view.precision, &view.latitude, &view.longitude};
  uint32_t seen = 0;
  for (auto field : fields) {
    for (const auto& [name, bit] : names) {
      if (field.key != name) continue;
      see_field(seen, bit);
      if (bit < 9) {
        *strings[bit] = optional_string(field.value);  // a numeric amount is the Python path's
      } else if (bit == 9) {
        view.numeric_id = optional_int(field.value);
      } else {
        *floats[bit - 10] = optional_float(field.value);
      }
      break;
    }
  }
  return view;
}

enum class ValueKind { String, Fields };

struct SnakView {
  std::string_view snaktype = "value", property = "";
  OptString datatype;
  bool has_datavalue = false;
  std::string_view value_type = "";
  ValueKind kind = ValueKind::String;
  std::string_view text;  // kind String
  ValueFieldsView fields;  // kind Fields
};

inline void decode_datavalue(element value, SnakView& snak) {
  if (value.is_null()) return;
  snak.has_datavalue = true;
  uint32_t seen = 0;
  bool has_value = false;
  for (auto field : need_object(value)) {
    if (equals(field.key, "type")) {
      see_field(seen, 0);
      snak.value_type = need_string(field.value);
    } else if (equals(field.key, "value")) {
      see_field(seen, 1);
      has_value = true;
      if (field.value.type() == element_type::STRING) {
        snak.kind = ValueKind::String;
        snak.text = need_string(field.value);
      } else {  // objects are value fields; numbers, lists and null are the Python path's
        snak.kind = ValueKind::Fields;
        snak.fields = decode_value_fields(need_object(field.value));
      }
    }
  }
  if (!has_value) throw Defer{};
}

inline SnakView decode_snak(element value) {
  SnakView snak;
  uint32_t seen = 0;
  for (auto field : need_object(value)) {
    std::string_view key = field.key;
    if (equals(key, "snaktype")) {
      see_field(seen, 0);
      snak.snaktype = need_string(field.value);
    } else if (equals(key, "property")) {
      see_field(seen, 1);
      snak.property = need_string(field.value);
    } else if (equals(key, "datatype")) {
      see_field(seen, 2);
      snak.datatype = optional_string(field.value);
    } else if (equals(key, "datavalue")) {
      see_field(seen, 3);
      decode_datavalue(field.value, snak);
    }
  }
  return snak;
}

}  // namespace kgdiff
