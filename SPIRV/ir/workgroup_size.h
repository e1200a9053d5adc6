// The workgroup size an entry point declares, when the module alone fixes it: the
// constant decorated BuiltIn WorkgroupSize (which overrides the execution modes), else
// the entry point's LocalSize, or LocalSizeId with constant operands. A size made of
// specialization constants is an input (the application may specialize it), so it is
// not known here; neither is a dimension of zero or above 2^32 - 1.
#ifndef GLINT_SPIRV_IR_WORKGROUP_SIZE_H
#define GLINT_SPIRV_IR_WORKGROUP_SIZE_H

#include <cstdint>
#include <string>

#include "SPIRV/ir/builtin_index.h"
#include "SPIRV/ir/def_use.h"
#include "SPIRV/ir/module.h"

namespace glint::spirv {

// Whether invocations of `model` run in workgroups: compute and OpenCL kernels, task and
// mesh shaders (NV and EXT). Only these have workgroup memory, workgroup-scope control
// barriers and the workgroup built-ins. The one answer every analysis asks.
bool HasWorkgroups(spv::ExecutionModel model);

// Fills size[0..2] and returns true when known; otherwise *why says why not.
bool EntryPointWorkgroupSize(const Module& module, const DefUse& def_use,
                             const BuiltInIndex& builtins, uint32_t entry_function, int64_t size[3],
                             std::string* why);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_WORKGROUP_SIZE_H
