// The entity's timeline: one row per property, one lane per statement holding its record bar
// and, thinner below, its valid bar; snapshot dates on the axis and a cutoff line to drag.
// Rows carry data-pid and data-level (the group's level at the cutoff, painted later).

import { domainOf, drawAxis } from "./axis.js";
import { clamp, dayLabel, toDay, toIso } from "./dates.js";
import { hasValidInterval, recordBar, validBar, valueName } from "./intervals.js";
import { levelInfo, levelWord } from "./levels.js";
import { clear, scale, svg } from "./svg.js";

const LABEL_WIDTH = 250;
const MIN_WIDTH = 760;
const AXIS_HEIGHT = 46;
const HEADER = 18;
const LANE = 17;
const GAP = 6;

export function groupByPid(items) {
  const rows = new Map();
  for (const item of items) {
    if (!rows.has(item.pid)) rows.set(item.pid, { pid: item.pid, label: item.pid_label, items: [] });
    rows.get(item.pid).items.push(item);
  }
  return [...rows.values()];
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function createTimeline(container, { onCutoff, cutoffBounds }) {
  let rowsByPid = new Map();
  let cutoffGroup = null;
  let x = null;
  let plotTop = 0;
  let plotBottom = 0;

  function drawRow(chart, row, top, width, domain) {
    const height = HEADER + row.items.length * LANE + 4;
    const group = svg("g", { class: "prop-row", "data-pid": row.pid, "data-level": "" });
    const stripe = svg("rect", { class: "row-stripe", x: 0, y: top, width: 6, height });
    const tag = svg("tspan", { class: "level-tag" }, "");
    group.append(
      svg("rect", { class: "row-bg", x: 0, y: top, width, height }),
      stripe,
      svg("text", { x: 10, y: top + 13 },
        svg("tspan", { "font-weight": 600 }, clip(`${row.label ?? row.pid} (${row.pid})`, 34)), " ", tag),
    );
    row.items.forEach((item, index) => {
      const y = top + HEADER + index * LANE;
      const label = valueName(item);
      group.append(svg("text", { class: "value-label", x: 18, y: y + 9 }, clip(label, 36), svg("title", {}, label)));
      group.append(recordBar(item, x, y + 1, 8));
      if (hasValidInterval(item)) group.append(validBar(item, x, y + 11, 4, domain));
    });
    rowsByPid.set(row.pid, { group, stripe, tag });
    chart.append(group);
    return height + GAP;
  }

  function drawCutoff(day) {
    cutoffGroup = svg("g", { class: "cutoff", "aria-hidden": "true", "data-right": x.range[1] });
    const line = svg("line", { class: "cutoff-line", y1: AXIS_HEIGHT - 6, y2: plotBottom });
    const label = svg("text", { class: "cutoff-label", y: AXIS_HEIGHT - 1 });
    const handle = svg("rect", {
      class: "cutoff-handle", "data-role": "cutoff-handle",
      y: AXIS_HEIGHT - 10, width: 16, height: plotBottom - AXIS_HEIGHT + 10,
    });
    cutoffGroup.append(line, label, handle);
    handle.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
    });
    handle.addEventListener("pointermove", (event) => {
      if (!handle.hasPointerCapture(event.pointerId)) return;
      const box = handle.ownerSVGElement.getBoundingClientRect();
      const { low, high } = cutoffBounds();
      onCutoff(toIso(clamp(Math.round(x.invert(event.clientX - box.left)), low, high)));
    });
    handle.addEventListener("pointerup", (event) => handle.releasePointerCapture(event.pointerId));
    moveCutoff(day);
    return cutoffGroup;
  }

  function moveCutoff(iso) {
    if (!cutoffGroup || !iso) return;
    const at = x(toDay(iso));
    const [line, label, handle] = cutoffGroup.children;
    line.setAttribute("x1", at);
    line.setAttribute("x2", at);
    const nearEnd = at > Number(cutoffGroup.dataset.right) - 110;
    label.setAttribute("x", nearEnd ? at - 4 : at + 4);
    label.setAttribute("text-anchor", nearEnd ? "end" : "start");
    label.textContent = `cutoff ${iso}`;
    handle.setAttribute("x", at - 8);
    cutoffGroup.dataset.cutoff = iso;
  }

  function draw({ items, snapshots, axis, cutoff, entityName }) {
    clear(container);
    rowsByPid = new Map();
    const rows = groupByPid(items);
    const width = Math.max(MIN_WIDTH, container.clientWidth);
    const domain = domainOf(items, snapshots, axis);
    x = scale(domain[0], domain[1], LABEL_WIDTH, width - 16);
    plotTop = AXIS_HEIGHT;
    const total = rows.reduce((sum, row) => sum + HEADER + row.items.length * LANE + 4 + GAP, 0);
    plotBottom = plotTop + total;
    const chart = svg("svg", {
      width, height: plotBottom + 4, viewBox: `0 0 ${width} ${plotBottom + 4}`, role: "img",
      "aria-label": `Timeline of ${entityName}: ${items.length} statements in ${rows.length} properties, ` +
        `${items.filter(hasValidInterval).length} with validity dates; axis ${dayLabel(domain[0])} to ${dayLabel(domain[1])}. ` +
        "The table below lists the same data.",
    });
    let top = plotTop;
    for (const row of rows) top += drawRow(chart, row, top, width, domain);
    chart.append(drawAxis({ x, domain, snapshots, top: AXIS_HEIGHT, bottom: plotBottom }));
    chart.append(drawCutoff(cutoff));
    container.append(chart);
  }

  // levels: Map pid -> level name; a property the classification has no group for is "".
  function paintLevels(levels) {
    for (const [pid, { group, stripe, tag }] of rowsByPid) {
      const level = levels.get(pid) ?? "";
      group.dataset.level = level;
      stripe.setAttribute("class", `row-stripe level-${level || "none"}`);
      tag.setAttribute("class", `level-tag level-${level || "none"}`);
      tag.textContent = level ? `${levelInfo(level).mark} ${levelWord(level)}` : "";
    }
  }

  return { draw, moveCutoff, paintLevels };
}
