// A table by opcode, built on first use and then read with one load and an index.
//
// Every analysis asks a few opcode tables of every instruction: the grammar's row, the
// id-only word counts, the opcode traits, the convergence rows. Kept as function-local
// statics, each lookup tested a guard, and because the guarded construction sat on the
// same path, the compiler saved and restored registers around every lookup (about half
// of its cost). Here a lookup is an acquire load of the published table (a plain load
// on x86) and an index; only the first one leaves that path, by a tail call to the
// builder, which makes the table once (a function-local static inside it: thread-safe)
// and publishes it.
#ifndef GLINT_SPIRV_IR_OPCODE_TABLE_H
#define GLINT_SPIRV_IR_OPCODE_TABLE_H

#include <atomic>
#include <cstdint>
#include <vector>

namespace glint::spirv {

// `kBuild` returns the entries indexed by opcode; an opcode past its end reads Entry{}.
template <class Entry, std::vector<Entry> (*kBuild)()>
class LazyOpcodeTable {
 public:
  static Entry At(uint32_t opcode) {
    const std::vector<Entry>* table = published_.load(std::memory_order_acquire);
    if (__builtin_expect(table == nullptr, 0)) return AtFirstTime(opcode);
    return opcode < table->size() ? (*table)[opcode] : Entry{};
  }

 private:
  [[gnu::noinline, gnu::cold]] static Entry AtFirstTime(uint32_t opcode) {
    static const std::vector<Entry> table = kBuild();
    published_.store(&table, std::memory_order_release);
    return At(opcode);
  }

  static inline std::atomic<const std::vector<Entry>*> published_{nullptr};
};

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_OPCODE_TABLE_H
