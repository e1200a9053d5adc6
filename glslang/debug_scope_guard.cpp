// The guard around glslang 12's empty debug-scope stack (why: debug_scope_guard.h).
#include "debug_scope_guard.h"

#include <atomic>
#include <stack>

#include <glslang/SPIRV/SpvBuilder.h>

namespace glint::frontend {
namespace {

std::atomic<unsigned long> guarded_line_markers{0};

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

unsigned long GuardedLineMarkers() { return guarded_line_markers.load(); }

}  // namespace glint::frontend

// The linker sends GlslangToSpv's calls of spv::Builder::setLine(int, const char*) here
// (--wrap=_ZN3spv7Builder7setLineEiPKc), and __real_ names glslang's own. A member
// function's `this` is its first argument (Itanium C++ ABI).
extern "C" void __real__ZN3spv7Builder7setLineEiPKc(spv::Builder* builder, int line,
                                                    const char* filename);

extern "C" void __wrap__ZN3spv7Builder7setLineEiPKc(spv::Builder* builder, int line,
                                                    const char* filename) {
  std::stack<spv::Id>& scopes = glint::frontend::DebugScopeStack::Of(*builder);
  if (!scopes.empty()) {
    __real__ZN3spv7Builder7setLineEiPKc(builder, line, filename);
    return;
  }
  ++glint::frontend::guarded_line_markers;
  scopes.push(spv::NoResult);
  __real__ZN3spv7Builder7setLineEiPKc(builder, line, filename);
  scopes.pop();
}
