// The view's state lives in the URL
// (?entity=Q42&cutoff=…&mode=…&level=…&pid=…&axis=…&marks=…) so a link restores it. Entity
// changes push a history entry (Back returns to the previous entity); tuning changes (cutoff,
// filters) replace the current one.

import { isIsoDay } from "./dates.js";
import { LEVEL_NAMES } from "./levels.js";

const listeners = new Set();

export const state = {
  entity: null,
  cutoff: null,
  mode: "record",
  level: [],
  pid: [],
  axis: "span",
  marks: [],
};

function list(text) {
  return (text ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

export function parse(search) {
  const params = new URLSearchParams(search);
  const entity = (params.get("entity") ?? "").trim().toUpperCase();
  const cutoff = params.get("cutoff");
  return {
    entity: /^Q\d+$/.test(entity) ? entity : null,
    cutoff: isIsoDay(cutoff) ? cutoff : null,
    mode: params.get("mode") === "valid" ? "valid" : "record",
    level: params
      .getAll("level")
      .flatMap(list)
      .filter((name) => LEVEL_NAMES.includes(name)),
    pid: params
      .getAll("pid")
      .flatMap(list)
      .map((p) => p.toUpperCase())
      .filter((p) => /^P\d+$/.test(p)),
    axis: params.get("axis") === "all" ? "all" : "span",
    marks: params.getAll("marks").flatMap(list),
  };
}

export function toSearch(value) {
  const params = new URLSearchParams();
  if (value.entity) params.set("entity", value.entity);
  if (value.cutoff) params.set("cutoff", value.cutoff);
  if (value.mode !== "record") params.set("mode", value.mode);
  if (value.level.length) params.set("level", value.level.join(","));
  if (value.pid.length) params.set("pid", value.pid.join(","));
  if (value.axis !== "span") params.set("axis", value.axis);
  if (value.marks.length) params.set("marks", value.marks.join(","));
  const text = params.toString();
  return text ? `?${text}` : location.pathname;
}

function changedKeys(next) {
  return Object.keys(next).filter(
    (key) => JSON.stringify(state[key]) !== JSON.stringify(next[key]),
  );
}

function notify(keys) {
  if (keys.length) for (const listener of listeners) listener(new Set(keys), state);
}

// Merge changes into the state, record them in the URL and tell the listeners what changed.
export function update(changes, { push = false } = {}) {
  const keys = changedKeys(changes);
  Object.assign(state, changes);
  if (!keys.length) return;
  const search = toSearch(state);
  if (push) history.pushState(null, "", search);
  else history.replaceState(null, "", search);
  notify(keys);
}

export function subscribe(listener) {
  listeners.add(listener);
}

export function loadFromUrl() {
  const next = parse(location.search);
  const keys = changedKeys(next);
  Object.assign(state, next);
  return new Set(keys);
}

// Back and Forward restore the state the URL holds.
export function followHistory() {
  window.addEventListener("popstate", () => notify([...loadFromUrl()]));
}
