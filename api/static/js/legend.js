// The timeline's legend: what the bars and marks mean, and each level's colour, mark and word.

import { LEVELS, levelWord } from "./levels.js";
import { html, svg } from "./svg.js";

// The hatch of precision bands, defined once here (the legend is always on the page) and
// used by the timeline's SVG too.
function hatch() {
  return svg(
    "defs",
    {},
    svg(
      "pattern",
      {
        id: "hatch",
        width: 4,
        height: 4,
        patternUnits: "userSpaceOnUse",
        patternTransform: "rotate(45)",
      },
      svg("rect", { width: 4, height: 4, fill: "#fff" }),
      svg("line", { x1: 0, y1: 0, x2: 0, y2: 4, stroke: "#7a4a00", "stroke-width": 2 }),
    ),
  );
}

function sample(...shapes) {
  return svg("svg", { width: 28, height: 14, "aria-hidden": "true" }, ...shapes);
}

export function drawLegend(container) {
  const items = [
    [
      sample(svg("rect", { class: "bar-record", x: 2, y: 3, width: 24, height: 8 })),
      "record interval (first – last snapshot seen in)",
    ],
    [
      sample(svg("rect", { class: "bar-valid-body", x: 2, y: 5, width: 24, height: 4 })),
      "valid interval (qualifier dates)",
    ],
    [
      sample(svg("rect", { class: "bar-valid-band", x: 2, y: 3, width: 24, height: 8 })),
      "hatched: a date's precision (year, month…)",
    ],
    [
      sample(svg("path", { class: "bar-valid-open", d: "M14,3 L22,7 L14,11 Z" })),
      "arrow: no start / end given (open)",
    ],
    [
      sample(svg("line", { class: "bar-valid-unknown", x1: 2, x2: 26, y1: 7, y2: 7 })),
      "dashed “?”: unknown date (somevalue)",
    ],
    [
      sample(svg("line", { class: "cutoff-line", x1: 14, x2: 14, y1: 0, y2: 14 })),
      "cutoff (drag it)",
    ],
  ];
  container.replaceChildren(
    svg("svg", { width: 0, height: 0, "aria-hidden": "true", class: "defs-only" }, hatch()),
    ...items.map(([icon, text]) => html("span", { class: "legend-item" }, icon, text)),
    ...LEVELS.map((level) =>
      html(
        "span",
        { class: "legend-item", title: level.text },
        html("span", { class: `swatch level-${level.name}`, "aria-hidden": "true" }),
        `${level.mark} ${levelWord(level.name)}`,
      ),
    ),
  );
}
