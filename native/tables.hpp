// The five part tables as column builders, in the column order of
// kgdiff/rows/schema.py (labels and sitelinks carry the entity's index in the
// batch instead of its qid; Python maps it, as kgdiff/rows/terms.py does).
#pragma once

#include "columns.hpp"

namespace kgdiff {

struct ValueColumns {
  StringColumn snaktype, datatype, value_type, value, object_qid;
  NumberColumn<int8_t> precision;
  StringColumn calendar;
  NumberColumn<int32_t> lo, hi;
  template <typename F>
  void visit(F&& f) {
    f(snaktype), f(datatype), f(value_type), f(value), f(object_qid);
    f(precision), f(calendar), f(lo), f(hi);
  }
};

struct BoundColumns {
  NumberColumn<int32_t> lo, hi;
  StringColumn snaktype;
  template <typename F>
  void visit(F&& f) {
    f(lo), f(hi), f(snaktype);
  }
};

struct EntityTable {
  StringColumn qid, type, datatype, redirect_to;
  NumberColumn<int64_t> lastrevid;
  StringColumn modified, label_en, description_en;
  StringListColumn aliases_en;
  NumberColumn<int32_t> n_labels, n_sitelinks, n_statements;
  NumberColumn<int64_t> source_line;
  template <typename F>
  void visit(F&& f) {
    f(qid), f(type), f(datatype), f(redirect_to), f(lastrevid), f(modified), f(label_en);
    f(description_en), f(aliases_en), f(n_labels), f(n_sitelinks), f(n_statements);
    f(source_line);
  }
};

struct StatementTable {
  StringColumn statement_id, subject, pid;
  NumberColumn<int32_t> ordinal;
  StringColumn rank;
  ValueColumns value;
  BoundColumns start, end, point;
  NumberColumn<int32_t> n_qualifiers, n_references;
  template <typename F>
  void visit(F&& f) {
    f(statement_id), f(subject), f(pid), f(ordinal), f(rank);
    value.visit(f), start.visit(f), end.visit(f), point.visit(f);
    f(n_qualifiers), f(n_references);
  }
};

struct QualifierTable {
  StringColumn statement_id, subject, pid, qualifier_pid;
  NumberColumn<int32_t> ordinal;
  ValueColumns value;
  template <typename F>
  void visit(F&& f) {
    f(statement_id), f(subject), f(pid), f(qualifier_pid), f(ordinal);
    value.visit(f);
  }
};

struct LabelTable {
  NumberColumn<int32_t> entity;
  NumberColumn<int8_t> kind;
  StringColumn lang, value;
  NumberColumn<int32_t> ordinal;
  template <typename F>
  void visit(F&& f) {
    f(entity), f(kind), f(lang), f(value), f(ordinal);
  }
};

struct SitelinkTable {
  NumberColumn<int32_t> entity;
  StringColumn site, title;
  StringListColumn badges;
  template <typename F>
  void visit(F&& f) {
    f(entity), f(site), f(title), f(badges);
  }
};

template <typename Table>
size_t rows_of(Table& table) {
  size_t rows = 0;
  bool first = true;
  table.visit([&](auto& column) {
    if (first) rows = column.size(), first = false;
  });
  return rows;
}

template <typename Table>
void truncate(Table& table, size_t rows) {
  table.visit([&](auto& column) { column.truncate(rows); });
}

// A list with one (validity, buffers…) tuple per column; nullptr on error.
template <typename Table>
PyObject* to_python(Table& table) {
  PyObject* columns = PyList_New(0);
  if (columns == nullptr) return nullptr;
  bool failed = false;
  table.visit([&](auto& column) {
    if (failed) return;
    PyObject* buffers = column.to_python();
    failed = buffers == nullptr || PyList_Append(columns, buffers) != 0;
    Py_XDECREF(buffers);
  });
  if (failed) Py_CLEAR(columns);
  return columns;
}

struct Tables {
  EntityTable entities;
  StatementTable statements;
  QualifierTable qualifiers;
  LabelTable labels;
  SitelinkTable sitelinks;
};

// Row counts of every table, so a deferred entity's rows can be dropped.
struct Marks {
  size_t entities, statements, qualifiers, labels, sitelinks;
  explicit Marks(Tables& t)
      : entities(rows_of(t.entities)),
        statements(rows_of(t.statements)),
        qualifiers(rows_of(t.qualifiers)),
        labels(rows_of(t.labels)),
        sitelinks(rows_of(t.sitelinks)) {}
  void restore(Tables& t) const {
    truncate(t.entities, entities), truncate(t.statements, statements);
    truncate(t.qualifiers, qualifiers), truncate(t.labels, labels);
    truncate(t.sitelinks, sitelinks);
  }
};

}  // namespace kgdiff
