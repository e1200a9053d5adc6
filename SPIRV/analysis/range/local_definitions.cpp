// Local definitions: what may have been stored where a load of a Function variable
// reads, through the value-flow view (value_flow.h), for the range analysis's locals
// (integer_range_locals.cpp, loop-carried updates in integer_range_loop_locals.cpp,
// fixed points in integer_range_fixed_point.cpp).
//
// For a load of a followed local (a scalar, or one element reached by constant
// indices): each store or initializer that reaches it, as the scalar stored where the
// load reads (the part of a larger stored composite the rest of the path selects); a
// component of a built-in vector stored whole; a component of a computed vector stored
// whole; or a loop-carried update `x = x +/- step` of the same element, kept apart so
// that evaluating the load does not depend on itself. Or why they are not known: a
// local value flow does not follow (its refusal, or the memory every store to it read),
// a load in unreachable code, more than kMaxLocalDefinitions reaching stores (a budget
// that names itself), a load that may read the local before any store, bits stored
// through a different element path than the load reads (or the memory that part was
// read from), a local holding a computed vector's component and updated from itself.
//
// Structure only: nothing here asks for a range (the evaluator ranges the values it
// lists), so it owns its memo and is asked freely while ranges are computed.
#include "SPIRV/analysis/range/local_definitions.h"

#include <algorithm>
#include <utility>

#include "SPIRV/analysis/memory/pointer_origins.h"
#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

const LocalDefinitions* LocalDefinitionsAnalysis::Of(const Instruction& load) {
  if (!Full() || load.opcode != spv::OpLoad) return nullptr;
  auto known = found_.find(&load);
  if (known != found_.end()) return &known->second;
  if (refused_.count(&load)) return nullptr;
  Found found = Find(load);
  if (!found.reason.empty()) {
    refused_.emplace(&load, std::move(found.reason));
    return nullptr;
  }
  return &found_.emplace(&load, Keep(found)).first->second;
}

LocalDefinitions LocalDefinitionsAnalysis::Keep(const Found& found) {
  LocalDefinitions kept;
  kept.values = ids_.Keep(found.values);
  kept.stores = instructions_.Keep(found.stores);
  kept.carried = updates_.Keep(found.carried);
  kept.dependencies = ids_.Keep(found.dependencies);
  kept.builtin_parts = parts_.Keep(found.builtin_parts);
  kept.composite_parts = parts_.Keep(found.composite_parts);
  return kept;
}

LocalDefinitionsAnalysis::Found LocalDefinitionsAnalysis::Find(const Instruction& load) {
  Found found;
  const ValueFlow* flow = canonical_.FlowOf(load);
  uint32_t variable = 0;
  std::vector<uint32_t> path;
  if (!flow || !flow->LoadTarget(&load, &variable, &path)) {
    const Instruction* root = PointerOrigins(def_use_).Of(LoadView(load).pointer()).root;
    const ValueFlowVariableRefusal* refusal =
        flow && root ? flow->Refusal(root->result_id) : nullptr;
    std::string origin =
        refusal ? origins_.LocalOrigin(*root) : std::string();  // stores read memory
    found.reason = !origin.empty() ? kStoredPrefix + origin
                   : refusal       ? "local is not followed: " + refusal->message
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
    uint32_t value = node.kind == ValueFlowNode::Kind::kUndefined ? 0 : StoredPart(node, path);
    CarriedUpdate update;
    std::pair<uint32_t, uint32_t> part;
    if (node.kind == ValueFlowNode::Kind::kUndefined) {
      found.reason = "local may be read before it is assigned";
    } else if (!value && BuiltinPart(node, path, &part)) {
      found.builtin_parts.push_back(part);
    } else if (!value) {
      // A computed vector's component: integer_range_components.cpp (which names a
      // memory origin too, where the component has one).
      std::pair<uint32_t, uint32_t> component;
      if (StoredComponent(node, path, &component)) {
        found.composite_parts.push_back(component);
      } else {
        std::string origin = origins_.StoredPartOrigin(node, path);  // integer_range_origins.cpp
        found.reason = !origin.empty()
                           ? kStoredPrefix + origin
                           : "local is assigned through a different element path than it is read";
      }
    } else if (node.kind == ValueFlowNode::Kind::kStore && node.path == path &&
               MatchCarried(value, variable, path, &update)) {
      update.store = node.store;
      found.carried.push_back(update);
      found.dependencies.push_back(update.step);
    } else {
      found.values.push_back(value);
      found.stores.push_back(node.kind == ValueFlowNode::Kind::kStore ? node.store : nullptr);
      found.dependencies.push_back(value);
    }
  }
  if (found.reason.empty() && !found.composite_parts.empty() && !found.carried.empty())
    found.reason =
        "local holds a component of a computed vector and is updated from its own value in a loop";
  return found;
}

// The scalar a store (or the initializer) put where `path` reads: the stored value
// itself for the same path, or, for a store of a larger composite, the part of the
// stored value that the rest of the path selects (ComponentSource at each level).
uint32_t LocalDefinitionsAnalysis::StoredPart(const ValueFlowNode& node,
                                              const std::vector<uint32_t>& path) const {
  std::vector<uint32_t> written =
      node.kind == ValueFlowNode::Kind::kStore ? node.path : std::vector<uint32_t>{};
  if (node.kind != ValueFlowNode::Kind::kStore && node.kind != ValueFlowNode::Kind::kInitializer)
    return 0;
  if (written.size() > path.size() || !std::equal(written.begin(), written.end(), path.begin()))
    return 0;
  uint32_t part = node.value;  // follow the rest of the path through the stored value
  for (size_t level = written.size(); part && level < path.size(); ++level)
    part = canonical_.ComponentSource(part, path[level]);
  return part;
}

// For a store (or the initializer) that covers `path`, when what it put there is a
// component of a computed vector (StoredPart finds no scalar): that vector and index.
bool LocalDefinitionsAnalysis::StoredComponent(const ValueFlowNode& node,
                                               const std::vector<uint32_t>& path,
                                               std::pair<uint32_t, uint32_t>* component) const {
  if (node.kind != ValueFlowNode::Kind::kStore && node.kind != ValueFlowNode::Kind::kInitializer)
    return false;
  std::vector<uint32_t> written =
      node.kind == ValueFlowNode::Kind::kStore ? node.path : std::vector<uint32_t>{};
  if (written.size() >= path.size() || !std::equal(written.begin(), written.end(), path.begin()))
    return false;
  uint32_t part = node.value;
  for (size_t level = written.size(); part && level + 1 < path.size(); ++level)
    part = canonical_.ComponentSource(part, path[level]);
  const Instruction* type = part ? def_use_.TypeOf(part) : nullptr;
  if (!type || type->opcode != spv::OpTypeVector) return false;
  *component = {part, path.back()};
  return true;
}

// True when `node` stores a whole built-in vector loaded from its Input variable and
// `path` reads one component of it: `part` is (variable, component).
bool LocalDefinitionsAnalysis::BuiltinPart(const ValueFlowNode& node,
                                           const std::vector<uint32_t>& path,
                                           std::pair<uint32_t, uint32_t>* part) const {
  if (node.kind != ValueFlowNode::Kind::kStore || node.path.size() + 1 != path.size() ||
      !std::equal(node.path.begin(), node.path.end(), path.begin()))
    return false;
  const Instruction* load = def_use_.Definition(node.value);
  if (!load || load->opcode != spv::OpLoad) return false;
  const Instruction* variable = def_use_.Definition(LoadView(*load).pointer());
  if (!variable || variable->opcode != spv::OpVariable || !builtins_.Has(variable->result_id) ||
      VariableView(*variable).storage_class() != spv::StorageClassInput)
    return false;
  *part = {variable->result_id, path.back()};
  return true;
}

// True when `value` is `load(variable, path) +/- step`; fills `update`.
bool LocalDefinitionsAnalysis::MatchCarried(uint32_t value, uint32_t variable,
                                            const std::vector<uint32_t>& path,
                                            CarriedUpdate* update) {
  const Instruction* def = def_use_.Definition(value);
  if (!def || (def->opcode != spv::OpIAdd && def->opcode != spv::OpISub)) return false;
  BinaryOpView op(*def);
  auto reads_local = [&](uint32_t id) {
    const Instruction* load = def_use_.Definition(id);
    const ValueFlow* flow =
        load && load->opcode == spv::OpLoad ? canonical_.FlowOf(*load) : nullptr;
    uint32_t read_variable = 0;
    std::vector<uint32_t> read_path;
    return flow && flow->LoadTarget(load, &read_variable, &read_path) &&
           read_variable == variable && read_path == path;
  };
  update->value = value;
  update->subtract = def->opcode == spv::OpISub;
  if (reads_local(op.left())) {
    update->loaded = op.left();
    update->step = op.right();
    return true;
  }
  if (update->subtract || !reads_local(op.right())) return false;
  update->loaded = op.right();
  update->step = op.left();
  return true;
}

}  // namespace glint::spirv
