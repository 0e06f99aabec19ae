// EntityWalk: statements, qualifiers and the entity row (see entity_walk.hpp).
#include "entity_walk.hpp"

#include <algorithm>

namespace kgdiff {

namespace {

// P580 start, P582 end, P585 point in time: their slot among a statement's bounds.
int temporal_slot(std::string_view pid) {
  if (equals(pid, "P580")) return 0;
  if (equals(pid, "P582")) return 1;
  if (equals(pid, "P585")) return 2;
  return -1;
}

// Widen a bound with another qualifier value of the same property.
void envelope(Bound& bound, const ValueOut& value, std::string_view snaktype) {
  bound.seen = true;
  if (!value.has_time) {
    if (!bound.snaktype || bound.snaktype->empty()) bound.snaktype = snaktype;
    return;
  }
  bound.lo = bound.lo ? std::min(*bound.lo, value.time.lo) : value.time.lo;
  bound.hi = bound.hi ? std::max(*bound.hi, value.time.hi) : value.time.hi;
  bound.snaktype = "value";
}

void bound_columns(BoundColumns& columns, const Bound& bound) {
  bound.lo ? columns.lo.add(*bound.lo) : columns.lo.add_null();
  bound.hi ? columns.hi.add(*bound.hi) : columns.hi.add_null();
  add_optional(columns.snaktype, bound.seen ? bound.snaktype : std::nullopt);
}

struct StatementView {
  std::optional<element> mainsnak, qualifiers;
  OptString id;
  std::string_view rank = "normal";
  std::vector<std::string_view> order;
  size_t references = 0;
};

StatementView decode_statement(element value) {
  StatementView view;
  uint32_t seen = 0;
  for (auto field : need_object(value)) {
    std::string_view key = field.key;
    if (equals(key, "mainsnak")) {
      see_field(seen, 0);
      view.mainsnak = field.value;
    } else if (equals(key, "id")) {
      see_field(seen, 1);
      view.id = optional_string(field.value);
    } else if (equals(key, "rank")) {
      see_field(seen, 2);
      view.rank = need_string(field.value);
    } else if (equals(key, "qualifiers")) {
      see_field(seen, 3);
      view.qualifiers = field.value;
    } else if (equals(key, "qualifiers-order")) {
      see_field(seen, 4);
      for (element pid : need_array(field.value)) view.order.push_back(need_string(pid));
    } else if (equals(key, "references")) {
      see_field(seen, 5);
      view.references = need_array(field.value).size();
    }
  }
  if (!view.mainsnak) throw Defer{};  // a required field
  return view;
}

}  // namespace

int32_t EntityWalk::qualifier_rows(object qualifiers, std::vector<std::string_view>& order,
                                   OptString sid, std::string_view pid,
                                   std::array<Bound, 3>& bounds) {
  keys_.check_unique(qualifiers);
  std::vector<std::pair<std::string_view, std::vector<SnakView>>> snaks;
  for (auto field : qualifiers) {  // every snak is checked, even those never written
    auto& entry = snaks.emplace_back(field.key, std::vector<SnakView>{});
    for (element snak : need_array(field.value)) entry.second.push_back(decode_snak(snak));
  }
  if (order.size() != snaks.size()) {
    std::vector<std::string_view> listed = order;
    for (const auto& entry : snaks)
      if (std::find(listed.begin(), listed.end(), entry.first) == listed.end())
        order.push_back(entry.first);
  }
  int32_t ordinal = 0;
  ValueOut value;
  for (std::string_view qpid : order) {
    auto entry = std::find_if(snaks.begin(), snaks.end(),
                              [&](const auto& e) { return e.first == qpid; });
    if (entry == snaks.end()) continue;
    for (const SnakView& snak : entry->second) {
      snak_value(snak, value);
      QualifierTable& q = t_.qualifiers;
      add_optional(q.statement_id, sid);
      q.subject.add(subject_), q.pid.add(pid), q.qualifier_pid.add(qpid);
      q.ordinal.add(ordinal++);
      value_columns(q.value, snak, value);
      int slot = temporal_slot(qpid);
      if (slot >= 0) envelope(bounds[slot], value, snak.snaktype);
    }
  }
  return ordinal;
}

void EntityWalk::statement(element value, std::string_view pid, int32_t ordinal) {
  StatementView view = decode_statement(value);
  SnakView snak = decode_snak(*view.mainsnak);
  std::optional<object> qualifiers;
  if (view.qualifiers) qualifiers = map_or_list(*view.qualifiers);
  snak_value(snak, value_);
  std::array<Bound, 3> bounds;
  int32_t n_qualifiers = 0;
  if (qualifiers && qualifiers->size() > 0)
    n_qualifiers = qualifier_rows(*qualifiers, view.order, view.id, pid, bounds);
  StatementTable& s = t_.statements;
  add_optional(s.statement_id, view.id);
  s.subject.add(subject_), s.pid.add(pid), s.ordinal.add(ordinal), s.rank.add(view.rank);
  value_columns(s.value, snak, value_);
  bound_columns(s.start, bounds[0]), bound_columns(s.end, bounds[1]);
  bound_columns(s.point, bounds[2]);
  s.n_qualifiers.add(n_qualifiers);
  s.n_references.add(static_cast<int32_t>(view.references));
}

int EntityWalk::statements(std::optional<object> groups) {
  if (!groups) return 0;
  int count = 0;
  for (const auto& [pid, group] : sorted_fields(*groups)) {
    int32_t ordinal = 0;
    for (element value : need_array(group)) {
      statement(value, pid, ordinal++);
      ++count;
    }
  }
  return count;
}

}  // namespace kgdiff

namespace kgdiff {

namespace {

struct EntityView {
  std::string_view id = "", type = "";
  OptString datatype, modified, redirect, redirects_to;
  std::optional<int64_t> lastrevid;
  std::optional<object> labels, descriptions, aliases, sitelinks, lemmas, claims, statements;
};

enum Field { kId, kType, kDatatype, kLabels, kDescriptions, kAliases, kSitelinks, kLemmas,
             kClaims, kStatements, kLastrevid, kModified, kRedirect, kRedirects, kFieldCount };

constexpr std::string_view kFieldNames[kFieldCount] = {
    "id",     "type",       "datatype",  "labels",   "descriptions", "aliases",  "sitelinks",
    "lemmas", "claims",     "statements", "lastrevid", "modified",   "redirect", "redirects"};

OptString redirect_target(element value) {
  if (value.is_null()) return std::nullopt;
  OptString target;
  uint32_t seen_to = 0;
  KeySet keys;
  object map = need_object(value);
  keys.check_unique(map);
  for (auto field : map) {
    std::string_view text = need_string(field.value);  // dict[str, str]
    if (equals(field.key, "to")) see_field(seen_to, 0), target = text;
  }
  return target;
}

void decode_field(EntityView& view, int field, element value) {
  switch (field) {
    case kId: view.id = need_string(value); break;
    case kType: view.type = need_string(value); break;
    case kDatatype: view.datatype = optional_string(value); break;
    case kLabels: view.labels = map_or_list(value); break;
    case kDescriptions: view.descriptions = map_or_list(value); break;
    case kAliases: view.aliases = map_or_list(value); break;
    case kSitelinks: view.sitelinks = map_or_list(value); break;
    case kLemmas: view.lemmas = map_or_list(value); break;
    case kClaims: view.claims = map_or_list(value); break;
    case kStatements: view.statements = map_or_list(value); break;
    case kLastrevid: view.lastrevid = optional_int(value); break;
    case kModified: view.modified = optional_string(value); break;
    case kRedirect: view.redirect = optional_string(value); break;
    case kRedirects: view.redirects_to = redirect_target(value); break;
  }
}

EntityView decode_entity(element root) {
  EntityView view;
  uint32_t seen = 0;
  for (auto field : need_object(root)) {
    for (int i = 0; i < kFieldCount; ++i) {
      if (field.key != kFieldNames[i]) continue;
      see_field(seen, i);
      decode_field(view, i, field.value);
      break;
    }
  }
  return view;
}

bool non_empty(const std::optional<object>& map) { return map && map->size() > 0; }

}  // namespace

int EntityWalk::add(element root, int64_t source_line) {
  EntityView e = decode_entity(root);
  if (e.id.empty()) throw Defer{};  // "entity without an 'id'"
  index_ = static_cast<int32_t>(rows_of(t_.entities));
  subject_ = e.id;
  // The statements of items are under "claims", those of mediainfo under "statements";
  // an entity with both is the Python path's (it checks the unused one too).
  if (non_empty(e.claims) && non_empty(e.statements)) throw Defer{};
  int count = statements(non_empty(e.claims) ? e.claims : e.statements);
  OptString label_en, description_en, lemma_en;
  bool aliases_en = false;
  // In the order of the kinds' names (alias < description < label < lemma), as published.
  aliases(e.aliases, aliases_en);
  terms(e.descriptions, kDescription, description_en);
  terms(e.labels, kLabel, label_en);
  terms(e.lemmas, kLemma, lemma_en);
  int links = sitelinks(e.sitelinks);
  EntityTable& row = t_.entities;
  OptString redirect = e.redirect && !e.redirect->empty() ? e.redirect : e.redirects_to;
  row.qid.add(e.id);
  if (!e.type.empty()) {
    row.type.add(e.type);
  } else {
    redirect && !redirect->empty() ? row.type.add("redirect") : row.type.add_null();
  }
  add_optional(row.datatype, e.datatype);
  add_optional(row.redirect_to, redirect);
  e.lastrevid ? row.lastrevid.add(*e.lastrevid) : row.lastrevid.add_null();
  add_optional(row.modified, e.modified);
  add_optional(row.label_en, label_en && !label_en->empty() ? label_en : lemma_en);
  add_optional(row.description_en, description_en);
  row.n_labels.add(e.labels ? static_cast<int32_t>(e.labels->size()) : 0);
  row.n_sitelinks.add(links);
  row.n_statements.add(count);
  row.source_line.add(source_line);
  return count;
}

}  // namespace kgdiff
