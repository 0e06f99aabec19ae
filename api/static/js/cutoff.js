// The cutoff's keyboard controls: a date input and a range over days, kept in step. Both move a
// day with the arrow keys and a month with Page Up / Page Down (the range's own page step is a
// tenth of its span, which means nothing on a calendar).

import { addMonths, clamp, isIsoDay, toDay, toIso } from "./dates.js";

export function createCutoffControls({ dateInput, range, onChange }) {
  let low = 0;
  let high = 0;

  function emit(day) {
    if (high <= low) return;
    onChange(toIso(clamp(day, low, high)));
  }

  function pageKeys(event, currentDay) {
    if (event.key !== "PageUp" && event.key !== "PageDown") return;
    event.preventDefault();
    emit(addMonths(currentDay(), event.key === "PageUp" ? 1 : -1));
  }

  range.addEventListener("input", () => emit(Number(range.value)));
  range.addEventListener("keydown", (event) => pageKeys(event, () => Number(range.value)));
  dateInput.addEventListener("change", () => {
    if (isIsoDay(dateInput.value)) emit(toDay(dateInput.value));
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
      dateInput.min = toIso(low);
      dateInput.max = toIso(high);
    },
    show(iso) {
      dateInput.value = iso;
      range.value = String(toDay(iso));
      range.setAttribute("aria-valuetext", iso);
    },
    bounds: () => ({ low, high }),
  };
}
