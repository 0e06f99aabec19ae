// The classified facts at the cutoff: level and relation filters (kept in the URL), a page at
// a time through next_cursor, each row linking to its subject in the explorer and to its
// evidence.

import { getJson } from "./api.js";
import { evidenceDetails } from "./evidence.js";
import { LEVELS, levelInfo, levelWord } from "./levels.js";
import { loading, notes, problem, say } from "./messages.js";
import { named } from "./names.js";
import { clear, html } from "./svg.js";

const PAGE = 50;

function labelled(ids, labels) {
  return (ids ?? []).map((id, i) => named(labels?.[i], id)).join(", ");
}

export function createFacts({
  form,
  levelBox,
  pidInput,
  table,
  more,
  messages,
  onFilter,
  onEntity,
}) {
  let cursor = null;
  let body = null;
  let request = 0;
  let params = null;

  for (const level of LEVELS) {
    const box = html("input", { type: "checkbox", name: "level", value: level.name });
    levelBox.append(
      html("label", {}, box, ` ${levelInfo(level.name).mark} ${levelWord(level.name)}`),
    );
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const level = [...levelBox.querySelectorAll("input:checked")].map((box) => box.value);
    const pid = pidInput.value
      .split(/[\s,]+/)
      .map((p) => p.trim().toUpperCase())
      .filter(Boolean);
    onFilter({ level, pid });
  });
  more.addEventListener("click", () => fetchPage(false));

  function row(item) {
    const link = html(
      "a",
      {
        href: `?entity=${item.subject}`,
        onclick: (event) => {
          if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
          event.preventDefault();
          onEntity(item.subject);
        },
      },
      item.subject_label && item.subject_label !== item.subject
        ? `${item.subject_label} (${item.subject})`
        : item.subject,
    );
    return html(
      "tr",
      { "data-subject": item.subject, "data-pid": item.pid, "data-level": item.level },
      html("td", {}, link),
      html("td", {}, `${item.pid_label ?? ""} (${item.pid})`),
      html(
        "td",
        { class: `level-text level-${item.level}` },
        `${levelInfo(item.level).mark} ${levelWord(item.level)}`,
      ),
      html("td", {}, labelled(item.latest, item.latest_labels)),
      html("td", {}, labelled(item.outdated, item.outdated_labels)),
      html("td", {}, evidenceDetails(item.subject, item.pid)),
    );
  }

  async function fetchPage(first) {
    const mine = ++request;
    if (first) {
      cursor = null;
      loading(messages, "Loading the facts…");
    }
    more.disabled = true;
    try {
      const page = await getJson(
        "/v1/facts",
        { ...params, cursor },
        {
          onWait: () => loading(messages, "The classification is being made; waiting for it…"),
        },
      );
      if (mine !== request) return;
      clear(messages);
      if (first) startTable();
      body.append(...page.items.map(row));
      if (!body.children.length)
        say(messages, "note", "No facts match these filters at this cutoff.");
      cursor = page.next_cursor;
      more.hidden = !cursor;
    } catch (error) {
      if (mine !== request) return;
      clear(messages);
      if (first) clear(table);
      problem(messages, error, "Could not load the facts");
    } finally {
      more.disabled = false;
    }
  }

  function startTable() {
    clear(table);
    body = html("tbody");
    const head = ["Subject", "Relation", "Level", "Latest", "Outdated", "Evidence"];
    table.append(
      html(
        "table",
        {},
        html("caption", { class: "visually-hidden" }, "Classified facts"),
        html(
          "thead",
          {},
          html(
            "tr",
            {},
            head.map((name) => html("th", { scope: "col" }, name)),
          ),
        ),
        body,
      ),
    );
  }

  // Show the filters the state holds and load the first page for them.
  async function load({ cutoff, mode, level, pid }) {
    for (const box of levelBox.querySelectorAll("input")) box.checked = level.includes(box.value);
    pidInput.value = pid.join(", ");
    params = { cutoff, mode, level, pid, limit: PAGE, lang: "en" };
    await fetchPage(true);
  }

  return { load, notes: (list) => notes(messages, list) };
}
