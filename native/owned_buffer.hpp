// Column buffers handed to Python without a copy: a small Python object takes over the
// container that holds the bytes and lends them through the buffer protocol, which Arrow
// wraps as it is (pa.py_buffer). Copying every column into a bytes object instead cost a
// pass over all the rows of a chunk.
#pragma once

#include <Python.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kgdiff {

struct Holder {
  virtual ~Holder() = default;
  const void* data = nullptr;
  Py_ssize_t size = 0;
};

template <typename Container>
struct HolderOf : Holder {
  Container container;
  explicit HolderOf(Container&& moved) : container(std::move(moved)) {
    data = container.data();
    size = static_cast<Py_ssize_t>(container.size() * sizeof(typename Container::value_type));
  }
};

// A new reference to a buffer object owning ``holder`` (deleted on failure); owned_buffer.cpp.
PyObject* wrap_holder(Holder* holder);
// Registers the buffer type; false (with a Python error set) on failure.
bool ready_owned_buffers();

// The bytes of ``container`` as a Python buffer object, the container moved into it.
template <typename Container>
PyObject* lend(Container&& container) {
  if (container.empty()) return PyBytes_FromStringAndSize("", 0);
  return wrap_holder(new HolderOf<std::decay_t<Container>>(std::move(container)));
}

}  // namespace kgdiff
