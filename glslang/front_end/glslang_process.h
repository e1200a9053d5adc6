// The library's hold on glslang's process-wide state (its built-in symbol tables, the
// thread-local pool slot that glslang::InitializeProcess creates).
//
// glslang counts InitializeProcess / FinalizeProcess calls and tears its tables down
// when the count reaches zero. The library takes one reference on first use and keeps
// it, so an embedder's FinalizeProcess can never free the tables under a compile that
// is running on another thread, and an engine that wraps every compile in
// InitializeProcess / FinalizeProcess no longer rebuilds the built-ins each time (the
// first compile of each version and stage pays for them, once per process).
// ReleaseGlslangProcess (glint_shutdown, glint::Shutdown) gives the reference back, for
// hosts that check that everything is freed before exit; a later call into the library
// takes it again.
#ifndef GLINT_GLSLANG_FRONT_END_GLSLANG_PROCESS_H
#define GLINT_GLSLANG_FRONT_END_GLSLANG_PROCESS_H

namespace glint {

// Takes the library's reference unless it is held. Thread-safe; cheap once held.
void AcquireGlslangProcess();

// Drops the reference when held (glslang frees its tables if nobody else holds one).
// Must not run while any compile is in flight.
void ReleaseGlslangProcess();

}  // namespace glint

#endif  // GLINT_GLSLANG_FRONT_END_GLSLANG_PROCESS_H
