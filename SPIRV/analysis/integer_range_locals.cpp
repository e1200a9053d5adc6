// Locals (full mode), through the value-flow view of Function variables (value_flow.h).
//
// Range: a load of a followed local (a scalar, or one element reached by constant
// indices) lies in the union of the ranges of every value that may have been stored
// where it reads: the stores and the initializer that reach it. This covers `?:`
// through a local, a local assigned on several paths, and while / do-while loops.
// A loop-carried value (`i = i + 1` reaching the load of i) depends on itself: the
// evaluation driver meets it as a cyclic definition and gives no range, never a guess;
// a dominating guard on the loop's own test may then narrow it (the test's load and
// the body's load read the same version, see LocalVersion).
// Refuses: a local the value-flow view does not follow (its refusal names why), a load
// that may read the variable before any store ("may be read before it is assigned"),
// bits stored through a different component path than the load reads, more than
// kMaxLocalDefinitions reaching stores (a budget that names itself).
//
// Identity (LocalVersion): two loads that see the same version read the same bits, as
// two uses of one SSA value do; a version made by one whole store is that store's value.
#include "integer_range_evaluator.h"

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

using namespace range_detail;

namespace {
const std::string kStoredPrefix = "a value stored to the local has no range: ";
const char kLoopCarried[] =
    "local is updated from its own value in a loop (no range without a guard)";
}  // namespace

ValueFlow* IntegerRangeAnalysis::Evaluator::FlowOf(const Instruction& load) {
  Function* function = def_use_.FunctionOf(&load);
  if (!function) return nullptr;
  std::unique_ptr<ValueFlow>& flow = flows_[function];
  if (!flow) flow = std::make_unique<ValueFlow>(module_, *function, CfgOf(*function));
  return flow.get();
}

const LocalDefinitions* IntegerRangeAnalysis::Evaluator::LocalDefinitionsOf(
    const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad) return nullptr;
  auto found = local_definitions_.find(&load);
  if (found == local_definitions_.end())
    found = local_definitions_.emplace(&load, FindLocalDefinitions(load)).first;
  return found->second.reason.empty() ? &found->second : nullptr;
}

LocalDefinitions IntegerRangeAnalysis::Evaluator::FindLocalDefinitions(const Instruction& load) {
  LocalDefinitions found;
  ValueFlow* flow = FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&load, &variable, &path)) {
    const Instruction* root = def_use_.Definition(LoadView(load).pointer());
    while (root && (root->opcode == spv::OpAccessChain ||
                    root->opcode == spv::OpInBoundsAccessChain))
      root = def_use_.Definition(AccessChainView(*root).base());
    const ValueFlowVariableRefusal* refusal =
        flow && root ? flow->Refusal(root->result_id) : nullptr;
    found.reason = refusal ? "local is not followed: " + refusal->message
                           : "load of a local that value flow does not follow";
    return found;
  }
  std::vector<uint32_t> definitions = flow->Definitions(&load);
  if (definitions.empty()) found.reason = "load of a local in unreachable code";
  if (definitions.size() > kMaxLocalDefinitions)
    found.reason = "local has more than 64 reaching stores (budget kMaxLocalDefinitions)";
  for (uint32_t id : definitions) {
    const ValueFlowNode& node = flow->Node(id);
    if (!found.reason.empty()) break;
    if (node.kind == ValueFlowNode::Kind::kUndefined)
      found.reason = "local may be read before it is assigned";
    else if (uint32_t value = StoredPart(node, path))
      found.values.push_back(value);
    else
      found.reason = "local is assigned through a different element path than it is read";
  }
  if (!found.reason.empty()) found.values.clear();
  return found;
}

// The scalar a store (or the initializer) put where `path` reads: the stored value
// itself for the same path, or, for a store of a larger composite, the part of the
// stored value that the rest of the path selects (ComponentSource at each level).
uint32_t IntegerRangeAnalysis::Evaluator::StoredPart(const ValueFlowNode& node,
                                                     const std::vector<uint32_t>& path) const {
  std::vector<uint32_t> written =
      node.kind == ValueFlowNode::Kind::kStore ? node.path : std::vector<uint32_t>{};
  if (node.kind != ValueFlowNode::Kind::kStore && node.kind != ValueFlowNode::Kind::kInitializer)
    return 0;
  if (written.size() > path.size() || !std::equal(written.begin(), written.end(), path.begin()))
    return 0;
  uint32_t part = node.value;  // follow the rest of the path through the stored value
  for (size_t level = written.size(); part && level < path.size(); ++level)
    part = ComponentSource(part, path[level]);
  return part;
}

IntegerRange IntegerRangeAnalysis::Evaluator::LocalUnion(const Instruction& load,
                                                         bool is_signed) {
  const LocalDefinitions* local = LocalDefinitionsOf(load);
  if (!local) {
    auto found = local_definitions_.find(&load);
    return IntegerRange::None(found != local_definitions_.end() ? found->second.reason
                                                                : "local is not followed");
  }
  IntegerRange result = IntegerRange::None("local has no reaching store");
  for (uint32_t value : local->values) {
    IntegerRange stored = Convert(Operand(value), is_signed);
    if (!stored.valid && stored.reason.rfind("cyclic definition", 0) == 0)
      return IntegerRange::None(kLoopCarried);
    if (!stored.valid && stored.reason.rfind(kStoredPrefix, 0) != 0 && stored.reason != kLoopCarried)
      return IntegerRange::None(kStoredPrefix + stored.reason);
    if (!stored.valid) return stored;
    result = result.valid ? IntegerRange::Of(is_signed, std::min(result.min, stored.min),
                                             std::max(result.max, stored.max))
                          : stored;
  }
  return result;
}

// The id that stands for what `load` reads: the value of the one whole store that
// reaches it, or a key of its own for a version made at a join (past the module's id
// bound, so it names no instruction). False when the load has no such version.
bool IntegerRangeAnalysis::Evaluator::LocalVersion(const Instruction& load, uint32_t* id) {
  if (!Full()) return false;
  ValueFlow* flow = FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&load, &variable, &path)) return false;
  uint32_t version = flow->Reaching(&load);
  if (version == ValueFlow::kNoNode) return false;
  const ValueFlowNode& node = flow->Node(version);
  if (node.kind == ValueFlowNode::Kind::kStore && node.path == path) {
    *id = node.value;
    return true;
  }
  if (node.kind != ValueFlowNode::Kind::kPhi || !path.empty()) return false;
  uint64_t key = (uint64_t(def_use_.FunctionOf(&load)->id()) << 32) | version;
  auto found = version_keys_.find(key);
  if (found == version_keys_.end())
    found = version_keys_.emplace(key, module_.header.bound + uint32_t(version_keys_.size()))
                .first;
  *id = found->second;
  return true;
}

}  // namespace glint::spirv
