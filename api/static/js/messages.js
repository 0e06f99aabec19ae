// What a panel tells its reader: the service's notes, problems (title + detail) and loading
// states, in a live region so screen readers hear them too.

import { isAbort } from "./api.js";
import { clear, html } from "./svg.js";

export function clearMessages(box) {
  clear(box);
}

export function say(box, kind, text) {
  box.append(html("p", { class: `message message-${kind}` }, text));
}

export function loading(box, text) {
  clear(box);
  say(box, "loading", text);
}

export function notes(box, list) {
  for (const note of list ?? []) say(box, "note", `Note: ${note}`);
}

export function problem(box, error, what) {
  if (isAbort(error)) return;
  const detail = error?.detail ? ` — ${error.detail}` : "";
  const title = error?.title ?? error?.message ?? String(error);
  say(box, "error", `${what}: ${title}${detail}`);
}
