// The timeline's text alternative: every statement with both intervals, and its property's
// level at the cutoff.

import { valueName } from "./intervals.js";
import { levelWord } from "./levels.js";
import { clear, html } from "./svg.js";

// A bound in the server's words ("13.798 billion years BCE", "15 March 44 BCE (Julian)").
function bound(text, snaktype) {
  if (text != null) return text;
  if (snaktype === "somevalue") return "unknown";
  if (snaktype === "novalue") return "none";
  return "";
}

export function createTimelineTable(container) {
  const levelCells = [];

  function draw(items) {
    clear(container);
    levelCells.length = 0;
    const head = [
      "Property",
      "Value",
      "Recorded from",
      "Recorded until",
      "Snapshots",
      "Valid from",
      "Valid until",
      "Point in time",
      "Rank",
      "Level at cutoff",
    ];
    const body = items.map((item) => {
      const level = html("td", { "data-pid": item.pid });
      levelCells.push(level);
      return html(
        "tr",
        {},
        html("td", {}, `${item.pid_label ?? ""} (${item.pid})`),
        html("td", {}, valueName(item)),
        html("td", {}, item.first_seen),
        html("td", {}, item.last_seen),
        html("td", {}, (item.snapshots ?? []).join(", ")),
        html("td", {}, bound(item.valid_from_text, item.valid_from_snaktype)),
        html("td", {}, bound(item.valid_until_text, item.valid_until_snaktype)),
        html("td", {}, bound(item.point_text, item.point_snaktype)),
        html("td", {}, item.rank),
        level,
      );
    });
    container.append(
      html(
        "table",
        {},
        html("caption", { class: "visually-hidden" }, "Statements of the entity"),
        html(
          "thead",
          {},
          html(
            "tr",
            {},
            head.map((name) => html("th", { scope: "col" }, name)),
          ),
        ),
        html("tbody", {}, body),
      ),
    );
  }

  function paintLevels(levels) {
    for (const cell of levelCells) {
      const level = levels.get(cell.dataset.pid) ?? "";
      cell.textContent = level ? levelWord(level) : "";
      cell.className = level ? `level-text level-${level}` : "";
    }
  }

  return { draw, paintLevels };
}
