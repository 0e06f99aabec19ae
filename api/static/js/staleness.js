// The staleness curve: for a cutoff on the first of every month, the shares of stable, evolved
// and uncharted among the covered groups. Points carry data-cutoff, data-level and data-count;
// clicking a month's column sets the cutoff. Marked research cutoffs and the current cutoff
// are vertical lines.

import { toDay } from "./dates.js";
import { CURVE_LEVELS, levelInfo, levelWord } from "./levels.js";
import { clear, scale, svg } from "./svg.js";

const MARGIN = { left: 48, right: 16, top: 30, bottom: 34 };
const HEIGHT = 260;
const MIN_WIDTH = 560;

function share(month, level) {
  return month.covered ? month.counts[level] / month.covered : 0;
}

function curveLegend(width) {
  const group = svg("g", { class: "curve-legend", "aria-hidden": "true" });
  CURVE_LEVELS.forEach((level, index) => {
    const left = width - MARGIN.right - (CURVE_LEVELS.length - index) * 110;
    group.append(
      svg("line", { class: `curve curve-${level}`, x1: left, x2: left + 26, y1: 10, y2: 10 }),
      svg("text", { x: left + 30, y: 14 }, `${levelInfo(level).mark} ${levelWord(level)}`),
    );
  });
  return group;
}

export function createStaleness(container, { onCutoff }) {
  let x = null;
  let cutoffLine = null;

  function draw({ months, marks, cutoff, mode }) {
    clear(container);
    cutoffLine = null;
    if (!months.length) return;
    const width = Math.max(MIN_WIDTH, container.clientWidth);
    const days = months.map((m) => toDay(m.cutoff));
    x = scale(days[0] - 15, days[days.length - 1] + 15, MARGIN.left, width - MARGIN.right);
    const y = scale(0, 1, HEIGHT - MARGIN.bottom, MARGIN.top);
    const last = months[months.length - 1];
    const summary = CURVE_LEVELS.map(
      (level) => `${levelWord(level)} ${Math.round(share(last, level) * 100)}%`,
    ).join(", ");
    const chart = svg("svg", {
      width,
      height: HEIGHT,
      viewBox: `0 0 ${width} ${HEIGHT}`,
      role: "img",
      "aria-label":
        `Staleness (${mode} mode) for ${months.length} monthly cutoffs ` +
        `from ${months[0].cutoff} to ${last.cutoff}; ` +
        `at ${last.cutoff}: ${summary} of the covered groups. The table below lists every level.`,
    });
    const axis = svg("g", { class: "axis", "aria-hidden": "true" });
    for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
      axis.append(
        svg("line", {
          class: "grid",
          x1: MARGIN.left - 4,
          x2: width - MARGIN.right,
          y1: y(tick),
          y2: y(tick),
        }),
        svg("text", { x: MARGIN.left - 6, y: y(tick) + 4, "text-anchor": "end" }, `${tick * 100}%`),
      );
    }
    months.forEach((month, index) => {
      // Every other month label on narrow charts, so that they do not overprint.
      if (months.length > 8 && index % 2 === 1 && width < 900) return;
      axis.append(
        svg(
          "text",
          { x: x(days[index]), y: HEIGHT - 12, "text-anchor": "middle" },
          month.cutoff.slice(0, 7),
        ),
      );
    });
    chart.append(axis, curveLegend(width));
    const step = months.length > 1 ? x(days[1]) - x(days[0]) : 40;
    months.forEach((month, index) => {
      chart.append(
        svg(
          "rect",
          {
            class: "month-hit",
            x: x(days[index]) - step / 2,
            y: MARGIN.top,
            width: step,
            height: HEIGHT - MARGIN.top - MARGIN.bottom,
            "data-month": month.cutoff,
            onclick: () => onCutoff(month.cutoff),
          },
          svg("title", {}, `Use ${month.cutoff} as the cutoff`),
        ),
      );
    });
    for (const level of CURVE_LEVELS) {
      const points = months.map((month, index) => `${x(days[index])},${y(share(month, level))}`);
      chart.append(svg("polyline", { class: `curve curve-${level}`, points: points.join(" ") }));
      months.forEach((month, index) => {
        const percent = (share(month, level) * 100).toFixed(1);
        chart.append(
          svg(
            "circle",
            {
              class: `point level-${level}`,
              cx: x(days[index]),
              cy: y(share(month, level)),
              r: 4,
              "data-cutoff": month.cutoff,
              "data-level": level,
              "data-count": month.counts[level],
              "pointer-events": "none",
            },
            svg(
              "title",
              {},
              `${month.cutoff}: ${levelWord(level)} ${month.counts[level]} ` +
                `of ${month.covered} covered (${percent}%)`,
            ),
          ),
        );
      });
    }
    for (const mark of marks) {
      const at = x(toDay(mark.date));
      chart.append(
        svg("line", {
          class: "seed-line",
          x1: at,
          x2: at,
          y1: MARGIN.top,
          y2: HEIGHT - MARGIN.bottom,
          "data-seed": mark.name,
        }),
        svg("text", { x: at + 3, y: MARGIN.top - 6 }, mark.name),
      );
    }
    cutoffLine = svg("line", {
      class: "cutoff-line",
      y1: MARGIN.top - 4,
      y2: HEIGHT - MARGIN.bottom,
    });
    chart.append(cutoffLine);
    container.append(chart);
    moveCutoff(cutoff);
  }

  function moveCutoff(iso) {
    if (!cutoffLine || !iso) return;
    const at = x(toDay(iso));
    cutoffLine.setAttribute("x1", at);
    cutoffLine.setAttribute("x2", at);
  }

  return { draw, moveCutoff };
}
