// A fact's evidence: a <details> that, when first opened, fetches the enwiki sentences that
// mention the fact and links each one's page and revision.

import { getJson } from "./api.js";
import { notes, problem, say } from "./messages.js";
import { html } from "./svg.js";

const WIKI = "https://en.wikipedia.org";

function pageLink(title) {
  return `${WIKI}/wiki/${encodeURIComponent(title.replaceAll(" ", "_"))}`;
}

function sentenceItem(item) {
  return html(
    "li",
    { class: item.sentence ? "evidence-item" : "evidence-read" },
    item.sentence
      ? html("q", {}, item.sentence)
      : `Read, but no sentence mentions ${item.object_label ?? item.object_qid ?? "the value"}`,
    " — ",
    html("a", { href: pageLink(item.title), rel: "noopener" }, item.title),
    item.section ? ` § ${item.section}` : "",
    item.revision_id
      ? [
          " · ",
          html(
            "a",
            { href: `${WIKI}/w/index.php?oldid=${item.revision_id}`, rel: "noopener" },
            `revision ${item.revision_id}`,
          ),
        ]
      : "",
    item.timestamp ? ` (${item.timestamp.slice(0, 10)})` : "",
    item.weak ? " · weak match" : "",
  );
}

export function evidenceDetails(subject, pid) {
  const body = html("div", { class: "evidence-body", role: "status", "aria-live": "polite" });
  const details = html("details", { class: "evidence" }, html("summary", {}, "evidence"), body);
  let asked = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || asked) return;
    asked = true;
    say(body, "loading", "Loading the evidence…");
    try {
      const answer = await getJson("/v1/evidence", { subject, pid });
      body.replaceChildren();
      if (!answer.items.some((item) => item.sentence)) {
        say(
          body,
          "note",
          "No evidence: no sentence of the store's Wikipedia articles mentions this fact.",
        );
      }
      // sentences first; the pages read without a mention say where the store looked
      const items = [...answer.items].sort((a, b) => Number(!a.sentence) - Number(!b.sentence));
      if (items.length)
        body.append(html("ul", { class: "evidence-list" }, items.map(sentenceItem)));
      notes(body, answer.notes);
    } catch (error) {
      body.replaceChildren();
      asked = false;
      problem(body, error, "Could not load the evidence");
    }
  });
  return details;
}
