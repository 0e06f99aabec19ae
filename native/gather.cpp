// gather_runs(kind, width, chunks, chunk_ids, starts, lengths, rows): the Python side of
// gather.hpp. ``chunks`` is a sequence of (validity or None, values, data or None, offset,
// length) per chunk of the column, the buffers being Arrow buffers; ``chunk_ids`` (int32),
// ``starts`` and ``lengths`` (int64) describe the runs, ``rows`` is their total length.
// ``kind`` is 0 for fixed-width values of ``width`` bytes, 1 for strings (int32 offsets and
// data), 2 for the offsets of a list column. Returns (validity or None, values or offsets,
// data or None) as bytes, the buffers of the gathered array.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <memory>
#include <new>
#include <utility>
#include <stdexcept>

#include "gather.hpp"

namespace {

using kgdiff::ChunkView;

// Py_buffer views held for the duration of a call.
class Views {
 public:
  ~Views() {
    for (auto& view : views_) PyBuffer_Release(view.get());
  }
  // The address of ``object``'s bytes (nullptr for None); needs ``min_bytes`` of them.
  const uint8_t* get(PyObject* object, Py_ssize_t min_bytes) {
    if (object == Py_None) return nullptr;
    auto view = std::make_unique<Py_buffer>();
    if (PyObject_GetBuffer(object, view.get(), PyBUF_SIMPLE) != 0) throw std::invalid_argument("");
    views_.push_back(std::move(view));
    if (views_.back()->len < min_bytes) throw std::out_of_range("a buffer is too short");
    return static_cast<const uint8_t*>(views_.back()->buf);
  }

 private:
  std::vector<std::unique_ptr<Py_buffer>> views_;
};

// A reference released when the call ends, whichever way (the outputs, until returned).
struct Owned {
  PyObject* object = nullptr;
  ~Owned() { Py_XDECREF(object); }
  PyObject* release() { return std::exchange(object, nullptr); }
};

std::vector<ChunkView> read_chunks(PyObject* sequence, Views& views) {
  Owned fast{PySequence_Fast(sequence, "chunks must be a sequence")};
  if (fast.object == nullptr) throw std::invalid_argument("");
  std::vector<ChunkView> chunks;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast.object); ++i) {
    PyObject *validity, *values, *data;
    ChunkView chunk;
    if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast.object, i), "OOOLL", &validity, &values,
                          &data, &chunk.offset, &chunk.length))
      throw std::invalid_argument("");
    chunk.validity = views.get(validity, (chunk.offset + chunk.length + 7) / 8);
    chunk.values = views.get(values, 0);
    chunk.data = views.get(data, 0);
    chunks.push_back(chunk);
  }
  return chunks;
}

// A bytes object of ``size`` bytes for the gather to fill (not initialised: every byte is
// written), with its address.
PyObject* output(Py_ssize_t size, char** at) {
  PyObject* out = PyBytes_FromStringAndSize(nullptr, size);
  if (out == nullptr) throw std::bad_alloc();
  *at = PyBytes_AS_STRING(out);
  return out;
}

// Releases the GIL for the lifetime of the object.
struct Unlocked {
  PyThreadState* state = PyEval_SaveThread();
  ~Unlocked() { PyEval_RestoreThread(state); }
};

PyObject* gather(int kind, Py_ssize_t width, PyObject* chunk_list, PyObject* ids, PyObject* starts,
                 PyObject* lengths, long long rows) {
  Views views;
  std::vector<ChunkView> chunks = read_chunks(chunk_list, views);
  Py_ssize_t count = PyObject_Length(ids);
  if (count < 0) throw std::invalid_argument("");
  kgdiff::Runs runs{reinterpret_cast<const int32_t*>(views.get(ids, count * 4)),
                    reinterpret_cast<const int64_t*>(views.get(starts, count * 8)),
                    reinterpret_cast<const int64_t*>(views.get(lengths, count * 8)),
                    static_cast<size_t>(count), rows};
  kgdiff::check_runs(chunks, runs);
  if (kind == 0 && width <= 0) throw std::invalid_argument("width must be positive");
  bool nulls = false;
  for (const ChunkView& chunk : chunks) nulls = nulls || chunk.validity != nullptr;
  // The output objects are made with the GIL held; the copying runs without it, so the
  // finalize's sort threads gather at the same time (Arrow's take releases it too).
  Owned validity, values, data;
  char *bits = nullptr, *at = nullptr, *text = nullptr;
  if (nulls) validity.object = output((rows + 7) / 8, &bits);
  if (kind == 1) data.object = output(kgdiff::gathered_bytes(chunks, runs), &text);
  values.object = output(kind == 0 ? rows * width : (rows + 1) * 4, &at);
  {
    Unlocked unlocked;
    if (bits != nullptr) kgdiff::gather_validity(chunks, runs, reinterpret_cast<uint8_t*>(bits));
    if (kind == 0)
      kgdiff::gather_fixed(chunks, runs, static_cast<size_t>(width), at);
    else
      kgdiff::gather_offsets(chunks, runs, reinterpret_cast<int32_t*>(at), text);
  }
  PyObject* none_or_validity = validity.object ? validity.release() : Py_NewRef(Py_None);
  PyObject* none_or_data = data.object ? data.release() : Py_NewRef(Py_None);
  return Py_BuildValue("(NNN)", none_or_validity, values.release(), none_or_data);
}

}  // namespace

PyObject* kgdiff_gather_runs(PyObject*, PyObject* args) {
  int kind;
  Py_ssize_t width;
  PyObject *chunks, *ids, *starts, *lengths;
  long long rows;
  if (!PyArg_ParseTuple(args, "inOOOOL", &kind, &width, &chunks, &ids, &starts, &lengths, &rows))
    return nullptr;
  try {
    return gather(kind, width, chunks, ids, starts, lengths, rows);
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  } catch (const std::exception& exc) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, exc.what());
    return nullptr;
  }
}
