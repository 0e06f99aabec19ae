// Column builders for Arrow arrays: values, offsets and one validity byte per row.
// Python turns the buffers into Arrow arrays without touching the rows
// (kgdiff/rows/native.py). Validity is kept as bytes, not bits, so that
// dropping the rows of a deferred entity is a plain resize.
#pragma once

#include <Python.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "owned_buffer.hpp"

namespace kgdiff {

// An Arrow validity bitmap (bit i of byte i / 8, least significant first), or None
// when every row is valid.
inline PyObject* bitmap_of(const std::vector<uint8_t>& valid) {
  bool all_valid = true;
  for (uint8_t v : valid) all_valid = all_valid && v;
  if (all_valid) Py_RETURN_NONE;
  std::string bits((valid.size() + 7) / 8, '\0');
  for (size_t i = 0; i < valid.size(); ++i)
    if (valid[i]) bits[i / 8] = static_cast<char>(bits[i / 8] | (1 << (i % 8)));
  return lend(std::move(bits));
}

class StringColumn {
 public:
  void add(std::string_view value) {
    data_.append(value.data(), value.size());
    offsets_.push_back(static_cast<int32_t>(data_.size()));
    valid_.push_back(1);
  }
  void add_null() {
    offsets_.push_back(static_cast<int32_t>(data_.size()));
    valid_.push_back(0);
  }
  void add_optional(const std::string_view* value) { value ? add(*value) : add_null(); }
  size_t size() const { return valid_.size(); }
  bool overflowing() const { return data_.size() > 0x7fff0000u; }
  void truncate(size_t rows) {
    offsets_.resize(rows + 1);
    data_.resize(static_cast<size_t>(offsets_.back()));
    valid_.resize(rows);
  }
  // (validity bitmap or None, offsets, data): the layout of an Arrow string array. The
  // column hands its buffers over: it is empty afterwards.
  PyObject* to_python() {
    return Py_BuildValue("(NNN)", bitmap_of(valid_), lend(std::move(offsets_)),
                         lend(std::move(data_)));
  }

 private:
  std::string data_;
  std::vector<int32_t> offsets_{0};
  std::vector<uint8_t> valid_;
};

template <typename T>
class NumberColumn {
 public:
  void add(T value) {
    values_.push_back(value);
    valid_.push_back(1);
  }
  void add_null() {
    values_.push_back(T{});
    valid_.push_back(0);
  }
  size_t size() const { return valid_.size(); }
  void truncate(size_t rows) {
    values_.resize(rows);
    valid_.resize(rows);
  }
  // (validity bitmap or None, values): the layout of an Arrow fixed-width array.
  PyObject* to_python() {
    return Py_BuildValue("(NN)", bitmap_of(valid_), lend(std::move(values_)));
  }

 private:
  std::vector<T> values_;
  std::vector<uint8_t> valid_;
};

// A list<string> column whose list entries are never null.
class StringListColumn {
 public:
  void add_item(std::string_view item) { items_.add(item); }
  void end_list() {
    offsets_.push_back(static_cast<int32_t>(items_.size()));
    valid_.push_back(1);
  }
  void add_null() {
    offsets_.push_back(static_cast<int32_t>(items_.size()));
    valid_.push_back(0);
  }
  size_t size() const { return valid_.size(); }
  void truncate(size_t rows) {
    offsets_.resize(rows + 1);
    items_.truncate(static_cast<size_t>(offsets_.back()));
    valid_.resize(rows);
  }
  // (validity bitmap or None, list offsets, (item validity, item offsets, item data)).
  PyObject* to_python() {
    return Py_BuildValue("(NNN)", bitmap_of(valid_), lend(std::move(offsets_)),
                         items_.to_python());
  }

 private:
  StringColumn items_;
  std::vector<int32_t> offsets_{0};
  std::vector<uint8_t> valid_;
};

}  // namespace kgdiff
