// The staleness curve's text alternative: every month with all seven levels' counts, and a
// button that makes the month the cutoff (the keyboard's way to click the chart).

import { LEVEL_NAMES, levelWord } from "./levels.js";
import { clear, html } from "./svg.js";

export function drawStalenessTable(container, months, onCutoff) {
  clear(container);
  const head = ["Cutoff", "Groups", "Covered", ...LEVEL_NAMES.map(levelWord), "Stable share", ""];
  const rows = months.map((month) =>
    html(
      "tr",
      { "data-cutoff": month.cutoff },
      html("th", { scope: "row" }, month.cutoff),
      html("td", { class: "number" }, month.total),
      html("td", { class: "number" }, month.covered),
      LEVEL_NAMES.map((level) =>
        html("td", { class: "number", "data-level": level }, month.counts[level] ?? 0),
      ),
      html(
        "td",
        { class: "number" },
        month.covered ? `${((100 * month.counts.stable) / month.covered).toFixed(1)}%` : "—",
      ),
      html(
        "td",
        {},
        html("button", { type: "button", onclick: () => onCutoff(month.cutoff) }, "Use as cutoff"),
      ),
    ),
  );
  container.append(
    html(
      "table",
      {},
      html("caption", { class: "visually-hidden" }, "Level counts by cutoff month"),
      html(
        "thead",
        {},
        html(
          "tr",
          {},
          head.map((name) => html("th", { scope: "col" }, name)),
        ),
      ),
      html("tbody", {}, rows),
    ),
  );
}
