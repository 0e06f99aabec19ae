// The timeline's time axis: its domain (the snapshots' span, or every date the statements
// give) and the ticks drawn along it.

import { firstDayOf, fromParts, parts, toDay, yearLabel, yearOf } from "./dates.js";
import { svg } from "./svg.js";

const SEEN_FIELDS = ["first_seen", "last_seen"]; // ISO dates of snapshots
const DAY_FIELDS = [
  // day numbers, of any size (the Big Bang is about -5e12)
  "valid_from_lo",
  "valid_from_hi",
  "valid_until_lo",
  "valid_until_hi",
  "point_lo",
  "point_hi",
];
const STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];

export function domainOf(items, snapshots, axis) {
  const snapshotDays = snapshots.map((s) => toDay(s.date));
  let low = Math.min(...snapshotDays);
  let high = Math.max(...snapshotDays);
  if (axis === "all") {
    for (const item of items) {
      for (const field of [...SEEN_FIELDS, ...DAY_FIELDS]) {
        const day = SEEN_FIELDS.includes(field) ? toDay(item[field]) : item[field];
        if (day == null) continue;
        low = Math.min(low, day);
        high = Math.max(high, day);
      }
    }
  }
  const pad = Math.max(15, Math.round((high - low) * 0.04));
  return [low - pad, high + pad];
}

// Year ticks, or month ticks when the domain is short; never more than about ten labels.
export function ticksOf([low, high]) {
  const years = (high - low) / 365.25;
  const ticks = [];
  if (years <= 3) {
    const first = parts(low);
    const step = years <= 1.5 ? 2 : 4;
    let month = first.month + 1;
    for (let day = fromParts(first.year, month); day <= high; day = fromParts(first.year, month)) {
      if ((month - 1) % step === 0) {
        const year = first.year + Math.floor((month - 1) / 12);
        const label = `${year}-${String(((month - 1) % 12) + 1).padStart(2, "0")}`;
        ticks.push({ day, label });
      }
      month += 1;
    }
    return ticks;
  }
  const step = yearStep(years);
  for (let year = Math.ceil(yearOf(low) / step) * step; ticks.length < 20; year += step) {
    const day = firstDayOf(year);
    if (!(day <= high)) break;
    if (day >= low) ticks.push({ day, label: yearLabel(year) });
  }
  return ticks;
}

// A step of whole years giving about ten ticks: the steps above, then 1, 2 or 5 times a power
// of ten (an axis of every date may span billions of years).
function yearStep(years) {
  const found = STEPS.find((s) => years / s <= 10);
  if (found) return found;
  for (let power = 1000; ; power *= 10) {
    for (const factor of [1, 2, 5]) if (years / (factor * power) <= 10) return factor * power;
  }
}

// The header above the timeline, top to bottom: the snapshots' names (as many lines as it takes
// for none to overprint another), the date ticks' labels, the cutoff's own line, then the axis.
// Guides and the cutoff line start at the axis (or the cutoff's line), so no text is crossed.
const LINE = 14;
const NAME_GAP = 8;
const MAX_NAME_LINES = 3;

// Snapshots whose names would start within `near` pixels of each other share one name (the
// same day, or on an axis of every date a year of snapshots in a few pixels).
function clusters(snapshots, x, near) {
  const found = [];
  for (const snapshot of snapshots) {
    const last = found[found.length - 1];
    if (last && x(toDay(snapshot.date)) - x(toDay(last[0].date)) < near) last.push(snapshot);
    else found.push([snapshot]);
  }
  return found;
}

function clusterName(cluster, near) {
  if (cluster.length === 1) return cluster[0].name;
  if (near <= 2) return cluster.map((s) => s.name).join(", ");
  return `${cluster[0].name} … ${cluster[cluster.length - 1].name} (${cluster.length} snapshots)`;
}

// Each name on the first line where it keeps NAME_GAP pixels from every name already there;
// `measure(text)` is its width. A name reaching past the right edge ends at its guide instead.
function stack(snapshots, x, right, measure, near) {
  const lines = [];
  const names = clusters(snapshots, x, near).map((cluster) => {
    const text = clusterName(cluster, near);
    const width = measure(text);
    const at = x(toDay(cluster[0].date));
    const end = at + 3 + width > right;
    const from = end ? x(toDay(cluster[cluster.length - 1].date)) - 3 - width : at + 3;
    let line = lines.findIndex((spans) =>
      spans.every(([a, b]) => from > b + NAME_GAP || from + width < a - NAME_GAP),
    );
    if (line < 0) line = lines.push([]) - 1;
    lines[line].push([from, from + width]);
    return { text, line, x: end ? from + width : from, anchor: end ? "end" : "start" };
  });
  return { names, lines: lines.length };
}

// A width measure for texts of `cls` drawn in `chart` (which must be in the page).
function measurer(chart, cls) {
  const probe = svg("text", { class: cls, visibility: "hidden" });
  chart.append(probe);
  const measure = (text) => {
    probe.textContent = text;
    return probe.getComputedTextLength();
  };
  measure.done = () => probe.remove();
  return measure;
}

// The date ticks, a label kept only where it keeps clear of the one before (an axis of every
// date may name billions of years in a few pixels).
function labelledTicks(domain, x, measure) {
  let free = -Infinity;
  return ticksOf(domain).map((tick) => {
    const width = measure(tick.label);
    const from = x(tick.day) - width / 2;
    if (from < free + NAME_GAP) return { ...tick, label: "" };
    free = from + width;
    return tick;
  });
}

// Where the header's parts go, each text measured in `chart` (which must be in the page).
export function layoutHeader(chart, x, domain, snapshots) {
  const names = measurer(chart, "snapshot-label");
  let placed = stack(snapshots, x, x.range[1], names, 2);
  if (placed.lines > MAX_NAME_LINES) placed = stack(snapshots, x, x.range[1], names, 40);
  names.done();
  const labels = measurer(chart, "tick-label");
  const ticks = labelledTicks(domain, x, labels);
  labels.done();
  const ticksY = (placed.lines + 1) * LINE - 2;
  const cutoffY = ticksY + LINE;
  return {
    names: placed.names,
    ticks,
    ticksY,
    cutoffY,
    cutoffTop: cutoffY - LINE + 3,
    axisY: cutoffY + 6,
  };
}

export function drawAxis({ x, domain, snapshots, header, bottom }) {
  const { axisY } = header;
  const group = svg("g", { class: "axis", "aria-hidden": "true" });
  group.append(svg("line", { x1: x(domain[0]), x2: x(domain[1]), y1: axisY, y2: axisY }));
  for (const tick of header.ticks) {
    const at = x(tick.day);
    group.append(
      svg("line", { x1: at, x2: at, y1: axisY - 4, y2: axisY }),
      tick.label
        ? svg(
            "text",
            { class: "tick-label", x: at, y: header.ticksY, "text-anchor": "middle" },
            tick.label,
          )
        : null,
    );
  }
  for (const snapshot of snapshots) {
    const at = x(toDay(snapshot.date));
    group.append(svg("line", { class: "snapshot-tick", x1: at, x2: at, y1: axisY, y2: bottom }));
  }
  header.names.forEach((name) => {
    const y = 11 + name.line * LINE;
    group.append(
      svg("text", { class: "snapshot-label", x: name.x, y, "text-anchor": name.anchor }, name.text),
    );
  });
  return group;
}
