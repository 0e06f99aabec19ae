// The staleness panel: fetches /v1/staleness for the mode, lists the research papers' cutoffs
// as marks to check (saying when one lies outside the store's span), and draws the curve and
// its table.

import { getJson } from "./api.js";
import { toDay } from "./dates.js";
import { clearMessages, loading, notes, problem, say } from "./messages.js";
import { createStaleness } from "./staleness.js";
import { drawStalenessTable } from "./staleness-table.js";
import { clear, html } from "./svg.js";

export function createStalenessPanel({ chart, table, marksBox, messages, onCutoff, onMarks }) {
  const curve = createStaleness(chart, { onCutoff });
  let answer = null;
  let view = null;

  function drawMarks(marked) {
    for (const node of marksBox.querySelectorAll("label, p")) node.remove();
    const low = toDay(answer.init);
    const high = toDay(answer.current);
    const outside = [];
    for (const seed of answer.seed_cutoffs ?? []) {
      const box = html("input", {
        type: "checkbox",
        value: seed.name,
        checked: marked.includes(seed.name),
      });
      box.addEventListener("change", () => {
        const names = [...marksBox.querySelectorAll("input:checked")].map((b) => b.value);
        onMarks(names);
      });
      const paper = seed.paper ? ` (${seed.paper}${seed.role ? `, ${seed.role}` : ""})` : "";
      marksBox.append(html("label", {}, box, ` ${seed.name}: ${seed.date}${paper}`));
      const day = toDay(seed.date);
      if (marked.includes(seed.name) && (day < low || day > high)) outside.push(seed);
    }
    if (!answer.seed_cutoffs?.length)
      marksBox.append(html("p", { class: "help" }, "The service lists no research cutoffs."));
    for (const seed of outside) {
      marksBox.append(
        html(
          "p",
          { class: "message message-note" },
          `${seed.name} (${seed.date}) lies outside this store's span ` +
            `(${answer.init} – ${answer.current}), so the curve cannot show it.`,
        ),
      );
    }
    return (answer.seed_cutoffs ?? []).filter(
      (seed) => marked.includes(seed.name) && !outside.includes(seed),
    );
  }

  function draw() {
    if (!answer) return;
    const inSpan = drawMarks(view.marks);
    curve.draw({ months: answer.months, marks: inSpan, cutoff: view.cutoff, mode: answer.mode });
    drawStalenessTable(table, answer.months, onCutoff);
  }

  async function load({ mode, marks, cutoff }) {
    view = { marks, cutoff };
    loading(
      messages,
      "Loading the staleness curve (made once per store; the first time can take a while)…",
    );
    try {
      answer = await getJson(
        "/v1/staleness",
        { mode },
        {
          onWait: () =>
            loading(messages, "The monthly classifications are being made; waiting for them…"),
        },
      );
      clearMessages(messages);
      notes(messages, answer.notes);
      if (!answer.months.length) {
        say(
          messages,
          "note",
          "The store's snapshots leave no whole month between the first and the latest.",
        );
      }
      draw();
    } catch (error) {
      answer = null;
      clearMessages(messages);
      clear(chart);
      clear(table);
      if (error.status === 404 && error.problem?.type?.endsWith("/not-found")) {
        say(
          messages,
          "note",
          "This service has no /v1/staleness yet, so the curve cannot be drawn.",
        );
      } else {
        problem(messages, error, "Could not load the staleness curve");
      }
    }
  }

  return {
    load,
    setMarks(marks) {
      if (view) view.marks = marks;
      draw();
    },
    moveCutoff(iso) {
      if (view) view.cutoff = iso;
      curve.moveCutoff(iso);
    },
  };
}
