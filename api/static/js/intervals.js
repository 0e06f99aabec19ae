// A statement's two intervals as SVG: the record interval (first..last snapshot it was seen
// in) and the valid interval from its qualifiers, where a start or end date's precision is a
// hatched band from its earliest to its latest day, an absent end is open (an arrow to the
// axis edge) and a "somevalue" end is unknown (dashed, with "?"). A bound's days (`*_lo`,
// `*_hi`) are day numbers (days since 1970-01-01, any size: a date of the Big Bang is one), its
// words (`*_text`) are the server's ("13.798 billion years BCE").

import { toDay } from "./dates.js";
import { named } from "./names.js";
import { svg } from "./svg.js";

const MIN_WIDTH = 4;

// A statement's value as people read it (names.js).
export function valueName(item) {
  return named(item.value_label, item.value);
}

export function hasValidInterval(item) {
  const kinds = [item.valid_from_snaktype, item.valid_until_snaktype, item.point_snaktype];
  return (
    item.valid_from_lo != null ||
    item.valid_until_lo != null ||
    item.point_lo != null ||
    kinds.some((kind) => kind === "somevalue" || kind === "novalue")
  );
}

// How one end of the valid interval is known: "date", "unknown" (somevalue), "none"
// (novalue: explicitly no such end) or "open" (no qualifier).
function endKind(lo, snaktype) {
  if (lo != null) return "date";
  if (snaktype === "somevalue") return "unknown";
  if (snaktype === "novalue") return "none";
  return "open";
}

function describeEnd(kind, text, word) {
  if (kind === "date") return text;
  if (kind === "unknown") return `unknown ${word} (somevalue)`;
  if (kind === "none") return `no ${word} (novalue)`;
  return `no ${word} given (open)`;
}

export function recordBar(item, x, y, height) {
  const from = x(toDay(item.first_seen));
  const to = x(toDay(item.last_seen));
  const width = Math.max(MIN_WIDTH, to - from);
  const seen = (item.snapshots ?? []).join(", ");
  const title =
    `${valueName(item)}: recorded ${item.first_seen} – ${item.last_seen}` +
    ` in ${seen}${item.current ? " (still in the latest snapshot)" : ""}; rank ${item.rank}`;
  return svg(
    "rect",
    {
      class: "bar-record",
      "data-kind": "record",
      x: from - (to - from < MIN_WIDTH ? MIN_WIDTH / 2 : 0),
      y,
      width,
      height,
    },
    svg("title", {}, title),
  );
}

function arrow(atX, y, height, pointsRight) {
  const tip = pointsRight ? atX + 6 : atX - 6;
  return svg("path", {
    class: "bar-valid-open",
    d: `M${atX},${y - 2} L${tip},${y + height / 2} L${atX},${y + height + 2} Z`,
  });
}

// A precision band, cut to the axis; nothing when it lies wholly outside.
function band(x, lo, hi, y, height, [left, right]) {
  const from = Math.max(lo, left);
  const to = Math.min(hi, right);
  if (to < from) return null;
  const width = Math.max(2, x(to) - x(from));
  return svg("rect", { class: "bar-valid-band", x: x(from), y: y - 2, width, height: height + 4 });
}

// An interval wholly before or after the axis, in words for the label column (`◂ 1990`,
// `2031 ▸`), and the edge it lies beyond; null for one the axis shows.
export function offAxis(item, [left, right]) {
  const starts = [
    [item.valid_from_lo, item.valid_from_text],
    [item.point_lo, item.point_text],
  ].filter(([day]) => day != null);
  const ends = [
    [item.valid_until_hi, item.valid_until_text],
    [item.point_hi, item.point_text],
  ].filter(([day]) => day != null);
  const endsBefore =
    ends.length &&
    Math.max(...ends.map(([day]) => day)) < left &&
    item.valid_until_snaktype !== "somevalue";
  const startsAfter = starts.length && Math.min(...starts.map(([day]) => day)) > right;
  if (endsBefore) {
    const [, text] = ends.reduce((a, b) => (b[0] > a[0] ? b : a));
    return { side: "before", text: `◂ ${text}` };
  }
  if (startsAfter) {
    const [, text] = starts.reduce((a, b) => (b[0] < a[0] ? b : a));
    return { side: "after", text: `${text} ▸` };
  }
  return null;
}

export function validBar(item, x, y, height, domain) {
  const [left, right] = domain;
  const beyond = offAxis(item, domain);
  if (beyond) {
    // a pointer at the edge; its dates are written in the label column (timeline.js)
    const before = beyond.side === "before";
    const group = svg(
      "g",
      { "data-kind": "valid", class: "bar-valid" },
      arrow(x(before ? left : right), y, height, !before),
    );
    const text = `${valueName(item)}: ${describe(item)}`;
    group.append(svg("title", {}, `${text} (outside this axis: choose “all dates”)`));
    return group;
  }
  const group = svg("g", { "data-kind": "valid", class: "bar-valid" });
  const start = endKind(item.valid_from_lo, item.valid_from_snaktype);
  const end = endKind(item.valid_until_lo, item.valid_until_snaktype);
  const hasSpan = start !== "open" || end !== "open";
  const clampX = (px) => Math.min(x(right), Math.max(x(left), px));
  if (hasSpan) {
    const a = start === "date" ? clampX(x(item.valid_from_hi)) : x(left);
    const b = end === "date" ? clampX(x(item.valid_until_lo)) : x(right);
    const solidFrom = start === "unknown" ? b : a;
    const solidTo = end === "unknown" ? a : b;
    if (start === "unknown" || end === "unknown") {
      const from = start === "unknown" ? x(left) : a;
      const to = end === "unknown" ? x(right) : b;
      group.append(
        svg("line", {
          class: "bar-valid-unknown",
          x1: from,
          x2: to,
          y1: y + height / 2,
          y2: y + height / 2,
        }),
      );
      const mark = start === "unknown" ? from + 2 : to - 10;
      group.append(
        svg("text", { x: mark, y: y + height + 1, class: "value-label unknown-mark" }, "?"),
      );
    }
    if (solidTo > solidFrom || (start === "date" && end === "date")) {
      group.append(
        svg("rect", {
          class: "bar-valid-body",
          x: solidFrom,
          y,
          width: Math.max(2, solidTo - solidFrom),
          height,
        }),
      );
    }
    if (start === "date")
      group.append(band(x, item.valid_from_lo, item.valid_from_hi, y, height, domain) ?? "");
    if (end === "date")
      group.append(band(x, item.valid_until_lo, item.valid_until_hi, y, height, domain) ?? "");
    if (start === "open" || start === "none") group.append(arrow(x(left), y, height, false));
    if (end === "open" || end === "none") group.append(arrow(x(right), y, height, true));
  }
  const point = endKind(item.point_lo, item.point_snaktype);
  if (point === "date") {
    group.append(band(x, item.point_lo, item.point_hi, y, height, domain) ?? "");
    const mid = clampX((x(item.point_lo) + x(item.point_hi)) / 2);
    const half = height / 2 + 3;
    group.append(
      svg("path", {
        class: "bar-point",
        d: `M${mid},${y - 3} l5,${half} l-5,${half} l-5,${-half} Z`,
      }),
    );
  }
  const outside = outsideAxis(item, left, right);
  group.append(svg("title", {}, `${valueName(item)}: ${describe(item)}${outside}`));
  return group;
}

// The valid interval in words, for the bar's tooltip.
function describe(item) {
  const start = endKind(item.valid_from_lo, item.valid_from_snaktype);
  const end = endKind(item.valid_until_lo, item.valid_until_snaktype);
  const point = endKind(item.point_lo, item.point_snaktype);
  const parts = [];
  if (start !== "open" || end !== "open") {
    parts.push(`valid from ${describeEnd(start, item.valid_from_text, "start")}`);
    parts.push(`until ${describeEnd(end, item.valid_until_text, "end")}`);
  }
  if (point !== "open") parts.push(`point in time ${describeEnd(point, item.point_text, "date")}`);
  return parts.join(", ");
}

function outsideAxis(item, left, right) {
  const days = ["valid_from_lo", "valid_until_hi", "point_lo", "point_hi"]
    .map((f) => item[f])
    .filter((d) => d != null);
  return days.some((day) => day < left || day > right)
    ? " (partly outside this axis: choose “all dates”)"
    : "";
}
