// Guard conditions (see guard_conditions.h for what is read and why it holds).
#include "SPIRV/analysis/range/guard_conditions.h"

#include <optional>

#include "SPIRV/ir/instruction_views.h"

namespace glint::spirv {

GuardConditions::Conditions GuardConditions::EdgeConditions(const Cfg& cfg, const Block* block,
                                                            int depth) {
  Conditions conditions;
  const auto& predecessors = cfg.Predecessors(block);
  if (predecessors.size() != 1 || predecessors[0] == block) return conditions;
  const Instruction* branch = predecessors[0]->Terminator();
  if (branch && branch->opcode == spv::OpSwitch) {
    SwitchView<const Instruction> view(*branch);
    bool is_signed = false;
    if (!canonical_.IsScalarInt(view.selector(), &is_signed)) return conditions;
    bool is_case = false;
    for (size_t k = 0; k < view.case_count(); ++k) is_case |= view.case_label(k) == block->id();
    if (is_case == (view.default_label() == block->id())) return conditions;  // both or neither
    GuardCondition edge;
    edge.kind = GuardCondition::Kind::kSwitchEdge;
    edge.x = view.selector();
    edge.is_signed = is_signed;
    edge.target = block;
    edge.branch = branch;
    conditions.push_back(edge);
    return conditions;
  }
  if (!branch || branch->opcode != spv::OpBranchConditional || branch->words.size() < 3)
    return conditions;
  BranchConditionalView conditional(*branch);
  if (conditional.true_label() == conditional.false_label()) return conditions;
  Decompose(cfg, conditional.condition(), conditional.true_label() == block->id(), branch, depth,
            &conditions);
  return conditions;
}

// Conditions from "`condition` is `holds`".
void GuardConditions::Decompose(const Cfg& cfg, uint32_t condition, bool holds,
                                const Instruction* branch, int depth, Conditions* out) {
  const Instruction* def = def_use_.Definition(condition);
  if (!def || depth > kMaxConditionDepth) return;
  switch (def->opcode) {
    case spv::OpLogicalNot:
      return Decompose(cfg, UnaryOpView(*def).operand(), !holds, branch, depth + 1, out);
    case spv::OpLogicalAnd:
    case spv::OpLogicalOr:
      if (holds != (def->opcode == spv::OpLogicalAnd)) return;  // one side is unknown
      Decompose(cfg, BinaryOpView(*def).left(), holds, branch, depth + 1, out);
      return Decompose(cfg, BinaryOpView(*def).right(), holds, branch, depth + 1, out);
    case spv::OpPhi:
      return PhiConditions(cfg, *def, holds, depth + 1, out);
    case spv::OpLoad: {  // a bool local: the value its reaching store wrote
      uint32_t stored = canonical_.Canonical(condition);
      if (stored != condition) Decompose(cfg, stored, holds, branch, depth + 1, out);
      return;
    }
    case spv::OpAll:  // every component holds
      if (holds) VectorConditions(UnaryOpView(*def).operand(), true, branch, out);
      return;
    case spv::OpAny:  // no component holds
      if (!holds) VectorConditions(UnaryOpView(*def).operand(), false, branch, out);
      return;
    default:
      return CompareConditions(*def, holds, branch, out);
  }
}

void GuardConditions::CompareConditions(const Instruction& compare, bool holds,
                                        const Instruction* branch, Conditions* out) {
  bool is_signed = false;
  Relation relation = RelationOf(compare.opcode, &is_signed);
  if (relation == Relation::kNone || compare.words.size() != 2) return;
  if (!holds) relation = Negate(relation);
  BinaryOpView operands(compare);
  const uint32_t sides[2] = {operands.left(), operands.right()};
  const Relation relations[2] = {relation, Mirror(relation)};
  for (int side = 0; side < 2; ++side) {
    bool x_signed = false;
    if (!canonical_.IsScalarInt(sides[side], &x_signed)) continue;
    GuardCondition condition;
    condition.x = sides[side];
    condition.y = sides[1 - side];
    condition.relation = relations[side];
    condition.is_signed = is_signed;
    condition.branch = branch;
    condition.compare = &compare;
    out->push_back(condition);
  }
}

// A boolean phi is one of its incoming values. Incoming values that contradict `holds`
// on their edge (a constant, or the very condition the predecessor branched on) are
// dropped; when one incoming (v from T) remains, v holds and so does the edge into T.
// glslang's `a && b`: phi(a from P0 [false edge], b from T [P0's true edge]). Only facts
// about values defined above P0 are kept: they cannot change between the test and the
// merge (T is straight-line code between them).
void GuardConditions::PhiConditions(const Cfg& cfg, const Instruction& phi, bool holds, int depth,
                                    Conditions* out) {
  uint32_t merge = def_use_.BlockOf(&phi) ? def_use_.BlockOf(&phi)->id() : 0;
  uint32_t value = 0, from = 0, possible = 0;
  PhiView incoming(phi);
  for (size_t i = 0; i < incoming.pair_count(); ++i) {
    const Instruction* v = def_use_.Definition(incoming.value(i));
    const Block* pred = cfg.BlockById(incoming.parent(i));
    const Instruction* branch = pred ? pred->Terminator() : nullptr;
    bool constant = v && (v->opcode == spv::OpConstantTrue || v->opcode == spv::OpConstantFalse);
    if (constant && (v->opcode == spv::OpConstantTrue) != holds) continue;
    std::optional<BranchConditionalView<const Instruction>> conditional;
    if (branch) conditional = ViewIf<BranchConditionalView>(*branch);
    if (conditional && conditional->true_label() != conditional->false_label()) {
      // On the edge to the merge the branch's condition is known, and so is `v` when it
      // is that condition or its negation (glslang's ||: branch on !a, phi takes a).
      bool on_edge = conditional->true_label() == merge;
      const Instruction* tested = def_use_.Definition(conditional->condition());
      bool negated = tested && tested->opcode == spv::OpLogicalNot &&
                     UnaryOpView(*tested).operand() == incoming.value(i);
      if ((conditional->condition() == incoming.value(i) && on_edge != holds) ||
          (negated && on_edge == holds))
        continue;
    }
    ++possible;
    value = incoming.value(i);
    from = incoming.parent(i);
  }
  const Block* through = cfg.BlockById(from);
  const Instruction* last = through ? through->Terminator() : nullptr;
  const Instruction* v = def_use_.Definition(value);
  if (possible != 1 || !last || last->opcode != spv::OpBranch || !v ||
      def_use_.BlockOf(v) != through || cfg.Predecessors(through).size() != 1)
    return;
  const Block* first_test = cfg.Predecessors(through)[0];
  Conditions conditions = EdgeConditions(cfg, through, depth);
  Decompose(cfg, value, holds, last, depth, &conditions);
  for (GuardCondition& condition : conditions) {
    condition.defined_above.push_back(first_test);
    out->push_back(std::move(condition));
  }
}

void GuardConditions::VectorConditions(uint32_t compare, bool each_holds, const Instruction* branch,
                                       Conditions* out) {
  const Instruction* def = def_use_.Definition(compare);
  bool is_signed = false;
  Relation relation = def ? RelationOf(def->opcode, &is_signed) : Relation::kNone;
  if (relation == Relation::kNone || def->words.size() != 2) return;
  if (!each_holds) relation = Negate(relation);
  BinaryOpView operands(*def);
  const Instruction* type = def_use_.TypeOf(operands.left());
  if (!type || type->opcode != spv::OpTypeVector) return;
  for (uint32_t i = 0; i < TypeVectorView(*type).component_count(); ++i) {
    ComponentCondition(operands.left(), i, relation, operands.right(), is_signed, branch, out);
    ComponentCondition(operands.right(), i, Mirror(relation), operands.left(), is_signed, branch,
                       out);
  }
}

// "x[index] REL y[index]": a scalar comparison where x's component is a known scalar,
// else one about the component of x's canonical vector; nothing without y's scalar.
void GuardConditions::ComponentCondition(uint32_t x, uint32_t index, Relation relation, uint32_t y,
                                         bool is_signed, const Instruction* branch,
                                         Conditions* out) {
  uint32_t bound = ComponentOf(y, index);
  if (!bound) return;
  GuardCondition condition;
  condition.y = bound;
  condition.relation = relation;
  condition.is_signed = is_signed;
  condition.branch = branch;
  if (uint32_t scalar = ComponentOf(x, index)) {
    bool x_signed = false;
    if (!canonical_.IsScalarInt(scalar, &x_signed)) return;
    condition.x = scalar;
  } else {
    condition.kind = GuardCondition::Kind::kComponentCompare;
    condition.x = x;
    condition.component = index;
  }
  out->push_back(condition);
}

uint32_t GuardConditions::ComponentOf(uint32_t id, uint32_t index) {
  if (uint32_t source = canonical_.ComponentSource(id, index)) return source;
  return canonical_.ComponentSource(canonical_.Canonical(id), index);  // a local's stored vector
}

bool GuardConditions::IsInvocationConstant(uint32_t canonical) {
  const Instruction* definition = def_use_.Definition(canonical);
  return definition && canonical_.ImmutableLoad(*definition) == canonical;
}

bool GuardConditions::DefinedAbove(const Cfg& cfg, uint32_t value, const Block* block) {
  if (IsInvocationConstant(value)) return true;
  const Instruction* def = def_use_.Definition(value);
  if (!def) {
    const Block* join = canonical_.VersionBlock(value);
    return join && cfg.Dominates(join, block);
  }
  const Block* home = def_use_.BlockOf(def);
  return !home || cfg.Dominates(home, block);
}

}  // namespace glint::spirv
