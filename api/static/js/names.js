// A value as people read it: an entity as "label (id)", any other value (a time in the
// server's words, "13.798 billion years BCE"; a quantity) as its label alone.

const ENTITY_ID = /^[QPL][1-9][0-9]*$/;

export function named(label, value) {
  const shown = label ?? value;
  return shown !== value && ENTITY_ID.test(value ?? "") ? `${shown} (${value})` : shown;
}
