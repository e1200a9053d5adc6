// Range report (see range_report.h).
#include "range_report.h"

#include <unordered_map>

#include "SPIRV/analysis/integer_range_analysis.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/source_lines.h"
#include "access_report.h"

namespace glint::spirv {
namespace {

// Walks the module once, tracking the OpLine in effect, and appends records.
class ReportBuilder {
 public:
  ReportBuilder(AnalysisContext& analyses, const Options& options,
                std::vector<AccessRecord>* records)
      : module_(analyses.module()),
        def_use_(analyses.GetDefUse()),
        records_(records),
        ranges_(analyses.GetIntegerRanges(RangeOptionsFor(options))),
        lines_(analyses.GetSourceLines()) {
    const Module& module = module_;
    for (const Instruction& inst : module.debug_names)
      if (inst.opcode == spv::OpName)
        names_.emplace(NameView(inst).target(), NameView(inst).name());
  }

  void Run() {
    for (Function& function : module_.functions) {
      for (Block& block : function.blocks) {
        // A block without OpLine of its own (the merge of a lowered ?:) continues the
        // line of its dominator (source_lines.h).
        location_ = lines_.AtStart(&block, function);
        for (Instruction& inst : block.instructions)
          if (!lines_.Apply(inst, &location_)) Visit(inst);
      }
    }
  }

 private:
  void Visit(const Instruction& inst) {
    switch (inst.opcode) {
      case spv::OpAccessChain:
      case spv::OpInBoundsAccessChain:
      case spv::OpPtrAccessChain:
      case spv::OpInBoundsPtrAccessChain:
        return VisitChain(inst);
      case spv::OpVectorExtractDynamic:
      case spv::OpVectorInsertDynamic: {
        IndexedAccessView access(inst);
        int64_t limit = LimitOf(TypeOfValue(access.object()));
        return Add(inst, access.object(), access.index(0), 0, limit);
      }
      default:
        return;
    }
  }

  // Records every index of an access chain except struct member selections (always
  // constant and in bounds). OpPtrAccessChain's Element (position 0) has no known limit.
  void VisitChain(const Instruction& inst) {
    IndexedAccessView access(inst);
    bool has_element = AccessChainView(inst).has_element();
    const Instruction* pointer_type = TypeOfValue(access.object());
    const Instruction* type = pointer_type && pointer_type->opcode == spv::OpTypePointer
                                  ? def_use_.Definition(TypePointerView(*pointer_type).pointee())
                                  : nullptr;
    for (uint32_t position = 0; position < access.index_count(); ++position) {
      uint32_t index = access.index(position);
      if (has_element && position == 0) {
        Add(inst, access.object(), index, position, -1);
        continue;
      }
      if (type && type->opcode == spv::OpTypeStruct) {
        uint64_t member = 0;
        type = def_use_.IntConstant(index, &member)
                   ? def_use_.Definition(IndexedTypeOf(*type, member))
                   : nullptr;
        continue;
      }
      Add(inst, access.object(), index, position, LimitOf(type));
      type = type ? def_use_.Definition(IndexedTypeOf(*type)) : nullptr;
    }
  }

  // The largest valid index into `type`: array length - 1, vector/matrix count - 1;
  // -1 for runtime arrays and anything unknown.
  int64_t LimitOf(const Instruction* type) const {
    if (!type) return -1;
    uint64_t length = 0;
    switch (type->opcode) {
      case spv::OpTypeArray:
        return def_use_.IntConstant(TypeArrayView(*type).length_id(), &length) ? int64_t(length) - 1
                                                                               : -1;
      case spv::OpTypeVector:
        return int64_t(TypeVectorView(*type).component_count()) - 1;
      case spv::OpTypeMatrix:
        return int64_t(TypeMatrixView(*type).column_count()) - 1;
      default:
        return -1;
    }
  }

  const Instruction* TypeOfValue(uint32_t id) const { return def_use_.TypeOf(id); }

  void Add(const Instruction& inst, uint32_t object, uint32_t index, uint32_t position,
           int64_t limit) {
    AccessRecord record;
    record.location = location_;
    record.instruction = grammar::OpcodeName(inst.opcode);
    record.object = ObjectName(object);
    record.index_id = index;
    record.access_id = inst.result_id;
    record.index_position = position;
    IntegerRange range = ranges_.RangeAt(index, inst);
    record.has_range = range.valid;
    record.is_signed = range.is_signed;
    record.range_min = range.min;
    record.range_max = range.max;
    record.reason = range.reason;
    record.limit = limit;
    if (range.guard) record.guard = lines_.At(range.guard);
    records_->push_back(std::move(record));
  }

  // The root variable's name, else its pointee type's name (glslang leaves buffer
  // block instances unnamed), else "%id".
  std::string ObjectName(uint32_t id) {
    for (int hops = 0; hops < 64; ++hops) {  // budget: chains of chains are short
      const Instruction* def = def_use_.Definition(id);
      if (!def) break;
      if (def->opcode == spv::OpAccessChain || def->opcode == spv::OpInBoundsAccessChain ||
          def->opcode == spv::OpPtrAccessChain)
        id = AccessChainView(*def).base();
      else if (def->opcode == spv::OpCopyObject)
        id = UnaryOpView(*def).operand();
      else
        break;
    }
    if (!names_[id].empty()) return names_[id];
    const Instruction* type = TypeOfValue(id);
    if (type && type->opcode == spv::OpTypePointer) {
      const std::string& pointee_name = names_[TypePointerView(*type).pointee()];
      if (!pointee_name.empty()) return pointee_name;
    }
    return "%" + std::to_string(id);
  }

  Module& module_;
  const DefUse& def_use_;
  std::vector<AccessRecord>* records_;
  IntegerRangeAnalysis& ranges_;
  std::unordered_map<uint32_t, std::string> names_;
  SourceLines& lines_;
  SourceLocation location_;
};

}  // namespace

std::vector<AccessRecord> CollectAccessRecords(AnalysisContext& analyses, const Options& options) {
  std::vector<AccessRecord> records;
  ReportBuilder(analyses, options, &records).Run();
  return records;
}

void CollectAccessRecords(Module& module, const Options& options, Report* report) {
  if (!report) return;
  AnalysisContext analyses(module);
  for (AccessRecord& record : CollectAccessRecords(analyses, options))
    report->accesses.push_back(std::move(record));
}

PassResult RangeReportPass::Process(Module&, PassContext& context) {
  if (context.options.collect_ranges && context.report)
    for (AccessRecord& record : CollectAccessRecords(*context.analyses, context.options))
      context.accesses->AddIndexRecord(std::move(record));
  return PassResult::Unchanged();
}

}  // namespace glint::spirv
