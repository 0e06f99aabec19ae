// The cutoff's keyboard controls: a date field and a range over days, kept in step. The field
// is text written YYYY-MM-DD whatever the browser's language (a date input would show it as
// the locale writes dates, 06/01/2014 or 01.06.2014); a date it cannot read is named in the
// messages and left for the reader to mend. Page Up / Page Down move a month in both, the arrow
// keys a day on the range (its own page step is a tenth of its span, which means nothing on a
// calendar).

import { addMonths, clamp, isIsoDay, toDay, toIso } from "./dates.js";

export function createCutoffControls({ dateInput, range, onChange, onInvalid }) {
  let low = 0;
  let high = 0;

  function emit(day) {
    if (high <= low) return null;
    const iso = toIso(clamp(day, low, high));
    onChange(iso);
    return iso;
  }

  function pageKeys(event, currentDay) {
    if (event.key !== "PageUp" && event.key !== "PageDown") return;
    event.preventDefault();
    emit(addMonths(currentDay(), event.key === "PageUp" ? 1 : -1));
  }

  range.addEventListener("input", () => emit(Number(range.value)));
  range.addEventListener("keydown", (event) => pageKeys(event, () => Number(range.value)));

  // A date outside the span is moved to its nearest end, and the field shows where.
  function commit() {
    const text = dateInput.value.trim();
    const valid = isIsoDay(text);
    dateInput.setAttribute("aria-invalid", String(!valid));
    if (!valid) {
      onInvalid?.(text);
      return;
    }
    const iso = emit(toDay(text));
    if (iso) dateInput.value = iso;
  }

  dateInput.addEventListener("change", commit);
  dateInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") commit();
  });
  dateInput.addEventListener("keydown", (event) => {
    if (isIsoDay(dateInput.value)) pageKeys(event, () => toDay(dateInput.value));
  });

  return {
    // The cutoff must lie strictly between the first and the latest snapshot.
    setBounds(firstIso, latestIso) {
      low = toDay(firstIso) + 1;
      high = toDay(latestIso) - 1;
      range.min = String(low);
      range.max = String(high);
    },
    show(iso) {
      dateInput.value = iso;
      dateInput.setAttribute("aria-invalid", "false");
      range.value = String(toDay(iso));
      range.setAttribute("aria-valuetext", iso);
    },
    bounds: () => ({ low, high }),
  };
}
