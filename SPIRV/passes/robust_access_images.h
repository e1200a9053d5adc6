// The image part of robust-access (see robust_access.h): clamps the coordinates, level
// and sample index of OpImageFetch / OpImageRead / OpImageWrite and their sparse forms
// against the image's queried size, level count and sample count.
//
// Turns   %t = OpImageFetch %v4 %img %coord Lod %lod
// into    %levels = OpImageQueryLevels %uint %img
//         %lod'   = UMin(uint(%lod), max(%levels, 1) - 1)
//         %size   = OpImageQuerySizeLod %v2uint %img %lod'
//         %coord' = int(UMin(uint(%coord), max(%size, 1) - 1))
//         %t = OpImageFetch %v4 %img %coord' Lod %lod'
// A cube (array) storage image's face coordinate is clamped to 6 * layers - 1. Subpass
// inputs are left alone (their coordinate is an offset from the fragment, always valid).
#ifndef GLINT_SPIRV_PASSES_ROBUST_ACCESS_IMAGES_H
#define GLINT_SPIRV_PASSES_ROBUST_ACCESS_IMAGES_H

#include <string>

#include "robust_access_emit.h"

namespace glint::spirv {

// Why `access` cannot be clamped (empty when it can): an unknown image type, a
// subpass input, operands Glint does not understand.
std::string ImageAccessRefusal(const Instruction& access, const ClampEmitter& emitter);

// Clamps the operands of `*at.before` (an image texel access); returns the number of
// clamps emitted (coordinates, level and sample count one each). Adds ImageQuery.
uint32_t ClampImageAccess(const InsertionPoint& at, Module& module, ClampEmitter& emitter);

}  // namespace glint::spirv

#endif  // GLINT_SPIRV_PASSES_ROBUST_ACCESS_IMAGES_H
