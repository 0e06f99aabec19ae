// The entity's timeline: one row per property, one lane per statement holding its record bar
// and, thinner below, its valid bar; snapshot dates on the axis and a cutoff line to drag.
// Rows carry data-pid and data-level (the group's level at the cutoff, painted later).
// Every text lives in its own place: names, values and levels in the label column (cut to
// fit, whole in their tooltip), the snapshots' names, the date ticks and the cutoff's date in
// the header's lines (axis.js), so none overprints another, a bar or the cutoff line.

import { domainOf, drawAxis, layoutHeader } from "./axis.js";
import { clamp, dayLabel, toDay, toIso } from "./dates.js";
import { hasValidInterval, offAxis, recordBar, validBar, valueName } from "./intervals.js";
import { levelInfo, levelWord } from "./levels.js";
import { clear, scale, svg } from "./svg.js";

const LABEL_WIDTHS = [
  [1100, 300],
  [0, 250],
]; // the label column for a chart at least this wide
const COLUMN_GAP = 8; // between the label column's texts and the plot
const MIN_WIDTH = 760;
const HEADER = 18;
const LANE = 17;
const NOTE_LINE = 14; // a lane whose valid interval lies beyond the axis says so on a 2nd line
const GAP = 6;

export function groupByPid(items) {
  const rows = new Map();
  for (const item of items) {
    if (!rows.has(item.pid))
      rows.set(item.pid, { pid: item.pid, label: item.pid_label, items: [] });
    rows.get(item.pid).items.push(item);
  }
  return [...rows.values()];
}

// `node`'s text cut (an ellipsis before `keep`) to at most `width` pixels; `node` in the page.
function fit(node, text, width, keep = "") {
  node.textContent = text + keep;
  if (node.getComputedTextLength() <= width) return;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    node.textContent = `${text.slice(0, middle)}…${keep}`;
    if (node.getComputedTextLength() <= width) low = middle;
    else high = middle - 1;
  }
  node.textContent = `${text.slice(0, low)}…${keep}`;
}

function laneHeight(item, domain) {
  return LANE + (hasValidInterval(item) && offAxis(item, domain) ? NOTE_LINE : 0);
}

function rowHeight(row, domain) {
  return HEADER + row.items.reduce((sum, item) => sum + laneHeight(item, domain), 0) + 4;
}

export function createTimeline(container, { onCutoff, cutoffBounds }) {
  let labelWidth = 250;
  let rowsByPid = new Map();
  let cutoffGroup = null;
  let x = null;
  let header = null;
  let plotBottom = 0;

  // A text of the label column, fitted to it once the chart is in the page.
  const fitted = [];
  function columnText(attrs, text, from, keep = "") {
    const node = svg("text", attrs);
    fitted.push(() => fit(node, text, labelWidth - COLUMN_GAP - from, keep));
    return node;
  }

  function drawRow(chart, row, top, width, domain) {
    const height = rowHeight(row, domain);
    const group = svg("g", { class: "prop-row", "data-pid": row.pid, "data-level": "" });
    const stripe = svg("rect", { class: "row-stripe", x: 0, y: top, width: 6, height });
    const tag = svg("text", {
      class: "level-tag",
      x: labelWidth - COLUMN_GAP,
      y: top + 13,
      "text-anchor": "end",
    });
    const name = columnText(
      { class: "prop-name", x: 10, y: top + 13 },
      row.label ?? row.pid,
      10,
      ` (${row.pid})`,
    );
    name.dataset.full = `${row.label ?? row.pid} (${row.pid})`;
    group.append(
      svg("rect", { class: "row-bg", x: 0, y: top, width, height }),
      stripe,
      svg("g", {}, name, svg("title", {}, name.dataset.full)),
      tag,
    );
    let y = top + HEADER;
    for (const item of row.items) {
      const label = valueName(item);
      group.append(
        svg(
          "g",
          {},
          columnText({ class: "value-label", x: 18, y: y + 9 }, label, 18),
          svg("title", {}, label),
        ),
      );
      group.append(recordBar(item, x, y + 1, 8));
      if (hasValidInterval(item)) {
        group.append(validBar(item, x, y + 11, 4, domain));
        const beyond = offAxis(item, domain);
        if (beyond)
          group.append(
            columnText(
              { class: "value-label off-axis", x: 26, y: y + 9 + NOTE_LINE },
              beyond.text,
              26,
            ),
          );
      }
      y += laneHeight(item, domain);
    }
    rowsByPid.set(row.pid, { group, tag, name, top });
    chart.append(group);
    return height + GAP;
  }

  function drawCutoff(day) {
    cutoffGroup = svg("g", { class: "cutoff", "aria-hidden": "true", "data-right": x.range[1] });
    const line = svg("line", { class: "cutoff-line", y1: header.cutoffTop, y2: plotBottom });
    const label = svg("text", { class: "cutoff-label", y: header.cutoffY });
    const handle = svg("rect", {
      class: "cutoff-handle",
      "data-role": "cutoff-handle",
      y: header.axisY - 10,
      width: 16,
      height: plotBottom - header.axisY + 10,
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
    label.textContent = `cutoff ${iso}`;
    // the date beside its line, on the side with room for it
    const nearEnd = at + 4 + label.getComputedTextLength() > Number(cutoffGroup.dataset.right);
    label.setAttribute("x", nearEnd ? at - 4 : at + 4);
    label.setAttribute("text-anchor", nearEnd ? "end" : "start");
    handle.setAttribute("x", at - 8);
    cutoffGroup.dataset.cutoff = iso;
  }

  function draw({ items, snapshots, axis, cutoff, entityName }) {
    clear(container);
    rowsByPid = new Map();
    fitted.length = 0;
    const rows = groupByPid(items);
    const width = Math.max(MIN_WIDTH, container.clientWidth);
    labelWidth = LABEL_WIDTHS.find(([least]) => width >= least)[1];
    const domain = domainOf(items, snapshots, axis);
    x = scale(domain[0], domain[1], labelWidth, width - 16);
    const chart = svg("svg", {
      width,
      role: "img",
      "aria-label":
        `Timeline of ${entityName}: ${items.length} statements in ${rows.length} properties, ` +
        `${items.filter(hasValidInterval).length} with validity dates; ` +
        `axis ${dayLabel(domain[0])} to ${dayLabel(domain[1])}. ` +
        "The table below lists the same data.",
    });
    container.append(chart); // in the page, so that texts can be measured
    header = layoutHeader(chart, x, domain, snapshots);
    const total = rows.reduce((sum, row) => sum + rowHeight(row, domain) + GAP, 0);
    plotBottom = header.axisY + total;
    chart.setAttribute("height", plotBottom + 4);
    chart.setAttribute("viewBox", `0 0 ${width} ${plotBottom + 4}`);
    let top = header.axisY;
    for (const row of rows) top += drawRow(chart, row, top, width, domain);
    chart.append(drawAxis({ x, domain, snapshots, header, bottom: plotBottom }));
    chart.append(drawCutoff(cutoff));
    for (const fitOne of fitted) fitOne();
  }

  // levels: Map pid -> level name; a property the classification has no group for is "".
  // The property's name is cut again to leave room for its level's word.
  function paintLevels(levels) {
    for (const [pid, { group, tag, name }] of rowsByPid) {
      const level = levels.get(pid) ?? "";
      group.dataset.level = level;
      group
        .querySelector(".row-stripe")
        .setAttribute("class", `row-stripe level-${level || "none"}`);
      tag.setAttribute("class", `level-tag level-${level || "none"}`);
      tag.textContent = level ? `${levelInfo(level).mark} ${levelWord(level)}` : "";
      const room = labelWidth - COLUMN_GAP - 10 - (level ? tag.getComputedTextLength() + 6 : 0);
      const keep = ` (${pid})`;
      fit(name, name.dataset.full.slice(0, -keep.length), room, keep);
    }
  }

  return { draw, moveCutoff, paintLevels };
}
