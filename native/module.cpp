// kgdiff._native: the ingest hot path for canonical Wikidata entity JSON.
//
// entity_rows(data, spans) parses the entity lines data[start:end] of a dump
// chunk with simdjson and builds the rows of the five part tables as Arrow
// buffers, one set for items and one for the other kinds. An entity that is
// malformed, or of a shape this code leaves to the Python path, is listed in
// ``deferred`` and contributes no rows: Python then decodes it (and writes the
// reject, if it is one).
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <simdjson.h>

#include <new>

#include "entity_walk.hpp"

PyObject* kgdiff_gather_runs(PyObject*, PyObject* args);  // gather.cpp
PyObject* kgdiff_xml_unescape(PyObject*, PyObject* args);  // xml_text.cpp

namespace {

using kgdiff::Tables;

struct Span {
  long long line, start, end;
};

bool read_spans(PyObject* list, Py_ssize_t size, std::vector<Span>& spans) {
  PyObject* fast = PySequence_Fast(list, "spans must be a sequence of (line, start, end)");
  if (fast == nullptr) return false;
  Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
  spans.reserve(static_cast<size_t>(count));
  for (Py_ssize_t i = 0; i < count; ++i) {
    Span span;
    PyObject* item = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyArg_ParseTuple(item, "LLL", &span.line, &span.start, &span.end)) break;
    if (span.start < 0 || span.end < span.start || span.end > size) {
      PyErr_Format(PyExc_ValueError, "span %zd is outside the data", i);
      break;
    }
    spans.push_back(span);
  }
  Py_DECREF(fast);
  return !PyErr_Occurred();
}

PyObject* tables_to_python(Tables& t) {
  return Py_BuildValue("(NNNNN)", kgdiff::to_python(t.entities), kgdiff::to_python(t.statements),
                       kgdiff::to_python(t.qualifiers), kgdiff::to_python(t.labels),
                       kgdiff::to_python(t.sitelinks));
}

bool overflowing(Tables& t) {
  bool over = false;
  auto check = [&](auto& column) {
    if constexpr (std::is_same_v<std::decay_t<decltype(column)>, kgdiff::StringColumn>)
      over = over || column.overflowing();
  };
  t.entities.visit(check), t.statements.visit(check), t.qualifiers.visit(check);
  t.labels.visit(check), t.sitelinks.visit(check);
  return over;
}

// Whether the entity's "id" is an item id (Q…); anything else, or no id, is not.
bool is_item(simdjson::dom::element root) {
  std::string_view id;
  if (root["id"].get_string().get(id)) return false;
  return !id.empty() && id[0] == 'Q';
}

PyObject* entity_rows(PyObject*, PyObject* args) {
  Py_buffer data;
  PyObject* span_list;
  if (!PyArg_ParseTuple(args, "y*O", &data, &span_list)) return nullptr;
  std::vector<Span> spans;
  PyObject* deferred = nullptr;
  try {
    if (!read_spans(span_list, data.len, spans)) throw std::invalid_argument("spans");
    static simdjson::dom::parser parser;
    // Items go to one set of tables, every other kind (properties, lexemes, mediainfo) to
    // another: their ids sort apart from the items', so finalize reads each set only for
    // the buckets it overlaps instead of decompressing a whole part for a few properties.
    Tables items, others;
    kgdiff::EntityWalk item_walk(items), other_walk(others);
    std::vector<Py_ssize_t> later;
    long long statements = 0;
    const auto* base = static_cast<const uint8_t*>(data.buf);
    for (size_t i = 0; i < spans.size(); ++i) {
      const Span& span = spans[i];
      size_t length = static_cast<size_t>(span.end - span.start);
      // Reading up to the padding past the entity is safe inside the chunk; the last
      // entities of a chunk are copied into a padded buffer.
      bool padded = span.end + static_cast<long long>(simdjson::SIMDJSON_PADDING) <= data.len;
      simdjson::dom::element root;
      if (parser.parse(base + span.start, length, !padded).get(root)) {
        later.push_back(static_cast<Py_ssize_t>(i));
        continue;
      }
      bool item = is_item(root);
      Tables& tables = item ? items : others;
      kgdiff::Marks marks(tables);
      try {
        statements += (item ? item_walk : other_walk).add(root, span.line);
      } catch (const kgdiff::Defer&) {
        marks.restore(tables);
        later.push_back(static_cast<Py_ssize_t>(i));
      }
    }
    if (overflowing(items) || overflowing(others))
      throw std::length_error("a string column of this chunk is over 2 GB");
    deferred = PyList_New(static_cast<Py_ssize_t>(later.size()));
    if (deferred == nullptr) throw std::bad_alloc();
    for (size_t i = 0; i < later.size(); ++i)
      PyList_SET_ITEM(deferred, static_cast<Py_ssize_t>(i), PyLong_FromSsize_t(later[i]));
    PyBuffer_Release(&data);
    long long entities = static_cast<long long>(spans.size() - later.size());
    return Py_BuildValue("(NNLLN)", tables_to_python(items), tables_to_python(others), entities,
                         statements, deferred);
  } catch (const std::bad_alloc&) {
    Py_XDECREF(deferred);
    PyBuffer_Release(&data);
    return PyErr_NoMemory();
  } catch (const std::exception& exc) {
    Py_XDECREF(deferred);
    PyBuffer_Release(&data);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, exc.what());
    return nullptr;
  }
}

PyMethodDef methods[] = {
    {"entity_rows", entity_rows, METH_VARARGS,
     "entity_rows(data, spans) -> (item tables, other tables, entities, statements, deferred)"},
    {"gather_runs", kgdiff_gather_runs, METH_VARARGS,
     "gather_runs(kind, width, chunks, chunk_ids, starts, lengths, rows) -> buffers"},
    {"xml_unescape", kgdiff_xml_unescape, METH_VARARGS,
     "xml_unescape(content) -> the character data, or None when an XML parser must decode it"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module = {PyModuleDef_HEAD_INIT,
                      "kgdiff._native",
                      "Native row builder for canonical Wikidata entity JSON.",
                      -1,
                      methods,
                      nullptr,
                      nullptr,
                      nullptr,
                      nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__native() {
  if (!kgdiff::ready_owned_buffers()) return nullptr;
  return PyModule_Create(&module);
}
