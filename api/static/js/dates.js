// Calendar days as whole numbers (days since 1970-01-01, UTC) so that arithmetic, axes and
// range inputs never meet time zones or daylight saving.

const MS_PER_DAY = 86400000;

export function toDay(iso) {
  if (!iso) return null;
  const negative = iso.startsWith("-");
  const [y, m, d] = (negative ? iso.slice(1) : iso).split("-").map(Number);
  return fromParts(negative ? -y : y, m, d);
}

export function toIso(day) {
  const date = new Date(day * MS_PER_DAY);
  const y = date.getUTCFullYear();
  const pad = (n, w = 2) => String(n).padStart(w, "0");
  return `${y < 0 ? "-" : ""}${pad(Math.abs(y), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

export function parts(day) {
  const date = new Date(day * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function fromParts(year, month, dayOfMonth = 1) {
  // Date.UTC would map years 0..99 to 1900..; setUTCFullYear takes any year, and rolls a
  // month or day past its end over into the next.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, dayOfMonth);
  return Math.round(date.getTime() / MS_PER_DAY);
}

// Moving a month keeps the day of the month where it can (31 Jan + 1 month = 28/29 Feb).
export function addMonths(day, months) {
  const p = parts(day);
  const target = fromParts(p.year, p.month + months, 1);
  const t = parts(target);
  const last = parts(fromParts(t.year, t.month + 1, 1) - 1).day;
  return fromParts(t.year, t.month, Math.min(p.day, last));
}

export function firstOfMonth(day) {
  const p = parts(day);
  return fromParts(p.year, p.month, 1);
}

export function clamp(value, low, high) {
  return Math.min(high, Math.max(low, value));
}

export function isIsoDay(text) {
  return typeof text === "string" && /^\d{4}-\d{2}-\d{2}$/.test(text) && toIso(toDay(text)) === text;
}

export function readable(iso) {
  return iso ?? "—";
}
