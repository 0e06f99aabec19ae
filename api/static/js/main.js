// Wires the explorer together: reads the URL state, loads the snapshots, then the panels, and
// keeps them in step as the state changes. An address naming no entity opens the one with the
// most changed groups at the cutoff (start.js), so the first screen is never empty. Sets
// <html data-ready="1"> once the first view is drawn (the browser tests wait for it).

import { getJson } from "./api.js";
import { createCutoffControls } from "./cutoff.js";
import { clamp, firstOfMonth, toDay, toIso } from "./dates.js";
import { createEntityPanel } from "./entity.js";
import { createFacts } from "./facts.js";
import { drawLegend } from "./legend.js";
import { problem, say } from "./messages.js";
import { createSearch } from "./search.js";
import { createStalenessPanel } from "./staleness-panel.js";
import { createStart } from "./start.js";
import { followHistory, loadFromUrl, state, subscribe, toSearch, update } from "./state.js";

const DEBOUNCE_MS = 250;
const byId = (id) => document.getElementById(id);

let snapshots = [];

const cutoffControls = createCutoffControls({
  dateInput: byId("cutoff-date"),
  range: byId("cutoff-range"),
  onChange: (cutoff) => {
    byId("choose-messages").querySelector(".message-date")?.remove();
    update({ cutoff });
  },
  onInvalid: (text) => {
    byId("choose-messages").querySelector(".message-date")?.remove();
    say(
      byId("choose-messages"),
      "date",
      `“${text}” is not a date: write the cutoff as YYYY-MM-DD, for example ${state.cutoff}.`,
    );
  },
});

const entityPanel = createEntityPanel({
  card: byId("entity-card"),
  chart: byId("timeline-chart"),
  table: byId("timeline-table"),
  messages: byId("timeline-messages"),
  onCutoff: (cutoff) => update({ cutoff }),
  cutoffBounds: () => cutoffControls.bounds(),
});

const staleness = createStalenessPanel({
  chart: byId("staleness-chart"),
  table: byId("staleness-table"),
  marksBox: byId("seed-marks"),
  messages: byId("staleness-messages"),
  onCutoff: (cutoff) => update({ cutoff }),
  onMarks: (marks) => update({ marks }),
});

const facts = createFacts({
  form: byId("facts-filters"),
  levelBox: byId("facts-levels"),
  pidInput: byId("facts-pid"),
  table: byId("facts-table"),
  more: byId("facts-more"),
  messages: byId("facts-messages"),
  onFilter: (filters) => update(filters),
  onEntity: (entity) => update({ entity }, { push: true }),
});

const startList = createStart({
  list: byId("start-list"),
  caption: byId("start-caption"),
  messages: byId("start-messages"),
  onEntity: (entity) => update({ entity }, { push: true }),
});

createSearch({
  input: byId("search-input"),
  list: byId("search-list"),
  messages: byId("choose-messages"),
  onChoose: (entity) => update({ entity }, { push: true }),
});

drawLegend(byId("timeline-legend"));

// The default cutoff: the first of the month nearest the middle of the snapshots' span.
function defaultCutoff() {
  const { low, high } = cutoffControls.bounds();
  return toIso(clamp(firstOfMonth(Math.round((low + high) / 2)), low, high));
}

function validCutoff(iso) {
  const { low, high } = cutoffControls.bounds();
  return iso && toDay(iso) >= low && toDay(iso) <= high;
}

function loadEntity() {
  if (!state.entity) return Promise.resolve();
  const loaded = entityPanel.load({
    qid: state.entity,
    snapshots,
    axis: state.axis,
    cutoff: state.cutoff,
  });
  return loaded.then(() => entityPanel.paintLevels(state.cutoff, state.mode));
}

const loadFacts = () => facts.load(state);
const loadStaleness = () => staleness.load(state);

// The most changed entities; with no entity named yet, the first of them is opened (the
// address then names it, so a reload or a link shows the same).
async function loadStart() {
  const first = await startList.load(state);
  if (state.entity || !first) return;
  state.entity = first;
  history.replaceState(null, "", toSearch(state));
  await loadEntity();
}

function showControls() {
  cutoffControls.show(state.cutoff);
  for (const radio of document.querySelectorAll("input[name=axis]")) {
    radio.checked = radio.value === state.axis;
  }
  byId("mode-select").value = state.mode;
}

let debounce = null;
function onChange(keys) {
  showControls();
  if (keys.has("cutoff")) {
    entityPanel.moveCutoff(state.cutoff);
    staleness.moveCutoff(state.cutoff);
  }
  if (keys.has("entity")) loadEntity();
  else if (keys.has("axis")) entityPanel.redraw(state.axis, state.cutoff);
  if (keys.has("mode")) loadStaleness();
  if (keys.has("marks")) staleness.setMarks(state.marks);
  if (["cutoff", "mode", "level", "pid"].some((key) => keys.has(key))) {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      if (!keys.has("entity")) entityPanel.paintLevels(state.cutoff, state.mode);
      loadFacts();
      if (keys.has("cutoff") || keys.has("mode")) startList.load(state);
    }, DEBOUNCE_MS);
  }
}

byId("mode-select").addEventListener("change", (event) => update({ mode: event.target.value }));
for (const radio of document.querySelectorAll("input[name=axis]")) {
  radio.addEventListener("change", () => update({ axis: radio.value }));
}

async function start() {
  loadFromUrl();
  try {
    snapshots = (await getJson("/v1/snapshots")).snapshots;
  } catch (error) {
    problem(byId("choose-messages"), error, "Could not read the store's snapshots");
    return;
  }
  const [first, latest] = [snapshots[0], snapshots[snapshots.length - 1]];
  const subset = snapshots.some((s) => s.coverage === "subset");
  byId("store-summary").textContent =
    `${snapshots.length} snapshots: ${snapshots.map((s) => `${s.name} (${s.date})`).join(", ")}.` +
    (subset
      ? " Subset snapshots each hold a different sample of entities, " +
        "so many groups are not covered."
      : "");
  if (snapshots.length < 2 || toDay(latest.date) - toDay(first.date) < 2) {
    const why = {
      title: "Too few snapshots",
      detail: "a cutoff needs two snapshots at least two days apart",
    };
    problem(byId("choose-messages"), why, "Cannot classify");
    return;
  }
  cutoffControls.setBounds(first.date, latest.date);
  if (!validCutoff(state.cutoff)) {
    if (state.cutoff) {
      const why = {
        title: `The cutoff ${state.cutoff} is outside the data`,
        detail: `it must lie strictly between ${first.date} and ${latest.date}; using the default`,
      };
      problem(byId("choose-messages"), why, "Cutoff");
    }
    state.cutoff = defaultCutoff();
    history.replaceState(null, "", toSearch(state));
  }
  showControls();
  subscribe(onChange);
  followHistory();
  await Promise.allSettled([loadEntity(), loadStart(), loadFacts(), loadStaleness()]);
}

start().finally(() => {
  // performance.now() counts from the navigation's start: the page-load figure the tests report
  document.documentElement.dataset.readyMs = String(Math.round(performance.now()));
  document.documentElement.dataset.ready = "1";
});
