// Uniformity analysis, what each block's pass read: the part of the solver that lets a
// round pass over a block whose transfer would raise nothing.
//
// A block's transfer is a function of the solver's facts it reads (and of the module).
// Every fact the fixed point raises is keyed by a kind and an id below the module's
// bound (a value, a block's label, a load, a function, a memory root, a pointer
// parameter); the solver notes each read of one, at the time of the read on the
// solver's clock (its count of rises), and stamps each fact that rises with the time.
// The proof that passing over is exact: if no fact a pass read has risen since that
// read, a new pass reads the same levels and causes, computes the same raises, and
// finds each target already at least that high, so it raises nothing; it would only
// run call contexts whose results are kept (the solver does not pass over a block whose
// previous pass ran one that was not). Reads and rises within one pass count the same
// way: a pass that raised a fact after reading it is run again, one that raised it
// before reading it is not. So the rounds, and every fact with its cause, are those of
// running every block in every round (UniformityOptions::rerun_every_block runs them
// all; tests and the corpus suite compare the two). One corner where they may differ,
// as they already could when a block was passed over only if nothing at all had risen:
// a kept context result that was dropped for newer ones (call_contexts.h keeps 16 per
// callee) after the entry point's context budget ran out. A pass run again would then
// take the callee's joined result, higher than the context's; the pass passed over
// keeps the context's. Both are sound; the corpus suite's comparison finds no such case.
#ifndef GLINT_SPIRV_ANALYSIS_UNIFORMITY_FACT_READS_H
#define GLINT_SPIRV_ANALYSIS_UNIFORMITY_FACT_READS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "SPIRV/analysis/facts/stable_flat_map.h"

namespace glint::spirv::uniformity_detail {

// What a fact is about; with an id, its key.
enum class FactKind : uint8_t {
  kValue,       // a value's level, by its id
  kBlock,       // a block's control with its function's call sites, by its label
  kLocalBlock,  // a block's control within its function, by its label
  kKilledOut,   // kills by callees seen at a block's end, by its label
  kLocalLoad,   // what reaches a followed Function-variable load, by its result id
  kReturn,      // what a function returns, by its id
  kKill,        // whether a function may end invocations, by its id
  kEntry,       // a function's calls' control, by its id
  kMemory,      // a memory root's level, by its id
  kBinding,     // the caller roots a pointer parameter is bound to, by its id
};

class FactReads {
 public:
  struct Read {
    uint64_t key;
    uint64_t at;  // the clock when it was read
  };
  // Where the reads of a block's last pass are kept: `count` reads at `first`, in room
  // for `capacity`, carved from this object's chunks. A room per block in shared chunks
  // rather than a vector per block: that was an allocation per block.
  struct Log {
    Read* first = nullptr;
    size_t count = 0;
    size_t capacity = 0;
  };

  // `clock` counts the solver's rises; it only grows.
  explicit FactReads(const uint64_t* clock) : clock_(clock) {}

  // Notes the reads of one pass, to be kept in `log` at End. They are gathered in one
  // buffer for every pass and copied once into the log's room; a log that outgrows its
  // room takes new room twice what it needs (the old room is left unused), so a block's
  // log moves a few times at most however many passes run it.
  void Begin(Log* log) {
    gathered_.clear();
    log_ = log;
  }
  void End() {
    if (log_) {
      if (gathered_.size() > log_->capacity) {
        log_->capacity = std::max<size_t>(4, 2 * gathered_.size());
        log_->first = Room(log_->capacity);
      }
      std::copy(gathered_.begin(), gathered_.end(), log_->first);
      log_->count = gathered_.size();
    }
    log_ = nullptr;
  }

  // A read of a fact, during a pass (outside one: nothing to note).
  void Note(FactKind kind, uint32_t id) const {
    if (!log_) return;
    const uint64_t key = Key(kind, id);
    // The same fact read again with nothing risen between (the next operand of the same
    // value, a block's own control) is one read.
    if (!gathered_.empty() && gathered_.back().key == key && gathered_.back().at == *clock_)
      return;
    gathered_.push_back({key, *clock_});
  }

  // A fact rose: its stamp is the clock now (after the rise counted).
  void Rose(FactKind kind, uint32_t id) { stamps_[Key(kind, id)] = *clock_; }

  // Whether some fact in `log` rose after it was read.
  bool RoseSinceRead(const Log& log) const {
    for (const Read* read = log.first; read != log.first + log.count; ++read) {
      const uint64_t* stamp = stamps_.Find(read->key);
      if (stamp && *stamp > read->at) return true;
    }
    return false;
  }

 private:
  static uint64_t Key(FactKind kind, uint32_t id) {
    return (static_cast<uint64_t>(kind) << 32) | id;
  }

  const uint64_t* clock_;
  Log* log_ = nullptr;
  mutable std::vector<Read> gathered_;  // the reads of the pass under way
  // Room for `size` reads that stays put: from the current chunk, or a new one (left
  // uninitialized: End writes what is read).
  Read* Room(size_t size) {
    if (chunk_left_ < size) {
      const size_t chunk = std::max(kChunkReads, size);
      chunks_.push_back(std::unique_ptr<Read[]>(new Read[chunk]));
      chunk_next_ = chunks_.back().get();
      chunk_left_ = chunk;
    }
    Read* room = chunk_next_;
    chunk_next_ += size;
    chunk_left_ -= size;
    return room;
  }

  static constexpr size_t kChunkReads = 4096;
  std::vector<std::unique_ptr<Read[]>> chunks_;  // every block's log (Log), in its room
  Read* chunk_next_ = nullptr;
  size_t chunk_left_ = 0;
  StableFlatMap<uint64_t, uint64_t> stamps_;
};

}  // namespace glint::spirv::uniformity_detail

#endif  // GLINT_SPIRV_ANALYSIS_UNIFORMITY_FACT_READS_H
