// The entity search: an ARIA 1.2 combobox (input + listbox) over /v1/search, debounced.
// Arrow keys move through the options, Enter opens one, Escape closes the list.

import { getJson, isAbort } from "./api.js";
import { clear, html } from "./svg.js";

const DEBOUNCE_MS = 200;

export function createSearch({ input, list, messages, onChoose }) {
  let options = [];
  let active = -1;
  let timer = null;
  let controller = null;

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function highlight(index) {
    active = index;
    for (const [i, option] of [...list.children].entries()) {
      option.setAttribute("aria-selected", String(i === index));
    }
    const node = list.children[index];
    if (node) {
      input.setAttribute("aria-activedescendant", node.id);
      node.scrollIntoView({ block: "nearest" });
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function choose(index) {
    const item = options[index];
    if (!item) return;
    input.value = item.label ? `${item.label} (${item.qid})` : item.qid;
    close();
    onChoose(item.qid);
  }

  function show(items, query) {
    options = items;
    clear(list);
    clear(messages);
    if (!items.length) {
      messages.append(
        html("p", { class: "message message-note" }, `No entity matches “${query}”.`),
      );
      close();
      return;
    }
    items.forEach((item, index) => {
      const how = item.match === "alias" ? " · alias" : "";
      list.append(
        html(
          "li",
          {
            id: `search-option-${index}`,
            role: "option",
            "aria-selected": "false",
            "data-qid": item.qid,
            // mousedown, not click: a click would first blur the input and close the list
            onmousedown: (event) => {
              event.preventDefault();
              choose(index);
            },
          },
          `${item.label ?? item.qid} (${item.qid})`,
          html("span", { class: "option-meta" }, (item.description ?? "") + how),
        ),
      );
    });
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    highlight(-1);
  }

  async function lookUp(query) {
    controller?.abort();
    controller = new AbortController();
    try {
      const answer = await getJson(
        "/v1/search",
        { q: query, lang: "en", limit: 10 },
        { signal: controller.signal },
      );
      show(answer.items ?? [], query);
    } catch (error) {
      if (isAbort(error)) return;
      close();
      clear(messages);
      const detail =
        error.status === 404 ? "this service has no /v1/search; type a QID" : error.message;
      messages.append(html("p", { class: "message message-error" }, `Search failed: ${detail}`));
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (!query) {
      close();
      return;
    }
    timer = setTimeout(() => lookUp(query), DEBOUNCE_MS);
  });

  input.addEventListener("keydown", (event) => {
    const open = !list.hidden && options.length > 0;
    if (event.key === "ArrowDown" && open) {
      event.preventDefault();
      highlight((active + 1) % options.length);
    } else if (event.key === "ArrowUp" && open) {
      event.preventDefault();
      highlight(active <= 0 ? options.length - 1 : active - 1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      const typed = input.value.trim().toUpperCase();
      if (open) choose(Math.max(active, 0));
      // a bare QID opens even when the service has no search
      else if (/^Q\d+$/.test(typed)) onChoose(typed);
    } else if (event.key === "Escape") {
      if (open) event.preventDefault();
      close();
    }
  });

  input.addEventListener("blur", () => setTimeout(close, 100));
}
