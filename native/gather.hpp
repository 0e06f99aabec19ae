// Gather the rows of Arrow arrays run by run: a run is a contiguous range of rows of one
// chunk, and the output is the runs one after the other. Finalize reorders whole entities
// (kgdiff/store/subject_runs.py), so its rows move in runs of tens of rows; copying each
// run's bytes in one piece is several times cheaper than Arrow's take, which copies and
// bounds-checks row by row.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace kgdiff {

// One chunk of the input column: its buffers (validity may be null) and its row offset.
struct ChunkView {
  const uint8_t* validity = nullptr;
  const uint8_t* values = nullptr;  // fixed-width values, or int32 offsets
  const uint8_t* data = nullptr;    // string bytes (strings only)
  int64_t offset = 0;
  int64_t length = 0;
};

struct Runs {
  const int32_t* chunk;
  const int64_t* start;
  const int64_t* length;
  size_t count;
  int64_t rows;  // sum of the lengths
};

inline void check_runs(const std::vector<ChunkView>& chunks, const Runs& runs) {
  int64_t rows = 0;
  for (size_t r = 0; r < runs.count; ++r) {
    int32_t c = runs.chunk[r];
    if (c < 0 || static_cast<size_t>(c) >= chunks.size() || runs.start[r] < 0 ||
        runs.length[r] < 0 || runs.start[r] + runs.length[r] > chunks[c].length)
      throw std::out_of_range("a run is outside its chunk");
    rows += runs.length[r];
  }
  if (rows != runs.rows) throw std::invalid_argument("the runs' lengths do not add up");
}

inline bool bit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

// The validity bitmap of the gathered rows into ``out`` ((rows + 7) / 8 bytes; a chunk
// without one has every row valid).
inline void gather_validity(const std::vector<ChunkView>& chunks, const Runs& runs, uint8_t* out) {
  std::memset(out, 0, static_cast<size_t>((runs.rows + 7) / 8));
  int64_t at = 0;
  for (size_t r = 0; r < runs.count; ++r) {
    const ChunkView& c = chunks[runs.chunk[r]];
    int64_t first = c.offset + runs.start[r];
    for (int64_t i = 0; i < runs.length[r]; ++i, ++at)
      if (c.validity == nullptr || bit(c.validity, first + i))
        out[at >> 3] = static_cast<uint8_t>(out[at >> 3] | (1 << (at & 7)));
  }
}

// Fixed-width values of ``width`` bytes into ``out`` (rows * width bytes).
inline void gather_fixed(const std::vector<ChunkView>& chunks, const Runs& runs, size_t width,
                         char* out) {
  for (size_t r = 0; r < runs.count; ++r) {
    const ChunkView& c = chunks[runs.chunk[r]];
    size_t bytes = static_cast<size_t>(runs.length[r]) * width;
    std::memcpy(out, c.values + static_cast<size_t>(c.offset + runs.start[r]) * width, bytes);
    out += bytes;
  }
}

inline const int32_t* run_offsets(const std::vector<ChunkView>& chunks, const Runs& runs,
                                  size_t r) {
  const ChunkView& c = chunks[runs.chunk[r]];
  return reinterpret_cast<const int32_t*>(c.values) + c.offset + runs.start[r];
}

// The bytes of string data the runs cover (what ``gather_offsets`` writes to ``data``).
inline int64_t gathered_bytes(const std::vector<ChunkView>& chunks, const Runs& runs) {
  int64_t total = 0;
  for (size_t r = 0; r < runs.count; ++r) {
    const int32_t* in = run_offsets(chunks, runs, r);
    total += in[runs.length[r]] - in[0];
  }
  if (total > INT32_MAX) throw std::length_error("gathered strings over 2 GB");
  return total;
}

// Offsets (int32, rows + 1 of them, rebased to follow one another) into ``offsets`` and,
// unless ``data`` is null, the string bytes they point to. A list column's offsets take
// the same path without data; its items are then gathered as runs of their own.
inline void gather_offsets(const std::vector<ChunkView>& chunks, const Runs& runs,
                           int32_t* offsets, char* data) {
  int64_t end = 0, at = 0;
  offsets[0] = 0;
  for (size_t r = 0; r < runs.count; ++r) {
    const int32_t* in = run_offsets(chunks, runs, r);
    int64_t shift = end - in[0];
    for (int64_t i = 1; i <= runs.length[r]; ++i)
      offsets[++at] = static_cast<int32_t>(in[i] + shift);
    int64_t bytes = in[runs.length[r]] - in[0];
    if (data != nullptr)
      std::memcpy(data + end, chunks[runs.chunk[r]].data + in[0], static_cast<size_t>(bytes));
    end += bytes;
  }
}

}  // namespace kgdiff
