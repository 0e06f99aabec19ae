// The classification's levels, in the order the legends and tables list them. Each has a
// colour (explorer.css, class level-NAME) and a short mark so that no chart relies on colour.

export const LEVELS = [
  { name: "stable", mark: "=", text: "unchanged from the cutoff to the latest snapshot" },
  { name: "evolved", mark: "Δ", text: "changed after the cutoff" },
  { name: "uncharted", mark: "+", text: "first recorded after the cutoff" },
  { name: "recent", mark: "•", text: "recorded shortly before the cutoff" },
  { name: "retracted", mark: "×", text: "removed after the cutoff" },
  { name: "ambiguous", mark: "?", text: "cannot be told apart from the data" },
  {
    name: "not_covered",
    mark: "∅",
    text: "a snapshot needed does not hold this subject (subset snapshots), not a deletion",
  },
];

export const LEVEL_NAMES = LEVELS.map((level) => level.name);

// The staleness curve draws these as shares of the covered groups.
export const CURVE_LEVELS = ["stable", "evolved", "uncharted"];

export function levelInfo(name) {
  return LEVELS.find((level) => level.name === name) ?? { name, mark: "", text: "" };
}

export function levelWord(name) {
  return name ? name.replace("_", " ") : "not classified";
}
