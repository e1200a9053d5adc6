// The library's reference on glslang's process state (glslang_process.h).
#include "glslang/front_end/glslang_process.h"

#include "glint/glint.h"
#include "glint/glint_c.h"

#include <glslang/Public/ShaderLang.h>

#include <atomic>
#include <mutex>

namespace glint {
namespace {

std::mutex g_process_mutex;
std::atomic<bool> g_held{false};

}  // namespace

void AcquireGlslangProcess() {
  if (g_held.load(std::memory_order_acquire)) return;
  std::lock_guard<std::mutex> lock(g_process_mutex);
  if (g_held.load(std::memory_order_relaxed)) return;
  glslang::InitializeProcess();
  g_held.store(true, std::memory_order_release);
}

void ReleaseGlslangProcess() {
  std::lock_guard<std::mutex> lock(g_process_mutex);
  if (!g_held.load(std::memory_order_relaxed)) return;
  glslang::FinalizeProcess();
  g_held.store(false, std::memory_order_release);
}

}  // namespace glint

namespace glint {

void Shutdown() { ReleaseGlslangProcess(); }

}  // namespace glint

extern "C" void glint_shutdown(void) { glint::ReleaseGlslangProcess(); }
