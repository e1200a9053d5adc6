#include "pipeline.h"

namespace glint::spirv {

PassResult RunPipeline(Module& module, PassContext& context) {
  PassManager manager;
  // Passes are registered here as they land (one file each in this directory).
  return manager.Run(module, context);
}

}  // namespace glint::spirv
