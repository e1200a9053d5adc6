// The guard around glslang 12's empty debug-scope stack (why: debug_scope_guard.h).
#include "glslang/front_end/debug_scope_guard.h"

#include <atomic>
#include <stack>

#include <glslang/SPIRV/SpvBuilder.h>

namespace glint::frontend {
namespace {

std::atomic<unsigned long> guarded_calls{0};

// spv::Builder's stack of debug scopes is protected: a derived class may name it, and
// the pointer to member it forms reads it in any Builder.
struct DebugScopeStack : spv::Builder {
  static std::stack<spv::Id>& Of(spv::Builder& builder) {
    return builder.*(&DebugScopeStack::currentDebugScopeId);
  }
};

}  // namespace

void GuardedGlslangToSpv(const glslang::TIntermediate& intermediate,
                         std::vector<unsigned int>& words, spv::SpvBuildLogger* logger,
                         glslang::SpvOptions* options) {
  glslang::GlslangToSpv(intermediate, words, logger, options);
}

unsigned long GuardedCalls() { return guarded_calls.load(); }

}  // namespace glint::frontend

// While `builder`'s stack of debug scopes is empty, it holds NoResult for `call` (the
// value Debian's tool reads there by luck, now read in bounds); otherwise `call` runs
// as it is. The stack is left as it was found.
template <typename Call>
auto WithScopeWhileEmpty(spv::Builder* builder, Call call) {
  std::stack<spv::Id>& scopes = glint::frontend::DebugScopeStack::Of(*builder);
  if (!scopes.empty()) return call();
  ++glint::frontend::guarded_calls;
  scopes.push(spv::NoResult);
  struct Pop {
    std::stack<spv::Id>& scopes;
    ~Pop() { scopes.pop(); }
  } pop{scopes};
  return call();
}

// The linker sends GlslangToSpv's calls of these two spv::Builder members here
// (--wrap, glslang/CMakeLists.txt), and __real_ names glslang's own. A member
// function's `this` is its first argument, enums are passed as their underlying int
// (Itanium C++ ABI).
//   setLine(int, const char*): its DebugScope reads the top of the stack;
//   createVariable(Decoration, StorageClass, Id, const char*, Id, bool): a Function
//     variable's DebugLocalVariable names the top of the stack as its scope (a global
//     initializer's temporary, made before the entry point's scope is entered).
extern "C" void __real__ZN3spv7Builder7setLineEiPKc(spv::Builder* builder, int line,
                                                    const char* filename);
extern "C" spv::Id __real__ZN3spv7Builder14createVariableENS_10DecorationENS_12StorageClassEjPKcjb(
    spv::Builder* builder, spv::Decoration precision, spv::StorageClass storage, spv::Id type,
    const char* name, spv::Id initializer, bool compiler_generated);

extern "C" void __wrap__ZN3spv7Builder7setLineEiPKc(spv::Builder* builder, int line,
                                                    const char* filename) {
  WithScopeWhileEmpty(builder,
                      [&] { __real__ZN3spv7Builder7setLineEiPKc(builder, line, filename); });
}

extern "C" spv::Id __wrap__ZN3spv7Builder14createVariableENS_10DecorationENS_12StorageClassEjPKcjb(
    spv::Builder* builder, spv::Decoration precision, spv::StorageClass storage, spv::Id type,
    const char* name, spv::Id initializer, bool compiler_generated) {
  return WithScopeWhileEmpty(builder, [&] {
    return __real__ZN3spv7Builder14createVariableENS_10DecorationENS_12StorageClassEjPKcjb(
        builder, precision, storage, type, name, initializer, compiler_generated);
  });
}
