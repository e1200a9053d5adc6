// The workgroup size an entry point declares, when the module alone fixes it: the
// constant decorated BuiltIn WorkgroupSize (which overrides the execution modes), else
// the entry point's LocalSize, or LocalSizeId with constant operands. A size made of
// specialization constants is an input (the application may specialize it), so it is
// not known here; neither is a dimension of zero or above 2^32 - 1.
#ifndef GLINT_SPIRV_IR_WORKGROUP_SIZE_H
#define GLINT_SPIRV_IR_WORKGROUP_SIZE_H

#include <cstdint>
#include <functional>
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

// The value of a plain (not specialization) 32-bit integer constant, looked up through
// `definition`; false for anything else.
bool PlainInt32Constant(const std::function<const Instruction*(uint32_t)>& definition, uint32_t id,
                        int64_t* value);

// The dimensions of an entry point's workgroup size that the module fixes whatever the
// application specializes: bit i of the result is set when size[i] is fixed (and then
// holds it). A dimension given by a specialization constant is not fixed, but the others
// of the same declaration still are: glslang's `local_size_x_id = 0` keeps y and z at
// their plain constants. As EntryPointWorkgroupSize, the constant decorated BuiltIn
// WorkgroupSize overrides the execution modes. `definition` looks ids up (a DefUse's, or
// a caller's own table, so that analyses built before def-use can ask).
uint32_t FixedWorkgroupDimensions(const Module& module, const BuiltInIndex& builtins,
                                  uint32_t entry_function,
                                  const std::function<const Instruction*(uint32_t)>& definition,
                                  int64_t size[3]);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_IR_WORKGROUP_SIZE_H
