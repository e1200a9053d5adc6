// Lines forecast (see the header): one walk over glslang's tree, then a closure over the
// functions' summaries.
#include "glslang/front_end/lines_forecast.h"

#include <cstdint>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <glslang/Include/intermediate.h>
#include <glslang/MachineIndependent/localintermediate.h>

namespace glint {
namespace {

using glslang::TOperator;

// Whether glslang turns `op` into an instruction the uniformity check judges (a
// uniform-control one: SPIRV/analysis/convergence/convergence_classes.h). `implicit_lod` is whether
// implicit-LOD sampling is judged in this stage.
bool Judged(TOperator op, bool implicit_lod) {
  switch (op) {
    case glslang::EOpDPdx:
    case glslang::EOpDPdy:
    case glslang::EOpFwidth:
    case glslang::EOpDPdxFine:
    case glslang::EOpDPdyFine:
    case glslang::EOpFwidthFine:
    case glslang::EOpDPdxCoarse:
    case glslang::EOpDPdyCoarse:
    case glslang::EOpFwidthCoarse:
    case glslang::EOpBarrier:
    case glslang::EOpSubgroupBarrier:
    case glslang::EOpCooperativeMatrixLoad:
    case glslang::EOpCooperativeMatrixStore:
    case glslang::EOpCooperativeMatrixMulAdd:
    case glslang::EOpBeginInvocationInterlock:
    case glslang::EOpEndInvocationInterlock:
    case glslang::EOpEmitMeshTasksEXT:
    case glslang::EOpSetMeshOutputsEXT:
      return true;
    case glslang::EOpTexture:
    case glslang::EOpTextureProj:
    case glslang::EOpTextureOffset:
    case glslang::EOpTextureProjOffset:
    case glslang::EOpTextureClamp:
    case glslang::EOpTextureOffsetClamp:
    case glslang::EOpSparseTexture:
    case glslang::EOpSparseTextureOffset:
    case glslang::EOpSparseTextureClamp:
    case glslang::EOpSparseTextureOffsetClamp:
    case glslang::EOpTextureQueryLod:
    case glslang::EOpImageSampleFootprintNV:
    case glslang::EOpImageSampleFootprintClampNV:
      return implicit_lod;
    default:
      // AMD_shader_ballot's group operations become SPIR-V 1.0 group instructions.
      return op >= glslang::EOpMinInvocations &&
             op <= glslang::EOpAddInvocationsExclusiveScanNonUniform;
  }
}

// Whether `op` makes a value that may differ between invocations whatever its operands
// are: memory and images, atomics, other invocations' values, interpolation, the clock,
// and calls (what a callee returns is not followed).
bool ReadsPerInvocation(TOperator op) {
  return op == glslang::EOpFunctionCall || op == glslang::EOpTime ||
         op == glslang::EOpCooperativeMatrixLoad ||
         (op > glslang::EOpTextureGuardBegin && op < glslang::EOpTextureGuardEnd) ||
         (op > glslang::EOpImageGuardBegin && op < glslang::EOpImageGuardEnd) ||
         (op > glslang::EOpSubgroupGuardStart && op < glslang::EOpSubgroupGuardStop) ||
         (op >= glslang::EOpAtomicAdd && op <= glslang::EOpAtomicCounterCompSwap) ||
         (op >= glslang::EOpBallot && op <= glslang::EOpAllInvocationsEqual) ||
         (op >= glslang::EOpMinInvocations && op <= glslang::EOpWriteInvocation) ||
         (op >= glslang::EOpInterpolateAtCentroid && op <= glslang::EOpInterpolateAtVertex);
}

// Built-in inputs with one value for a whole workgroup (or draw).
bool UniformBuiltIn(glslang::TBuiltInVariable builtin) {
  switch (builtin) {
    case glslang::EbvNumWorkGroups:
    case glslang::EbvWorkGroupSize:
    case glslang::EbvWorkGroupId:
    case glslang::EbvNumSubgroups:
    case glslang::EbvSubgroupSize2:
    case glslang::EbvBaseVertex:
    case glslang::EbvBaseInstance:
    case glslang::EbvDrawId:
      return true;
    default:
      return false;
  }
}

bool IsAssignment(TOperator op) {
  return op >= glslang::EOpAssign && op <= glslang::EOpRightShiftAssign;
}

bool IsIncrement(TOperator op) {
  return op == glslang::EOpPostIncrement || op == glslang::EOpPostDecrement ||
         op == glslang::EOpPreIncrement || op == glslang::EOpPreDecrement;
}

// A set of glslang symbol ids, open-addressed in one array: a large shader has
// thousands of varying variables, and a node per id cost more than the rest of the walk.
class SymbolIdSet {
 public:
  SymbolIdSet() : slots_(64, kEmpty) {}
  bool Contains(long long id) const {
    for (size_t at = Slot(id);; at = (at + 1) & (slots_.size() - 1)) {
      if (slots_[at] == id) return true;
      if (slots_[at] == kEmpty) return false;
    }
  }
  void Insert(long long id) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    for (size_t at = Slot(id);; at = (at + 1) & (slots_.size() - 1)) {
      if (slots_[at] == id) return;
      if (slots_[at] == kEmpty) {
        slots_[at] = id;
        ++size_;
        return;
      }
    }
  }

 private:
  static constexpr long long kEmpty = std::numeric_limits<long long>::min();
  size_t Slot(long long id) const {
    return size_t(uint64_t(id) * 0x9e3779b97f4a7c15ull >> 20) & (slots_.size() - 1);
  }
  void Grow() {
    std::vector<long long> old(slots_.size() * 2, kEmpty);
    old.swap(slots_);
    size_ = 0;
    for (long long id : old)
      if (id != kEmpty) Insert(id);
  }
  std::vector<long long> slots_;
  size_t size_ = 0;
};

// What one function definition holds.
// (A judged instruction where control may have diverged settles the forecast at once,
// so only those where it has not are summed up.)
struct FunctionSummary {
  bool judged = false;  // a judged instruction anywhere in it
  // Callees by glslang's mangled name (views into the tree's own strings), and whether
  // control may have diverged at the call.
  std::vector<std::pair<std::string_view, bool>> calls;
};

// The tree in program order (pre-order), with an explicit stack: trees nest as deep as
// the source does, and a walk of its own needs neither a big stack nor glslang's pool
// (a fresh pool's first page costs more than the whole walk of a small shader).
//
// Control diverges under a selection, loop, switch or short circuit whose condition may
// differ between invocations ("varying"), after a return or discard taken there, and in
// the rest of a loop after a break or continue taken there. A value is varying when it
// reads a varying variable, per-invocation input or memory (ReadsPerInvocation); a
// function's variable becomes varying when a varying value, or any value under diverged
// control, is assigned to it, in program order. Parameters and globals are taken as
// varying. Assignments a loop's back edge carries to its test are not seen: that, and a
// judged instruction before a divergent `continue` in the same loop, can make a forecast
// of false wrong, which costs what a compile cost before the forecast existed.
class ForecastWalk {
 public:
  ForecastWalk(const LinesForecastPasses& passes, bool implicit_lod)
      : passes_(passes), implicit_lod_(implicit_lod) {
    stack_.reserve(64);
  }

  void Run(TIntermNode* root) {
    Push(root, 0);
    while (!stack_.empty() && !settled_) {
      Entry entry = stack_.back();
      stack_.pop_back();
      if (!entry.node) {  // the end of a loop
        if (loops_.back()) --diverged_loops_;
        loops_.pop_back();
        continue;
      }
      Visit(entry.node, entry.diverged);
    }
  }

  // True once a judged instruction was found where control may have diverged, or a
  // constant array indexed at run time: the answer is known, and the walk stopped there.
  bool settled() const { return settled_; }
  const std::vector<FunctionSummary>& functions() const { return functions_; }
  // Index into functions() of the function named `name`; -1 when none is defined.
  int Find(std::string_view name) const {
    auto found = by_name_.find(name);
    return found == by_name_.end() ? -1 : found->second;
  }

 private:
  struct Entry {
    TIntermNode* node;  // null: the end of the innermost loop
    int diverged;       // constructs around the node whose condition is varying
  };
  static constexpr int kMaxValueNodes = 256;  // a longer value is taken as varying

  void Push(TIntermNode* node, int diverged) {
    if (node) stack_.push_back({node, diverged});
  }

  // Dispatched on the node's kind, operators first and leaves next (most of the tree
  // is leaves, which each question costs a virtual call).
  void Visit(TIntermNode* node, int diverged) {
    if (node->getAsOperator()) {
      VisitOperator(*node, diverged);
    } else if (glslang::TIntermSelection* selection = node->getAsSelectionNode()) {
      int inside = diverged + Varying(selection->getCondition());
      Push(selection->getFalseBlock(), inside);
      Push(selection->getTrueBlock(), inside);
      Push(selection->getCondition(), diverged);
    } else if (node->getAsSymbolNode() || node->getAsConstantUnion()) {
      return;
    } else if (glslang::TIntermLoop* loop = node->getAsLoopNode()) {
      int inside = diverged + (loop->getTest() && Varying(loop->getTest()));
      loops_.push_back(false);
      stack_.push_back({nullptr, 0});
      Push(loop->getTerminal(), inside);
      Push(loop->getBody(), inside);
      Push(loop->getTest(), inside);
    } else if (glslang::TIntermBranch* branch = node->getAsBranchNode()) {
      TOperator op = branch->getFlowOp();
      if (Diverged(diverged)) {
        if (op == glslang::EOpBreak || op == glslang::EOpContinue) {
          // The rest of the loop, in this and later iterations, runs for some only.
          if (!loops_.empty() && !loops_.back()) {
            loops_.back() = true;
            ++diverged_loops_;
          }
        } else if (op != glslang::EOpCase && op != glslang::EOpDefault) {
          exited_ = true;  // a return or discard: the rest of the function
        }
      }
      Push(branch->getExpression(), diverged);
    } else if (glslang::TIntermSwitch* switch_node = node->getAsSwitchNode()) {
      glslang::TIntermTyped* selector = switch_node->getCondition()->getAsTyped();
      Push(switch_node->getBody(), diverged + (!selector || Varying(selector)));
      Push(switch_node->getCondition(), diverged);
    } else if (glslang::TIntermMethod* method = node->getAsMethodNode()) {
      Push(method->getObject(), diverged);
    }
  }

  void VisitOperator(TIntermNode& node, int diverged) {
    if (glslang::TIntermBinary* binary = node.getAsBinaryNode()) {
      TOperator op = binary->getOp();
      Note(op, diverged);
      if (op == glslang::EOpIndexIndirect && passes_.constant_tables &&
          ConstantArray(*binary->getLeft()))
        settled_ = true;
      if (IsAssignment(op))
        Assigned(binary->getLeft(), Diverged(diverged) || Varying(binary->getRight()) ||
                                        (op != glslang::EOpAssign && Varying(binary->getLeft())));
      // The right operand of a short circuit runs only where the left one says.
      bool short_circuit = op == glslang::EOpLogicalAnd || op == glslang::EOpLogicalOr;
      Push(binary->getRight(), diverged + (short_circuit && Varying(binary->getLeft())));
      Push(binary->getLeft(), diverged);
    } else if (glslang::TIntermAggregate* aggregate = node.getAsAggregate()) {
      VisitAggregate(*aggregate, diverged);
    } else if (glslang::TIntermUnary* unary = node.getAsUnaryNode()) {
      TOperator op = unary->getOp();
      Note(op, diverged);
      if (IsIncrement(op) && Diverged(diverged)) Assigned(unary->getOperand(), true);
      Push(unary->getOperand(), diverged);
    }
  }

  void VisitAggregate(glslang::TIntermAggregate& aggregate, int diverged) {
    TOperator op = aggregate.getOp();
    if (op == glslang::EOpFunction) {
      std::string_view name(aggregate.getName().c_str(), aggregate.getName().size());
      auto [found, added] = by_name_.try_emplace(name, int(functions_.size()));
      if (added) functions_.emplace_back();
      current_ = found->second;
      exited_ = false;
      diverged = 0;
      // Parameters are taken as varying (what callers pass is not followed).
      const glslang::TIntermSequence& parts = aggregate.getSequence();
      if (!parts.empty() && parts[0]->getAsAggregate())
        for (TIntermNode* parameter : parts[0]->getAsAggregate()->getSequence())
          if (glslang::TIntermSymbol* symbol = parameter->getAsSymbolNode())
            varying_.Insert(symbol->getId());
    } else if (op == glslang::EOpFunctionCall) {
      if (current_ >= 0)
        functions_[current_].calls.emplace_back(
            std::string_view(aggregate.getName().c_str(), aggregate.getName().size()),
            Diverged(diverged));
      // What the callee writes through out and inout parameters is not followed.
      const glslang::TQualifierList& qualifiers = aggregate.getQualifierList();
      const glslang::TIntermSequence& arguments = aggregate.getSequence();
      for (size_t i = 0; i < arguments.size() && i < qualifiers.size(); ++i)
        if (qualifiers[i] == glslang::EvqOut || qualifiers[i] == glslang::EvqInOut)
          Assigned(arguments[i]->getAsTyped(), true);
    } else {
      Note(op, diverged);
    }
    const glslang::TIntermSequence& children = aggregate.getSequence();
    for (auto child = children.rbegin(); child != children.rend(); ++child)
      Push(*child, diverged);
  }

  bool Diverged(int diverged) const { return diverged > 0 || exited_ || diverged_loops_ > 0; }

  void Note(TOperator op, int diverged) {
    if (current_ < 0 || !passes_.uniformity || !Judged(op, implicit_lod_)) return;
    functions_[current_].judged = true;
    if (Diverged(diverged)) settled_ = true;
  }

  // The variable that `target` (a variable, or an element, member or component of one)
  // writes to becomes varying when `varying`; an index that is varying makes it so too.
  void Assigned(glslang::TIntermTyped* target, bool varying) {
    while (target) {
      if (glslang::TIntermSymbol* symbol = target->getAsSymbolNode()) {
        if (varying) varying_.Insert(symbol->getId());
        return;
      }
      glslang::TIntermBinary* part = target->getAsBinaryNode();
      if (!part) return;
      if (part->getOp() == glslang::EOpIndexIndirect && Varying(part->getRight())) varying = true;
      target = part->getLeft();
    }
  }

  // Whether `value` may differ between invocations (see the class comment).
  bool Varying(TIntermNode* value) {
    values_.clear();
    values_.push_back(value);
    for (int visited = 0; !values_.empty(); ++visited) {
      if (visited == kMaxValueNodes) return true;
      TIntermNode* node = values_.back();
      values_.pop_back();
      if (!node || node->getAsConstantUnion()) continue;
      if (glslang::TIntermSymbol* symbol = node->getAsSymbolNode()) {
        if (VaryingSymbol(*symbol)) return true;
      } else if (glslang::TIntermBinary* binary = node->getAsBinaryNode()) {
        values_.push_back(binary->getLeft());
        values_.push_back(binary->getRight());
      } else if (glslang::TIntermUnary* unary = node->getAsUnaryNode()) {
        values_.push_back(unary->getOperand());
      } else if (glslang::TIntermAggregate* aggregate = node->getAsAggregate()) {
        if (ReadsPerInvocation(aggregate->getOp())) return true;
        for (TIntermNode* child : aggregate->getSequence()) values_.push_back(child);
      } else if (glslang::TIntermSelection* selection = node->getAsSelectionNode()) {
        values_.push_back(selection->getCondition());
        values_.push_back(selection->getTrueBlock());
        values_.push_back(selection->getFalseBlock());
      } else {
        return true;  // a method, or what this walk does not know
      }
    }
    return false;
  }

  bool VaryingSymbol(const glslang::TIntermSymbol& symbol) const {
    const glslang::TQualifier& qualifier = symbol.getQualifier();
    switch (qualifier.storage) {
      case glslang::EvqConst:
      case glslang::EvqUniform:
        return false;
      // A function's variables, `const` ones with a run-time initializer, and its
      // parameters (all marked varying when the function starts).
      case glslang::EvqTemporary:
      case glslang::EvqConstReadOnly:
      case glslang::EvqIn:
      case glslang::EvqOut:
      case glslang::EvqInOut:
        return varying_.Contains(symbol.getId());
      case glslang::EvqVaryingIn:
        return !UniformBuiltIn(qualifier.builtIn);
      default:
        return true;  // globals, memory, per-invocation inputs
    }
  }

  // Whether `array` is a constant array: glslang folds a `const` array into the
  // constant itself, and an index into it at run time makes it a table.
  static bool ConstantArray(const glslang::TIntermTyped& array) {
    if (!array.getType().isArray()) return false;
    if (array.getAsConstantUnion()) return true;
    const glslang::TIntermSymbol* symbol = array.getAsSymbolNode();
    return symbol && symbol->getQualifier().storage == glslang::EvqConst;
  }

  LinesForecastPasses passes_;
  bool implicit_lod_;
  std::vector<Entry> stack_;
  std::vector<TIntermNode*> values_;  // Varying's own stack
  std::vector<FunctionSummary> functions_;
  std::unordered_map<std::string_view, int> by_name_;
  SymbolIdSet varying_;      // function variables found varying, by symbol id
  std::vector<bool> loops_;  // loops around the node: a divergent break or continue in it
  int diverged_loops_ = 0;   // how many of them have one
  int current_ = -1;         // the function being walked
  bool exited_ = false;      // a return or discard under diverged control came before, in it
  bool settled_ = false;
};

}  // namespace

bool LinesLikelyAsked(const glslang::TIntermediate& intermediate,
                      const LinesForecastPasses& passes) {
  TIntermNode* root = intermediate.getTreeRoot();
  if (!root || (!passes.uniformity && !passes.constant_tables)) return false;
  bool implicit_lod = intermediate.getStage() == EShLangFragment ||
                      intermediate.getLayoutDerivativeModeNone() != glslang::LayoutDerivativeNone;
  ForecastWalk walk(passes, implicit_lod);
  walk.Run(root);
  if (walk.settled()) return true;
  // Calls by callee index (-1: a function without a definition here), resolved once.
  const std::vector<FunctionSummary>& summaries = walk.functions();
  std::vector<bool> judged;
  std::vector<std::vector<std::pair<int, bool>>> calls;
  for (const FunctionSummary& summary : summaries) {
    judged.push_back(summary.judged);
    calls.emplace_back();
    for (const auto& [callee, diverged] : summary.calls)
      calls.back().emplace_back(walk.Find(callee), diverged);
  }
  // A function holds a judged instruction when it or any callee does (GLSL has no
  // recursion; the rounds stop when nothing changes all the same).
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t function = 0; function < calls.size(); ++function)
      for (const auto& [callee, diverged] : calls[function])
        if (!judged[function] && callee >= 0 && judged[callee]) judged[function] = changed = true;
  }
  for (const auto& function_calls : calls)
    for (const auto& [callee, diverged] : function_calls)
      if (diverged && callee >= 0 && judged[callee]) return true;
  return false;
}

}  // namespace glint
