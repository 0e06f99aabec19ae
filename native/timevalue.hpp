// Wikidata time values: value key and day interval, the integer arithmetic of
// kgdiff/timevalue.py and kgdiff/calendars.py for years of up to 15 digits.
// Anything this port does not cover (longer years) or that the Python code
// refuses returns false: the caller then hands the entity to the Python path,
// which stays the reference (tests/test_native_rows.py checks both agree).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace kgdiff {

constexpr std::string_view kGregorian = "Q1985727";
constexpr std::string_view kJulian = "Q1985786";
constexpr std::string_view kEntityUri = "http://www.wikidata.org/entity/";

inline int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

inline int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

inline void days_from_march(int64_t year, int64_t month, int64_t day, int64_t& y, int64_t& doy) {
  if (month <= 2) {
    y = year - 1;
    doy = floor_div(153 * (month + 9) + 2, 5) + day - 1;
  } else {
    y = year;
    doy = floor_div(153 * (month - 3) + 2, 5) + day - 1;
  }
}

inline int64_t gregorian_days(int64_t year, int64_t month, int64_t day) {
  int64_t y, doy;
  days_from_march(year, month, day, y, doy);
  return y * 365 + floor_div(y, 4) - floor_div(y, 100) + floor_div(y, 400) + doy - 719468;
}

inline int64_t julian_raw(int64_t year, int64_t month, int64_t day) {
  int64_t y, doy;
  days_from_march(year, month, day, y, doy);
  return y * 365 + floor_div(y, 4) + doy;
}

inline int64_t day_number(int64_t year, int64_t month, int64_t day, bool julian) {
  static const int64_t julian_shift = gregorian_days(1582, 10, 15) - julian_raw(1582, 10, 5);
  return julian ? julian_raw(year, month, day) + julian_shift : gregorian_days(year, month, day);
}

inline int64_t days_in_month(int64_t year, int64_t month, bool julian) {
  static const int64_t lengths[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month != 2) return lengths[month - 1];
  bool leap = floor_mod(year, 4) == 0;
  if (!julian) leap = leap && (floor_mod(year, 100) != 0 || floor_mod(year, 400) == 0);
  return leap ? 29 : 28;
}

inline int32_t to_date32(int64_t day) {
  static const int64_t lo = gregorian_days(-5877641, 6, 25);
  static const int64_t hi = gregorian_days(5881580, 7, 10);
  return static_cast<int32_t>(std::clamp(day, lo, hi));
}

// Astronomical first and last year of a written year at year precision or coarser.
inline void year_span(int64_t written, int precision, int64_t& lo, int64_t& hi) {
  int64_t astro = written < 0 ? written + 1 : written;
  if (precision >= 9) {
    lo = hi = astro;
    return;
  }
  if (precision == 7 || precision == 6) {  // centuries and millennia count from 1
    int64_t size = precision == 7 ? 100 : 1000;
    int64_t c = floor_div(astro - 1, size) + 1;
    lo = (c - 1) * size + 1;
    hi = c * size;
    return;
  }
  int64_t size = 1;
  for (int i = 0; i < 9 - precision; ++i) size *= 10;
  if (written >= 0) {
    lo = floor_div(written, size) * size;
    hi = lo + size - 1;
    return;
  }
  int64_t block = floor_div(-written, size) * size;  // BCE blocks mirror CE ones
  lo = 1 - (block + size - 1);
  hi = 1 - std::max<int64_t>(block, 1);
}

struct TimeResult {
  int precision = 0;
  std::string key;
  std::string_view calendar;
  int32_t lo = 0;
  int32_t hi = 0;
};

inline bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

// The calendar QID of a calendar model (a QID or an entity URI); false if neither.
inline bool calendar_qid(std::string_view model, std::string_view& qid) {
  if (model.empty()) model = kGregorian;
  while (!model.empty() && model.back() == '/') model.remove_suffix(1);
  size_t slash = model.rfind('/');
  qid = slash == std::string_view::npos ? model : model.substr(slash + 1);
  return qid.size() >= 2 && qid[0] == 'Q' && all_digits(qid.substr(1));
}

inline void interval(int64_t written, int64_t month, int64_t day, int precision, bool julian,
                     int64_t& lo, int64_t& hi) {
  if (precision >= 10 && month) {
    int64_t astro = written < 0 ? written + 1 : written;
    if (precision >= 11 && day) {
      if (day > 28) day = std::min(day, days_in_month(astro, month, julian));
      lo = hi = day_number(astro, month, day, julian);
      return;
    }
    lo = day_number(astro, month, 1, julian);
    hi = lo + days_in_month(astro, month, julian) - 1;
    return;
  }
  int64_t y_lo, y_hi;
  year_span(written, precision, y_lo, y_hi);
  lo = day_number(y_lo, 1, 1, julian);
  hi = day_number(y_hi, 12, 31, julian);
}

// Parse ``raw`` at ``precision`` (already truncated to an int) in ``model``.
inline bool parse_time(std::string_view raw, int precision, std::string_view model,
                       TimeResult& out) {
  if (precision < 0 || precision > 14) return false;
  char sign = '+';
  std::string_view body = raw;
  if (!raw.empty() && (raw[0] == '+' || raw[0] == '-')) {
    sign = raw[0];
    body = raw.substr(1);
  }
  std::string_view date = body.substr(0, body.find('T'));
  size_t n = date.size();
  if (n < 7 || n > 36 || date[n - 3] != '-' || date[n - 6] != '-') return false;
  std::string_view year = date.substr(0, n - 6), month = date.substr(n - 5, 2);
  std::string_view day = date.substr(n - 2);
  if (!all_digits(year) || !all_digits(month) || !all_digits(day)) return false;
  if (month > "12" || day > "31") return false;
  year.remove_prefix(std::min(year.find_first_not_of('0'), year.size()));
  if (year.size() > 15) return false;  // beyond int64 day arithmetic: Python's job
  if (!calendar_qid(model, out.calendar)) return false;
  int64_t years = 0;
  for (char c : year) years = years * 10 + (c - '0');
  int64_t written = sign == '-' ? -years : years;
  int64_t m = (month[0] - '0') * 10 + (month[1] - '0'), d = (day[0] - '0') * 10 + (day[1] - '0');
  int64_t lo, hi;
  interval(written, m, d, precision, out.calendar == kJulian, lo, hi);
  out.precision = precision;
  out.lo = to_date32(lo);
  out.hi = to_date32(hi);
  std::string& key = out.key;
  key.clear();
  key += year.empty() ? '+' : sign;
  if (year.size() < 4) key.append(4 - year.size(), '0');
  key += year;
  key += '-';
  key += precision < 10 ? std::string_view("00") : month;
  key += '-';
  key += precision < 11 ? std::string_view("00") : day;
  key += "T00:00:00Z|";
  key += std::to_string(precision);
  key += '|';
  key += out.calendar;
  return true;
}

}  // namespace kgdiff
