// The timeline panel: loads an entity and its timeline, draws both views of it, and paints
// each property row with its group's level at the cutoff.

import { getJson } from "./api.js";
import { clearMessages, loading, notes, problem, say } from "./messages.js";
import { clear, html } from "./svg.js";
import { createTimeline } from "./timeline.js";
import { createTimelineTable } from "./timeline-table.js";

export function createEntityPanel({ card, chart, table, messages, onCutoff, cutoffBounds }) {
  const timeline = createTimeline(chart, { onCutoff, cutoffBounds });
  const textTable = createTimelineTable(table);
  let shown = null;
  let levelRequest = 0;

  function showCard(qid, answer) {
    const entity = answer.entity;
    clear(card);
    if (!entity) {
      card.append(html("h3", {}, qid), html("p", {}, "This entity is not in the store."));
      return;
    }
    card.append(
      html("h3", {}, `${entity.label ?? qid} (${qid})`),
      html("p", {}, entity.description ?? ""),
      entity.type_labels?.length
        ? html("p", {}, `Instance of: ${entity.type_labels.join(", ")}`)
        : "",
    );
  }

  async function load({ qid, snapshots, axis, cutoff }) {
    loading(messages, `Loading ${qid}…`);
    shown = null;
    try {
      const [answer, line] = await Promise.all([
        getJson(`/v1/entities/${qid}`, { lang: "en" }),
        getJson(`/v1/entities/${qid}/timeline`, { lang: "en" }),
      ]);
      clearMessages(messages);
      showCard(qid, answer);
      notes(messages, [...(answer.notes ?? []), ...(line.notes ?? [])]);
      shown = { qid, items: line.items, snapshots, name: answer.entity?.label ?? qid };
      if (!line.items.length) {
        say(messages, "note", `${qid} has no statements in the store.`);
        clear(chart);
        clear(table);
        return;
      }
      redraw(axis, cutoff);
    } catch (error) {
      clearMessages(messages);
      clear(chart);
      clear(table);
      problem(messages, error, `Could not load ${qid}`);
    }
  }

  function redraw(axis, cutoff) {
    if (!shown?.items.length) return;
    timeline.draw({
      items: shown.items,
      snapshots: shown.snapshots,
      axis,
      cutoff,
      entityName: shown.name,
    });
    textTable.draw(shown.items);
  }

  // The group levels of the shown entity at the cutoff, from /v1/facts.
  async function paintLevels(cutoff, mode) {
    if (!shown?.items.length) return;
    const mine = ++levelRequest;
    const levels = new Map();
    try {
      const page = await getJson("/v1/facts", {
        cutoff,
        mode,
        subject: shown.qid,
        limit: 1000,
        lang: "en",
      });
      if (mine !== levelRequest) return;
      for (const item of page.items) levels.set(item.pid, item.level);
      for (const node of messages.querySelectorAll(".message-levels")) node.remove();
      if (!page.items.length) {
        say(
          messages,
          "levels",
          `The ${mode} classification at ${cutoff} has no group of ${shown.qid}: ` +
            "the snapshots it reads do not hold this entity (subset snapshots), " +
            "so the rows are not coloured.",
        );
      }
      for (const node of messages.querySelectorAll(".message-error")) node.remove();
    } catch (error) {
      if (mine !== levelRequest) return;
      problem(messages, error, "Could not classify the entity at this cutoff");
    }
    timeline.paintLevels(levels);
    textTable.paintLevels(levels);
  }

  return {
    load,
    redraw,
    paintLevels,
    moveCutoff: (iso) => timeline.moveCutoff(iso),
    entity: () => shown?.qid ?? null,
  };
}
