// The Python type behind kgdiff::lend (owned_buffer.hpp): read-only bytes it owns.
#define PY_SSIZE_T_CLEAN
#include "owned_buffer.hpp"

namespace {

struct OwnedBuffer {
  PyObject_HEAD kgdiff::Holder* holder;
};

int get_buffer(PyObject* self, Py_buffer* view, int flags) {
  kgdiff::Holder* holder = reinterpret_cast<OwnedBuffer*>(self)->holder;
  return PyBuffer_FillInfo(view, self, const_cast<void*>(holder->data), holder->size, 1, flags);
}

void dealloc(PyObject* self) {
  delete reinterpret_cast<OwnedBuffer*>(self)->holder;
  PyObject_Free(self);
}

PyBufferProcs buffer_procs = {get_buffer, nullptr};

PyTypeObject buffer_type = [] {
  PyTypeObject type{PyVarObject_HEAD_INIT(nullptr, 0)};
  type.tp_name = "kgdiff._native.Buffer";
  type.tp_doc = "Bytes of a column built by the native row builder (read-only).";
  type.tp_basicsize = sizeof(OwnedBuffer);
  type.tp_dealloc = dealloc;
  type.tp_as_buffer = &buffer_procs;
  type.tp_flags = Py_TPFLAGS_DEFAULT;
  return type;
}();

}  // namespace

namespace kgdiff {

PyObject* wrap_holder(Holder* holder) {
  OwnedBuffer* object = PyObject_New(OwnedBuffer, &buffer_type);
  if (object == nullptr) {
    delete holder;
    return nullptr;
  }
  object->holder = holder;
  return reinterpret_cast<PyObject*>(object);
}

bool ready_owned_buffers() { return PyType_Ready(&buffer_type) == 0; }

}  // namespace kgdiff
