// Calendar days as whole numbers (days since 1970-01-01, UTC) so that arithmetic, axes and
// range inputs never meet time zones or daylight saving.

const MS_PER_DAY = 86400000;
const DATE_DAYS = 100000000; // a JavaScript Date holds ±100,000,000 days around 1970
const YEAR_DAYS = 365.2425;

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
  const year = `${y < 0 ? "-" : ""}${pad(Math.abs(y), 4)}`;
  return `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
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
  return (
    typeof text === "string" && /^\d{4}-\d{2}-\d{2}$/.test(text) && toIso(toDay(text)) === text
  );
}

export function readable(iso) {
  return iso ?? "—";
}

// Years on an axis that may reach the Big Bang: a day number's astronomical year (1 BCE is 0)
// and the first day of a year, exact where a Date holds them, by the mean Gregorian year
// beyond (where a day is far below a pixel).
export function yearOf(day) {
  return Math.abs(day) < DATE_DAYS ? parts(day).year : Math.floor(day / YEAR_DAYS + 1970);
}

export function firstDayOf(year) {
  const day = Math.round((year - 1970) * YEAR_DAYS);
  return Math.abs(day) < DATE_DAYS - 400 ? fromParts(year, 1, 1) : day;
}

function scaled(years) {
  if (years >= 1e9) return `${Number((years / 1e9).toPrecision(4))} billion`;
  if (years >= 1e6) return `${Number((years / 1e6).toPrecision(4))} million`;
  return years >= 10000 ? years.toLocaleString("en-US") : String(years);
}

// An axis tick's year: "2014", "44 BCE", "10,000 BCE", "66 million BCE", "13.8 billion BCE".
export function yearLabel(year) {
  return year > 0 ? scaled(year) : `${scaled(1 - year)} BCE`;
}

// A day for people where a Date holds it (its ISO form), else its year.
export function dayLabel(day) {
  return Math.abs(day) < DATE_DAYS ? toIso(day) : yearLabel(yearOf(day));
}
