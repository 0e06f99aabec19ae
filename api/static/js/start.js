// Where to start: the entities with the most changed groups (evolved, uncharted, recent,
// retracted) at the cutoff, counted here from /v1/facts pages of those levels. The first page
// is the explorer's first screen: main.js opens the top entity when the address names none.
// A store with more changed groups than MAX_PAGES pages is counted on its first pages, and the
// list says so.

import { getJson } from "./api.js";
import { levelInfo, levelWord } from "./levels.js";
import { clearMessages, loading, problem, say } from "./messages.js";
import { clear, html } from "./svg.js";

export const CHANGES = ["evolved", "uncharted", "recent", "retracted"];
const PAGE = 1000;
const MAX_PAGES = 10;
const SHOWN = 8;

function idNumber(qid) {
  return Number(qid.slice(1));
}

// Most changed groups first; among equals, the smaller id (the longer-known entity).
export function ranked(counts) {
  return [...counts.values()].sort(
    (a, b) => b.total - a.total || idNumber(a.qid) - idNumber(b.qid),
  );
}

export function createStart({ list, caption, messages, onEntity }) {
  let request = 0;

  function entry(item) {
    const parts = CHANGES.filter((level) => item.levels[level]).map(
      (level) => `${item.levels[level]} ${levelInfo(level).mark} ${levelWord(level)}`,
    );
    const name = item.label && item.label !== item.qid ? `${item.label} (${item.qid})` : item.qid;
    const link = html(
      "a",
      {
        href: `?entity=${item.qid}`,
        onclick: (event) => {
          if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
          event.preventDefault();
          onEntity(item.qid);
        },
      },
      name,
    );
    return html(
      "li",
      { "data-qid": item.qid, "data-changes": item.total, title: parts.join(", ") },
      link,
      html("span", { class: "start-count" }, ` ${item.total} changed`),
    );
  }

  async function count({ cutoff, mode }, mine) {
    const counts = new Map();
    let cursor = null;
    let pages = 0;
    do {
      const page = await getJson(
        "/v1/facts",
        { cutoff, mode, level: CHANGES, limit: PAGE, cursor, lang: "en" },
        {
          onWait: () => loading(messages, "The classification is being made; waiting for it…"),
        },
      );
      if (mine !== request) return null;
      for (const item of page.items) {
        const found = counts.get(item.subject) ?? {
          qid: item.subject,
          label: item.subject_label,
          total: 0,
          levels: {},
        };
        found.total += 1;
        found.levels[item.level] = (found.levels[item.level] ?? 0) + 1;
        counts.set(item.subject, found);
      }
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < MAX_PAGES);
    return { top: ranked(counts), partial: Boolean(cursor) };
  }

  // The list for this cutoff and mode; resolves to the most changed entity's id (or null).
  async function load(state) {
    const mine = ++request;
    try {
      const counted = await count(state, mine);
      if (!counted) return null;
      clearMessages(messages);
      clear(list);
      const first = `the first ${(PAGE * MAX_PAGES).toLocaleString("en")} changed groups`;
      const among = counted.partial ? `, among ${first}` : "";
      caption.textContent = `Most changed at ${state.cutoff} (${state.mode} mode${among}):`;
      list.append(...counted.top.slice(0, SHOWN).map(entry));
      if (!counted.top.length)
        say(messages, "note", `No group changes at ${state.cutoff}: search for an entity above.`);
      return counted.top[0]?.qid ?? null;
    } catch (error) {
      if (mine !== request) return null;
      clearMessages(messages);
      problem(messages, error, "Could not count the changed entities");
      return null;
    }
  }

  return { load };
}
