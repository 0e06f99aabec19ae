// The timeline's time axis: its domain (the snapshots' span, or every date the statements
// give) and the ticks drawn along it.

import { firstDayOf, fromParts, parts, toDay, yearLabel, yearOf } from "./dates.js";
import { svg } from "./svg.js";

const SEEN_FIELDS = ["first_seen", "last_seen"]; // ISO dates of snapshots
const DAY_FIELDS = [ // day numbers, of any size (the Big Bang is about -5e12)
  "valid_from_lo", "valid_from_hi", "valid_until_lo", "valid_until_hi", "point_lo", "point_hi",
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

// Snapshots closer than a label's width on screen share one label ("all dates" can squeeze a
// year of snapshots into a few pixels).
function clusters(snapshots, x) {
  const found = [];
  for (const snapshot of snapshots) {
    const last = found[found.length - 1];
    if (last && x(toDay(snapshot.date)) - x(toDay(last[0].date)) < 40) last.push(snapshot);
    else found.push([snapshot]);
  }
  return found;
}

export function drawAxis({ x, domain, snapshots, top, bottom }) {
  const group = svg("g", { class: "axis", "aria-hidden": "true" });
  group.append(svg("line", { x1: x(domain[0]), x2: x(domain[1]), y1: top - 4, y2: top - 4 }));
  for (const tick of ticksOf(domain)) {
    const at = x(tick.day);
    group.append(
      svg("line", { x1: at, x2: at, y1: top - 8, y2: top - 4 }),
      svg("text", { x: at, y: top - 10, "text-anchor": "middle" }, tick.label),
    );
  }
  for (const snapshot of snapshots) {
    const at = x(toDay(snapshot.date));
    group.append(svg("line", { class: "snapshot-tick", x1: at, x2: at, y1: 15, y2: bottom }));
  }
  clusters(snapshots, x).forEach((cluster, index) => {
    const first = cluster[0];
    const last = cluster[cluster.length - 1];
    const text = cluster.length === 1 ? first.name : `${first.name} … ${last.name} (${cluster.length} snapshots)`;
    // Close snapshots would overprint each other: alternate two label rows.
    const labelY = index % 2 === 0 ? 12 : 24;
    const at = x(toDay(first.date));
    // near the right edge the label ends at its tick instead of starting there
    const nearEnd = at > x(domain[1]) - 8 * text.length;
    const labelX = nearEnd ? x(toDay(last.date)) - 3 : at + 3;
    const anchor = nearEnd ? "end" : "start";
    group.append(svg("text", { class: "snapshot-label", x: labelX, y: labelY, "text-anchor": anchor }, text));
  });
  return group;
}
