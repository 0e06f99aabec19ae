// Python's repr() of a float: the shortest digits that read back to the same
// double, written fixed when the decimal exponent is in -4 < e <= 16 and in
// scientific notation otherwise (CPython's float_repr_style "short").
// Globe coordinate value keys are written with it (kgdiff/rows/values.py).
#pragma once

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace kgdiff {

inline void append_float_repr(std::string& out, double value) {
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  std::string_view text(buf, static_cast<size_t>(result.ptr - buf));  // [-]d[.ddd]e±XX
  size_t e = text.find('e');
  std::string_view mantissa = text.substr(0, e);
  int exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  if (!mantissa.empty() && mantissa[0] == '-') {
    out += '-';
    mantissa.remove_prefix(1);
  }
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  int point = exponent + 1;  // digits are 0.d1d2… × 10^point
  int count = static_cast<int>(digits.size());
  if (point <= -4 || point > 16) {
    out += digits[0];
    if (count > 1) {
      out += '.';
      out.append(digits, 1, std::string::npos);
    }
    char exp[16];
    int magnitude = exponent < 0 ? -exponent : exponent;
    std::snprintf(exp, sizeof(exp), "e%c%02d", exponent < 0 ? '-' : '+', magnitude);
    out += exp;
  } else if (point <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-point), '0');
    out += digits;
  } else if (point >= count) {
    out += digits;
    out.append(static_cast<size_t>(point - count), '0');
    out += ".0";
  } else {
    out.append(digits, 0, static_cast<size_t>(point));
    out += '.';
    out.append(digits, static_cast<size_t>(point), std::string::npos);
  }
}

}  // namespace kgdiff
