#include "SPIRV/analysis/convergence/convergence_classes.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "SPIRV/ir/grammar.h"
#include "SPIRV/ir/instruction_views.h"
#include "SPIRV/ir/opcode_table.h"

namespace glint::spirv {
namespace {

// Opcodes whose result (or effect) depends on no other invocation: every opcode of the
// grammar that the special table below does not list. Kept in the grammar's class
// order so that a new grammar's additions are easy to place.
constexpr spv::Op kLocalOpcodes[] = {
    // Miscellaneous
    spv::OpNop,
    spv::OpUndef,
    spv::OpSizeOf,
    spv::OpAssumeTrueKHR,
    spv::OpExpectKHR,
    // Debug
    spv::OpSourceContinued,
    spv::OpSource,
    spv::OpSourceExtension,
    spv::OpName,
    spv::OpMemberName,
    spv::OpString,
    spv::OpLine,
    spv::OpNoLine,
    spv::OpModuleProcessed,
    // Extension
    spv::OpExtension,
    spv::OpExtInstImport,
    // Mode-Setting
    spv::OpMemoryModel,
    spv::OpEntryPoint,
    spv::OpExecutionMode,
    spv::OpCapability,
    spv::OpExecutionModeId,
    // Type-Declaration
    spv::OpTypeVoid,
    spv::OpTypeBool,
    spv::OpTypeInt,
    spv::OpTypeFloat,
    spv::OpTypeVector,
    spv::OpTypeMatrix,
    spv::OpTypeImage,
    spv::OpTypeSampler,
    spv::OpTypeSampledImage,
    spv::OpTypeArray,
    spv::OpTypeRuntimeArray,
    spv::OpTypeStruct,
    spv::OpTypeOpaque,
    spv::OpTypePointer,
    spv::OpTypeFunction,
    spv::OpTypeEvent,
    spv::OpTypeDeviceEvent,
    spv::OpTypeReserveId,
    spv::OpTypeQueue,
    spv::OpTypePipe,
    spv::OpTypeForwardPointer,
    spv::OpTypePipeStorage,
    spv::OpTypeNamedBarrier,
    spv::OpTypeBufferSurfaceINTEL,
    spv::OpTypeStructContinuedINTEL,
    // Constant-Creation
    spv::OpConstantTrue,
    spv::OpConstantFalse,
    spv::OpConstant,
    spv::OpConstantComposite,
    spv::OpConstantSampler,
    spv::OpConstantNull,
    spv::OpSpecConstantTrue,
    spv::OpSpecConstantFalse,
    spv::OpSpecConstant,
    spv::OpSpecConstantComposite,
    spv::OpSpecConstantOp,
    spv::OpConstantCompositeContinuedINTEL,
    spv::OpSpecConstantCompositeContinuedINTEL,
    // Function
    spv::OpFunction,
    spv::OpFunctionParameter,
    spv::OpFunctionEnd,
    // Memory
    spv::OpVariable,
    spv::OpImageTexelPointer,
    spv::OpLoad,
    spv::OpStore,
    spv::OpCopyMemory,
    spv::OpCopyMemorySized,
    spv::OpAccessChain,
    spv::OpInBoundsAccessChain,
    spv::OpPtrAccessChain,
    spv::OpArrayLength,
    spv::OpGenericPtrMemSemantics,
    spv::OpInBoundsPtrAccessChain,
    spv::OpPtrEqual,
    spv::OpPtrNotEqual,
    spv::OpPtrDiff,
    // Annotation
    spv::OpDecorate,
    spv::OpMemberDecorate,
    spv::OpDecorationGroup,
    spv::OpGroupDecorate,
    spv::OpGroupMemberDecorate,
    spv::OpDecorateId,
    spv::OpDecorateString,
    spv::OpMemberDecorateString,
    // Composite
    spv::OpVectorExtractDynamic,
    spv::OpVectorInsertDynamic,
    spv::OpVectorShuffle,
    spv::OpCompositeConstruct,
    spv::OpCompositeExtract,
    spv::OpCompositeInsert,
    spv::OpCopyObject,
    spv::OpTranspose,
    spv::OpCopyLogical,
    // Image
    spv::OpSampledImage,
    spv::OpImageSampleExplicitLod,
    spv::OpImageSampleDrefExplicitLod,
    spv::OpImageSampleProjExplicitLod,
    spv::OpImageSampleProjDrefExplicitLod,
    spv::OpImageFetch,
    spv::OpImageGather,
    spv::OpImageDrefGather,
    spv::OpImageRead,
    spv::OpImageWrite,
    spv::OpImage,
    spv::OpImageQueryFormat,
    spv::OpImageQueryOrder,
    spv::OpImageQuerySizeLod,
    spv::OpImageQuerySize,
    spv::OpImageQueryLevels,
    spv::OpImageQuerySamples,
    spv::OpImageSparseSampleExplicitLod,
    spv::OpImageSparseSampleDrefExplicitLod,
    spv::OpImageSparseSampleProjExplicitLod,
    spv::OpImageSparseSampleProjDrefExplicitLod,
    spv::OpImageSparseFetch,
    spv::OpImageSparseGather,
    spv::OpImageSparseDrefGather,
    spv::OpImageSparseTexelsResident,
    spv::OpImageSparseRead,
    // Conversion
    spv::OpConvertFToU,
    spv::OpConvertFToS,
    spv::OpConvertSToF,
    spv::OpConvertUToF,
    spv::OpUConvert,
    spv::OpSConvert,
    spv::OpFConvert,
    spv::OpQuantizeToF16,
    spv::OpConvertPtrToU,
    spv::OpSatConvertSToU,
    spv::OpSatConvertUToS,
    spv::OpConvertUToPtr,
    spv::OpPtrCastToGeneric,
    spv::OpGenericCastToPtr,
    spv::OpGenericCastToPtrExplicit,
    spv::OpBitcast,
    // Arithmetic
    spv::OpSNegate,
    spv::OpFNegate,
    spv::OpIAdd,
    spv::OpFAdd,
    spv::OpISub,
    spv::OpFSub,
    spv::OpIMul,
    spv::OpFMul,
    spv::OpUDiv,
    spv::OpSDiv,
    spv::OpFDiv,
    spv::OpUMod,
    spv::OpSRem,
    spv::OpSMod,
    spv::OpFRem,
    spv::OpFMod,
    spv::OpVectorTimesScalar,
    spv::OpMatrixTimesScalar,
    spv::OpVectorTimesMatrix,
    spv::OpMatrixTimesVector,
    spv::OpMatrixTimesMatrix,
    spv::OpOuterProduct,
    spv::OpDot,
    spv::OpIAddCarry,
    spv::OpISubBorrow,
    spv::OpUMulExtended,
    spv::OpSMulExtended,
    spv::OpSDot,
    spv::OpUDot,
    spv::OpSUDot,
    spv::OpSDotAccSat,
    spv::OpUDotAccSat,
    spv::OpSUDotAccSat,
    // Relational_and_Logical
    spv::OpAny,
    spv::OpAll,
    spv::OpIsNan,
    spv::OpIsInf,
    spv::OpIsFinite,
    spv::OpIsNormal,
    spv::OpSignBitSet,
    spv::OpLessOrGreater,
    spv::OpOrdered,
    spv::OpUnordered,
    spv::OpLogicalEqual,
    spv::OpLogicalNotEqual,
    spv::OpLogicalOr,
    spv::OpLogicalAnd,
    spv::OpLogicalNot,
    spv::OpSelect,
    spv::OpIEqual,
    spv::OpINotEqual,
    spv::OpUGreaterThan,
    spv::OpSGreaterThan,
    spv::OpUGreaterThanEqual,
    spv::OpSGreaterThanEqual,
    spv::OpULessThan,
    spv::OpSLessThan,
    spv::OpULessThanEqual,
    spv::OpSLessThanEqual,
    spv::OpFOrdEqual,
    spv::OpFUnordEqual,
    spv::OpFOrdNotEqual,
    spv::OpFUnordNotEqual,
    spv::OpFOrdLessThan,
    spv::OpFUnordLessThan,
    spv::OpFOrdGreaterThan,
    spv::OpFUnordGreaterThan,
    spv::OpFOrdLessThanEqual,
    spv::OpFUnordLessThanEqual,
    spv::OpFOrdGreaterThanEqual,
    spv::OpFUnordGreaterThanEqual,
    // Bit
    spv::OpShiftRightLogical,
    spv::OpShiftRightArithmetic,
    spv::OpShiftLeftLogical,
    spv::OpBitwiseOr,
    spv::OpBitwiseXor,
    spv::OpBitwiseAnd,
    spv::OpNot,
    spv::OpBitFieldInsert,
    spv::OpBitFieldSExtract,
    spv::OpBitFieldUExtract,
    spv::OpBitReverse,
    spv::OpBitCount,
    // Primitive
    spv::OpEmitVertex,
    spv::OpEndPrimitive,
    spv::OpEmitStreamVertex,
    spv::OpEndStreamPrimitive,
    // Barrier
    spv::OpMemoryBarrier,
    spv::OpNamedBarrierInitialize,
    // Atomic
    spv::OpAtomicLoad,
    spv::OpAtomicStore,
    spv::OpAtomicExchange,
    spv::OpAtomicCompareExchange,
    spv::OpAtomicCompareExchangeWeak,
    spv::OpAtomicIIncrement,
    spv::OpAtomicIDecrement,
    spv::OpAtomicIAdd,
    spv::OpAtomicISub,
    spv::OpAtomicSMin,
    spv::OpAtomicUMin,
    spv::OpAtomicSMax,
    spv::OpAtomicUMax,
    spv::OpAtomicAnd,
    spv::OpAtomicOr,
    spv::OpAtomicXor,
    spv::OpAtomicFlagTestAndSet,
    spv::OpAtomicFlagClear,
    spv::OpAtomicFMinEXT,
    spv::OpAtomicFMaxEXT,
    spv::OpAtomicFAddEXT,
    // Control-Flow
    spv::OpPhi,
    spv::OpLoopMerge,
    spv::OpSelectionMerge,
    spv::OpLabel,
    spv::OpBranch,
    spv::OpBranchConditional,
    spv::OpSwitch,
    spv::OpKill,
    spv::OpReturn,
    spv::OpReturnValue,
    spv::OpUnreachable,
    spv::OpLifetimeStart,
    spv::OpLifetimeStop,
    spv::OpTerminateInvocation,
    spv::OpDemoteToHelperInvocation,
    // Pipe
    spv::OpReadPipe,
    spv::OpWritePipe,
    spv::OpReservedReadPipe,
    spv::OpReservedWritePipe,
    spv::OpReserveReadPipePackets,
    spv::OpReserveWritePipePackets,
    spv::OpCommitReadPipe,
    spv::OpCommitWritePipe,
    spv::OpIsValidReserveId,
    spv::OpGetNumPipePackets,
    spv::OpGetMaxPipePackets,
    spv::OpConstantPipeStorage,
    spv::OpCreatePipeFromPipeStorage,
    spv::OpReadPipeBlockingINTEL,
    spv::OpWritePipeBlockingINTEL,
    // Device-Side_Enqueue
    spv::OpEnqueueMarker,
    spv::OpEnqueueKernel,
    spv::OpGetKernelNDrangeSubGroupCount,
    spv::OpGetKernelNDrangeMaxSubGroupSize,
    spv::OpGetKernelWorkGroupSize,
    spv::OpGetKernelPreferredWorkGroupSizeMultiple,
    spv::OpRetainEvent,
    spv::OpReleaseEvent,
    spv::OpCreateUserEvent,
    spv::OpIsValidEvent,
    spv::OpSetUserEventStatus,
    spv::OpCaptureEventProfilingInfo,
    spv::OpGetDefaultQueue,
    spv::OpBuildNDRange,
    spv::OpGetKernelLocalSizeForSubgroupCount,
    spv::OpGetKernelMaxNumSubgroups,
    // Non-Uniform
    spv::OpGroupNonUniformInverseBallot,
    spv::OpGroupNonUniformBallotBitExtract,
    spv::OpGroupNonUniformBallotBitCount,
    spv::OpGroupNonUniformBallotFindLSB,
    spv::OpGroupNonUniformBallotFindMSB,
    // Reserved
    spv::OpTraceRayKHR,
    spv::OpExecuteCallableKHR,
    spv::OpConvertUToAccelerationStructureKHR,
    spv::OpIgnoreIntersectionKHR,
    spv::OpTerminateRayKHR,
    spv::OpTypeRayQueryKHR,
    spv::OpRayQueryInitializeKHR,
    spv::OpRayQueryTerminateKHR,
    spv::OpRayQueryGenerateIntersectionKHR,
    spv::OpRayQueryConfirmIntersectionKHR,
    spv::OpRayQueryProceedKHR,
    spv::OpRayQueryGetIntersectionTypeKHR,
    spv::OpFragmentMaskFetchAMD,
    spv::OpFragmentFetchAMD,
    spv::OpReadClockKHR,
    spv::OpHitObjectRecordHitMotionNV,
    spv::OpHitObjectRecordHitWithIndexMotionNV,
    spv::OpHitObjectRecordMissMotionNV,
    spv::OpHitObjectGetWorldToObjectNV,
    spv::OpHitObjectGetObjectToWorldNV,
    spv::OpHitObjectGetObjectRayDirectionNV,
    spv::OpHitObjectGetObjectRayOriginNV,
    spv::OpHitObjectTraceRayMotionNV,
    spv::OpHitObjectGetShaderRecordBufferHandleNV,
    spv::OpHitObjectGetShaderBindingTableRecordIndexNV,
    spv::OpHitObjectRecordEmptyNV,
    spv::OpHitObjectTraceRayNV,
    spv::OpHitObjectRecordHitNV,
    spv::OpHitObjectRecordHitWithIndexNV,
    spv::OpHitObjectRecordMissNV,
    spv::OpHitObjectExecuteShaderNV,
    spv::OpHitObjectGetCurrentTimeNV,
    spv::OpHitObjectGetAttributesNV,
    spv::OpHitObjectGetHitKindNV,
    spv::OpHitObjectGetPrimitiveIndexNV,
    spv::OpHitObjectGetGeometryIndexNV,
    spv::OpHitObjectGetInstanceIdNV,
    spv::OpHitObjectGetInstanceCustomIndexNV,
    spv::OpHitObjectGetWorldRayDirectionNV,
    spv::OpHitObjectGetWorldRayOriginNV,
    spv::OpHitObjectGetRayTMaxNV,
    spv::OpHitObjectGetRayTMinNV,
    spv::OpHitObjectIsEmptyNV,
    spv::OpHitObjectIsHitNV,
    spv::OpHitObjectIsMissNV,
    spv::OpReorderThreadWithHitObjectNV,
    spv::OpReorderThreadWithHintNV,
    spv::OpTypeHitObjectNV,
    spv::OpWritePackedPrimitiveIndices4x8NV,
    spv::OpReportIntersectionNV,
    spv::OpIgnoreIntersectionNV,
    spv::OpTerminateRayNV,
    spv::OpTraceNV,
    spv::OpTraceMotionNV,
    spv::OpTraceRayMotionNV,
    spv::OpTypeAccelerationStructureNV,
    spv::OpExecuteCallableNV,
    spv::OpTypeCooperativeMatrixNV,
    spv::OpCooperativeMatrixLengthNV,
    spv::OpIsHelperInvocationEXT,
    spv::OpConvertUToImageNV,
    spv::OpConvertUToSamplerNV,
    spv::OpConvertImageToUNV,
    spv::OpConvertSamplerToUNV,
    spv::OpConvertUToSampledImageNV,
    spv::OpConvertSampledImageToUNV,
    spv::OpSamplerImageAddressingModeNV,
    spv::OpUCountLeadingZerosINTEL,
    spv::OpUCountTrailingZerosINTEL,
    spv::OpAbsISubINTEL,
    spv::OpAbsUSubINTEL,
    spv::OpIAddSatINTEL,
    spv::OpUAddSatINTEL,
    spv::OpIAverageINTEL,
    spv::OpUAverageINTEL,
    spv::OpIAverageRoundedINTEL,
    spv::OpUAverageRoundedINTEL,
    spv::OpISubSatINTEL,
    spv::OpUSubSatINTEL,
    spv::OpIMul32x16INTEL,
    spv::OpUMul32x16INTEL,
    spv::OpLoopControlINTEL,
    spv::OpFPGARegINTEL,
    spv::OpRayQueryGetRayTMinKHR,
    spv::OpRayQueryGetRayFlagsKHR,
    spv::OpRayQueryGetIntersectionTKHR,
    spv::OpRayQueryGetIntersectionInstanceCustomIndexKHR,
    spv::OpRayQueryGetIntersectionInstanceIdKHR,
    spv::OpRayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
    spv::OpRayQueryGetIntersectionGeometryIndexKHR,
    spv::OpRayQueryGetIntersectionPrimitiveIndexKHR,
    spv::OpRayQueryGetIntersectionBarycentricsKHR,
    spv::OpRayQueryGetIntersectionFrontFaceKHR,
    spv::OpRayQueryGetIntersectionCandidateAABBOpaqueKHR,
    spv::OpRayQueryGetIntersectionObjectRayDirectionKHR,
    spv::OpRayQueryGetIntersectionObjectRayOriginKHR,
    spv::OpRayQueryGetWorldRayDirectionKHR,
    spv::OpRayQueryGetWorldRayOriginKHR,
    spv::OpRayQueryGetIntersectionObjectToWorldKHR,
    spv::OpRayQueryGetIntersectionWorldToObjectKHR,
    // @exclude
    spv::OpConstantFunctionPointerINTEL,
    spv::OpFunctionPointerCallINTEL,
    spv::OpAsmTargetINTEL,
    spv::OpAsmINTEL,
    spv::OpAsmCallINTEL,
    spv::OpVmeImageINTEL,
    spv::OpTypeVmeImageINTEL,
    spv::OpTypeAvcImePayloadINTEL,
    spv::OpTypeAvcRefPayloadINTEL,
    spv::OpTypeAvcSicPayloadINTEL,
    spv::OpTypeAvcMcePayloadINTEL,
    spv::OpTypeAvcMceResultINTEL,
    spv::OpTypeAvcImeResultINTEL,
    spv::OpTypeAvcImeResultSingleReferenceStreamoutINTEL,
    spv::OpTypeAvcImeResultDualReferenceStreamoutINTEL,
    spv::OpTypeAvcImeSingleReferenceStreaminINTEL,
    spv::OpTypeAvcImeDualReferenceStreaminINTEL,
    spv::OpTypeAvcRefResultINTEL,
    spv::OpTypeAvcSicResultINTEL,
    spv::OpVariableLengthArrayINTEL,
    spv::OpSaveMemoryINTEL,
    spv::OpRestoreMemoryINTEL,
    spv::OpArbitraryFloatSinCosPiINTEL,
    spv::OpArbitraryFloatCastINTEL,
    spv::OpArbitraryFloatCastFromIntINTEL,
    spv::OpArbitraryFloatCastToIntINTEL,
    spv::OpArbitraryFloatAddINTEL,
    spv::OpArbitraryFloatSubINTEL,
    spv::OpArbitraryFloatMulINTEL,
    spv::OpArbitraryFloatDivINTEL,
    spv::OpArbitraryFloatGTINTEL,
    spv::OpArbitraryFloatGEINTEL,
    spv::OpArbitraryFloatLTINTEL,
    spv::OpArbitraryFloatLEINTEL,
    spv::OpArbitraryFloatEQINTEL,
    spv::OpArbitraryFloatRecipINTEL,
    spv::OpArbitraryFloatRSqrtINTEL,
    spv::OpArbitraryFloatCbrtINTEL,
    spv::OpArbitraryFloatHypotINTEL,
    spv::OpArbitraryFloatSqrtINTEL,
    spv::OpArbitraryFloatLogINTEL,
    spv::OpArbitraryFloatLog2INTEL,
    spv::OpArbitraryFloatLog10INTEL,
    spv::OpArbitraryFloatLog1pINTEL,
    spv::OpArbitraryFloatExpINTEL,
    spv::OpArbitraryFloatExp2INTEL,
    spv::OpArbitraryFloatExp10INTEL,
    spv::OpArbitraryFloatExpm1INTEL,
    spv::OpArbitraryFloatSinINTEL,
    spv::OpArbitraryFloatCosINTEL,
    spv::OpArbitraryFloatSinCosINTEL,
    spv::OpArbitraryFloatSinPiINTEL,
    spv::OpArbitraryFloatCosPiINTEL,
    spv::OpArbitraryFloatASinINTEL,
    spv::OpArbitraryFloatASinPiINTEL,
    spv::OpArbitraryFloatACosINTEL,
    spv::OpArbitraryFloatACosPiINTEL,
    spv::OpArbitraryFloatATanINTEL,
    spv::OpArbitraryFloatATanPiINTEL,
    spv::OpArbitraryFloatATan2INTEL,
    spv::OpArbitraryFloatPowINTEL,
    spv::OpArbitraryFloatPowRINTEL,
    spv::OpArbitraryFloatPowNINTEL,
    spv::OpAliasDomainDeclINTEL,
    spv::OpAliasScopeDeclINTEL,
    spv::OpAliasScopeListDeclINTEL,
    spv::OpFixedSqrtINTEL,
    spv::OpFixedRecipINTEL,
    spv::OpFixedRsqrtINTEL,
    spv::OpFixedSinINTEL,
    spv::OpFixedCosINTEL,
    spv::OpFixedSinCosINTEL,
    spv::OpFixedSinPiINTEL,
    spv::OpFixedCosPiINTEL,
    spv::OpFixedSinCosPiINTEL,
    spv::OpFixedLogINTEL,
    spv::OpFixedExpINTEL,
    spv::OpPtrCastToCrossWorkgroupINTEL,
    spv::OpCrossWorkgroupCastToPtrINTEL,
};

// Video motion estimation of SPV_INTEL_device_side_avc_motion_estimation: operations
// the subgroup performs together on shared payloads (cross-thread, never in GLSL).
constexpr spv::Op kSubgroupAvcOpcodes[] = {
    spv::OpSubgroupAvcMceGetDefaultInterBaseMultiReferencePenaltyINTEL,
    spv::OpSubgroupAvcMceSetInterBaseMultiReferencePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterShapePenaltyINTEL,
    spv::OpSubgroupAvcMceSetInterShapePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterDirectionPenaltyINTEL,
    spv::OpSubgroupAvcMceSetInterDirectionPenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultIntraLumaShapePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultInterMotionVectorCostTableINTEL,
    spv::OpSubgroupAvcMceGetDefaultHighPenaltyCostTableINTEL,
    spv::OpSubgroupAvcMceGetDefaultMediumPenaltyCostTableINTEL,
    spv::OpSubgroupAvcMceGetDefaultLowPenaltyCostTableINTEL,
    spv::OpSubgroupAvcMceSetMotionVectorCostFunctionINTEL,
    spv::OpSubgroupAvcMceGetDefaultIntraLumaModePenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultNonDcLumaIntraPenaltyINTEL,
    spv::OpSubgroupAvcMceGetDefaultIntraChromaModeBasePenaltyINTEL,
    spv::OpSubgroupAvcMceSetAcOnlyHaarINTEL,
    spv::OpSubgroupAvcMceSetSourceInterlacedFieldPolarityINTEL,
    spv::OpSubgroupAvcMceSetSingleReferenceInterlacedFieldPolarityINTEL,
    spv::OpSubgroupAvcMceSetDualReferenceInterlacedFieldPolaritiesINTEL,
    spv::OpSubgroupAvcMceConvertToImePayloadINTEL,
    spv::OpSubgroupAvcMceConvertToImeResultINTEL,
    spv::OpSubgroupAvcMceConvertToRefPayloadINTEL,
    spv::OpSubgroupAvcMceConvertToRefResultINTEL,
    spv::OpSubgroupAvcMceConvertToSicPayloadINTEL,
    spv::OpSubgroupAvcMceConvertToSicResultINTEL,
    spv::OpSubgroupAvcMceGetMotionVectorsINTEL,
    spv::OpSubgroupAvcMceGetInterDistortionsINTEL,
    spv::OpSubgroupAvcMceGetBestInterDistortionsINTEL,
    spv::OpSubgroupAvcMceGetInterMajorShapeINTEL,
    spv::OpSubgroupAvcMceGetInterMinorShapeINTEL,
    spv::OpSubgroupAvcMceGetInterDirectionsINTEL,
    spv::OpSubgroupAvcMceGetInterMotionVectorCountINTEL,
    spv::OpSubgroupAvcMceGetInterReferenceIdsINTEL,
    spv::OpSubgroupAvcMceGetInterReferenceInterlacedFieldPolaritiesINTEL,
    spv::OpSubgroupAvcImeInitializeINTEL,
    spv::OpSubgroupAvcImeSetSingleReferenceINTEL,
    spv::OpSubgroupAvcImeSetDualReferenceINTEL,
    spv::OpSubgroupAvcImeRefWindowSizeINTEL,
    spv::OpSubgroupAvcImeAdjustRefOffsetINTEL,
    spv::OpSubgroupAvcImeConvertToMcePayloadINTEL,
    spv::OpSubgroupAvcImeSetMaxMotionVectorCountINTEL,
    spv::OpSubgroupAvcImeSetUnidirectionalMixDisableINTEL,
    spv::OpSubgroupAvcImeSetEarlySearchTerminationThresholdINTEL,
    spv::OpSubgroupAvcImeSetWeightedSadINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeEvaluateWithSingleReferenceStreaminoutINTEL,
    spv::OpSubgroupAvcImeEvaluateWithDualReferenceStreaminoutINTEL,
    spv::OpSubgroupAvcImeConvertToMceResultINTEL,
    spv::OpSubgroupAvcImeGetSingleReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeGetDualReferenceStreaminINTEL,
    spv::OpSubgroupAvcImeStripSingleReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeStripDualReferenceStreamoutINTEL,
    spv::OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeMotionVectorsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeDistortionsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutSingleReferenceMajorShapeReferenceIdsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutDualReferenceMajorShapeMotionVectorsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutDualReferenceMajorShapeDistortionsINTEL,
    spv::OpSubgroupAvcImeGetStreamoutDualReferenceMajorShapeReferenceIdsINTEL,
    spv::OpSubgroupAvcImeGetBorderReachedINTEL,
    spv::OpSubgroupAvcImeGetTruncatedSearchIndicationINTEL,
    spv::OpSubgroupAvcImeGetUnidirectionalEarlySearchTerminationINTEL,
    spv::OpSubgroupAvcImeGetWeightingPatternMinimumMotionVectorINTEL,
    spv::OpSubgroupAvcImeGetWeightingPatternMinimumDistortionINTEL,
    spv::OpSubgroupAvcFmeInitializeINTEL,
    spv::OpSubgroupAvcBmeInitializeINTEL,
    spv::OpSubgroupAvcRefConvertToMcePayloadINTEL,
    spv::OpSubgroupAvcRefSetBidirectionalMixDisableINTEL,
    spv::OpSubgroupAvcRefSetBilinearFilterEnableINTEL,
    spv::OpSubgroupAvcRefEvaluateWithSingleReferenceINTEL,
    spv::OpSubgroupAvcRefEvaluateWithDualReferenceINTEL,
    spv::OpSubgroupAvcRefEvaluateWithMultiReferenceINTEL,
    spv::OpSubgroupAvcRefEvaluateWithMultiReferenceInterlacedINTEL,
    spv::OpSubgroupAvcRefConvertToMceResultINTEL,
    spv::OpSubgroupAvcSicInitializeINTEL,
    spv::OpSubgroupAvcSicConfigureSkcINTEL,
    spv::OpSubgroupAvcSicConfigureIpeLumaINTEL,
    spv::OpSubgroupAvcSicConfigureIpeLumaChromaINTEL,
    spv::OpSubgroupAvcSicGetMotionVectorMaskINTEL,
    spv::OpSubgroupAvcSicConvertToMcePayloadINTEL,
    spv::OpSubgroupAvcSicSetIntraLumaShapePenaltyINTEL,
    spv::OpSubgroupAvcSicSetIntraLumaModeCostFunctionINTEL,
    spv::OpSubgroupAvcSicSetIntraChromaModeCostFunctionINTEL,
    spv::OpSubgroupAvcSicSetBilinearFilterEnableINTEL,
    spv::OpSubgroupAvcSicSetSkcForwardTransformEnableINTEL,
    spv::OpSubgroupAvcSicSetBlockBasedRawSkipSadINTEL,
    spv::OpSubgroupAvcSicEvaluateIpeINTEL,
    spv::OpSubgroupAvcSicEvaluateWithSingleReferenceINTEL,
    spv::OpSubgroupAvcSicEvaluateWithDualReferenceINTEL,
    spv::OpSubgroupAvcSicEvaluateWithMultiReferenceINTEL,
    spv::OpSubgroupAvcSicEvaluateWithMultiReferenceInterlacedINTEL,
    spv::OpSubgroupAvcSicConvertToMceResultINTEL,
    spv::OpSubgroupAvcSicGetIpeLumaShapeINTEL,
    spv::OpSubgroupAvcSicGetBestIpeLumaDistortionINTEL,
    spv::OpSubgroupAvcSicGetBestIpeChromaDistortionINTEL,
    spv::OpSubgroupAvcSicGetPackedIpeLumaModesINTEL,
    spv::OpSubgroupAvcSicGetIpeChromaModeINTEL,
    spv::OpSubgroupAvcSicGetPackedSkcLumaCountThresholdINTEL,
    spv::OpSubgroupAvcSicGetPackedSkcLumaSumThresholdINTEL,
    spv::OpSubgroupAvcSicGetInterRawSadsINTEL,
};

struct SpecialRow {
  spv::Op opcode;
  ConvergenceFlags flags;
  UniformScope scope;
};

constexpr ConvergenceFlags kCross = kConvergent | kCrossThread;
constexpr ConvergenceFlags kUniform = kConvergent | kUniformControl;
constexpr ConvergenceFlags kUniformCross = kConvergent | kCrossThread | kUniformControl;
constexpr UniformScope kNoScope = UniformScope::kNone;
constexpr UniformScope kQuad = UniformScope::kQuad;
constexpr UniformScope kSubgroup = UniformScope::kSubgroup;
constexpr UniformScope kGroup = UniformScope::kInvocationGroup;
constexpr UniformScope kOperand = UniformScope::kExecutionOperand;

constexpr SpecialRow kSpecialOpcodes[] = {
    // Decided per instruction: the callee's body, the extended instruction set.
    {spv::OpFunctionCall, kNotConvergent, UniformScope::kCallee},
    {spv::OpExtInst, kNotConvergent, kNoScope},
    // Derivatives: "undefined in non-uniform control flow" (the quad must be complete).
    {spv::OpDPdx, kUniform, kQuad},
    {spv::OpDPdy, kUniform, kQuad},
    {spv::OpFwidth, kUniform, kQuad},
    {spv::OpDPdxFine, kUniform, kQuad},
    {spv::OpDPdyFine, kUniform, kQuad},
    {spv::OpFwidthFine, kUniform, kQuad},
    {spv::OpDPdxCoarse, kUniform, kQuad},
    {spv::OpDPdyCoarse, kUniform, kQuad},
    {spv::OpFwidthCoarse, kUniform, kQuad},
    // Sampling with an implicit level of detail takes derivatives of the coordinates.
    {spv::OpImageSampleImplicitLod, kUniform, kQuad},
    {spv::OpImageSampleDrefImplicitLod, kUniform, kQuad},
    {spv::OpImageSampleProjImplicitLod, kUniform, kQuad},
    {spv::OpImageSampleProjDrefImplicitLod, kUniform, kQuad},
    {spv::OpImageSparseSampleImplicitLod, kUniform, kQuad},
    {spv::OpImageSparseSampleDrefImplicitLod, kUniform, kQuad},
    {spv::OpImageSparseSampleProjImplicitLod, kUniform, kQuad},
    {spv::OpImageSparseSampleProjDrefImplicitLod, kUniform, kQuad},
    {spv::OpImageQueryLod, kUniform, kQuad},
    {spv::OpImageSampleFootprintNV, kUniform, kQuad},  // unless Lod / Grad: see Of()
    // Barriers that every invocation of the Execution scope must reach.
    {spv::OpControlBarrier, kUniform, kOperand},
    {spv::OpControlBarrierArriveINTEL, kUniform, kOperand},
    {spv::OpControlBarrierWaitINTEL, kUniform, kOperand},
    {spv::OpMemoryNamedBarrier, kUniform, kGroup},
    // SPIR-V 1.0 group operations (and KHR uniform group instructions, group pipes):
    // all invocations of the Execution scope must reach them, results combine them all.
    {spv::OpGroupAsyncCopy, kUniformCross, kOperand},
    {spv::OpGroupWaitEvents, kUniformCross, kOperand},
    {spv::OpGroupAll, kUniformCross, kOperand},
    {spv::OpGroupAny, kUniformCross, kOperand},
    {spv::OpGroupBroadcast, kUniformCross, kOperand},
    {spv::OpGroupIAdd, kUniformCross, kOperand},
    {spv::OpGroupFAdd, kUniformCross, kOperand},
    {spv::OpGroupFMin, kUniformCross, kOperand},
    {spv::OpGroupUMin, kUniformCross, kOperand},
    {spv::OpGroupSMin, kUniformCross, kOperand},
    {spv::OpGroupFMax, kUniformCross, kOperand},
    {spv::OpGroupUMax, kUniformCross, kOperand},
    {spv::OpGroupSMax, kUniformCross, kOperand},
    {spv::OpGroupIMulKHR, kUniformCross, kOperand},
    {spv::OpGroupFMulKHR, kUniformCross, kOperand},
    {spv::OpGroupBitwiseAndKHR, kUniformCross, kOperand},
    {spv::OpGroupBitwiseOrKHR, kUniformCross, kOperand},
    {spv::OpGroupBitwiseXorKHR, kUniformCross, kOperand},
    {spv::OpGroupLogicalAndKHR, kUniformCross, kOperand},
    {spv::OpGroupLogicalOrKHR, kUniformCross, kOperand},
    {spv::OpGroupLogicalXorKHR, kUniformCross, kOperand},
    {spv::OpGroupReserveReadPipePackets, kUniformCross, kOperand},
    {spv::OpGroupReserveWritePipePackets, kUniformCross, kOperand},
    {spv::OpGroupCommitReadPipe, kUniformCross, kOperand},
    {spv::OpGroupCommitWritePipe, kUniformCross, kOperand},
    // Subgroup operations over the active invocations (KHR_shader_subgroup and friends).
    {spv::OpGroupNonUniformElect, kCross, kNoScope},
    {spv::OpGroupNonUniformAll, kCross, kNoScope},
    {spv::OpGroupNonUniformAny, kCross, kNoScope},
    {spv::OpGroupNonUniformAllEqual, kCross, kNoScope},
    {spv::OpGroupNonUniformBroadcast, kCross, kNoScope},
    {spv::OpGroupNonUniformBroadcastFirst, kCross, kNoScope},
    {spv::OpGroupNonUniformBallot, kCross, kNoScope},
    {spv::OpGroupNonUniformShuffle, kCross, kNoScope},
    {spv::OpGroupNonUniformShuffleXor, kCross, kNoScope},
    {spv::OpGroupNonUniformShuffleUp, kCross, kNoScope},
    {spv::OpGroupNonUniformShuffleDown, kCross, kNoScope},
    {spv::OpGroupNonUniformIAdd, kCross, kNoScope},
    {spv::OpGroupNonUniformFAdd, kCross, kNoScope},
    {spv::OpGroupNonUniformIMul, kCross, kNoScope},
    {spv::OpGroupNonUniformFMul, kCross, kNoScope},
    {spv::OpGroupNonUniformSMin, kCross, kNoScope},
    {spv::OpGroupNonUniformUMin, kCross, kNoScope},
    {spv::OpGroupNonUniformFMin, kCross, kNoScope},
    {spv::OpGroupNonUniformSMax, kCross, kNoScope},
    {spv::OpGroupNonUniformUMax, kCross, kNoScope},
    {spv::OpGroupNonUniformFMax, kCross, kNoScope},
    {spv::OpGroupNonUniformBitwiseAnd, kCross, kNoScope},
    {spv::OpGroupNonUniformBitwiseOr, kCross, kNoScope},
    {spv::OpGroupNonUniformBitwiseXor, kCross, kNoScope},
    {spv::OpGroupNonUniformLogicalAnd, kCross, kNoScope},
    {spv::OpGroupNonUniformLogicalOr, kCross, kNoScope},
    {spv::OpGroupNonUniformLogicalXor, kCross, kNoScope},
    {spv::OpGroupNonUniformQuadBroadcast, kCross, kNoScope},
    {spv::OpGroupNonUniformQuadSwap, kCross, kNoScope},
    {spv::OpGroupNonUniformPartitionNV, kCross, kNoScope},
    {spv::OpGroupNonUniformRotateKHR, kCross, kNoScope},
    // ARB_shader_ballot / ARB_shader_group_vote (SPV_KHR_shader_ballot, _subgroup_vote).
    {spv::OpSubgroupBallotKHR, kCross, kNoScope},
    {spv::OpSubgroupFirstInvocationKHR, kCross, kNoScope},
    {spv::OpSubgroupAllKHR, kCross, kNoScope},
    {spv::OpSubgroupAnyKHR, kCross, kNoScope},
    {spv::OpSubgroupAllEqualKHR, kCross, kNoScope},
    {spv::OpSubgroupReadInvocationKHR, kCross, kNoScope},
    // AMD_shader_ballot reductions over the active invocations.
    {spv::OpGroupIAddNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupFAddNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupFMinNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupUMinNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupSMinNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupFMaxNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupUMaxNonUniformAMD, kCross, kNoScope},
    {spv::OpGroupSMaxNonUniformAMD, kCross, kNoScope},
    // INTEL subgroups: shuffles read other invocations; block reads/writes are performed
    // by the whole subgroup together.
    {spv::OpSubgroupShuffleINTEL, kCross, kNoScope},
    {spv::OpSubgroupShuffleDownINTEL, kCross, kNoScope},
    {spv::OpSubgroupShuffleUpINTEL, kCross, kNoScope},
    {spv::OpSubgroupShuffleXorINTEL, kCross, kNoScope},
    {spv::OpSubgroupBlockReadINTEL, kUniformCross, kSubgroup},
    {spv::OpSubgroupBlockWriteINTEL, kUniformCross, kSubgroup},
    {spv::OpSubgroupImageBlockReadINTEL, kUniformCross, kSubgroup},
    {spv::OpSubgroupImageBlockWriteINTEL, kUniformCross, kSubgroup},
    {spv::OpSubgroupImageMediaBlockReadINTEL, kUniformCross, kSubgroup},
    {spv::OpSubgroupImageMediaBlockWriteINTEL, kUniformCross, kSubgroup},
    // NV cooperative matrices are spread over the subgroup: it must act together.
    {spv::OpCooperativeMatrixLoadNV, kUniformCross, kSubgroup},
    {spv::OpCooperativeMatrixStoreNV, kUniformCross, kSubgroup},
    {spv::OpCooperativeMatrixMulAddNV, kUniformCross, kSubgroup},
    // Must be executed once, in uniform control flow, by the whole invocation group.
    {spv::OpBeginInvocationInterlockEXT, kUniform, kGroup},
    {spv::OpEndInvocationInterlockEXT, kUniform, kGroup},
    {spv::OpSetMeshOutputsEXT, kUniform, kGroup},
    {spv::OpEmitMeshTasksEXT, kUniform, kGroup},
};

using OpcodeTable = std::unordered_map<uint32_t, OpcodeConvergence>;

// Builds the lookup once. A duplicate row is a table bug: the later row is dropped and
// the test of completeness (which walks the rows too) reports it.
const OpcodeTable& Table() {
  static const OpcodeTable table = [] {
    OpcodeTable rows;
    for (spv::Op op : kLocalOpcodes) rows.emplace(op, OpcodeConvergence{kNotConvergent, kNoScope});
    for (spv::Op op : kSubgroupAvcOpcodes) rows.emplace(op, OpcodeConvergence{kCross, kNoScope});
    for (const SpecialRow& row : kSpecialOpcodes)
      rows.emplace(row.opcode, OpcodeConvergence{row.flags, row.scope});
    return rows;
  }();
  return table;
}

constexpr uint32_t kScopeSubgroup = 3;  // spv::ScopeSubgroup
constexpr uint32_t kScopeInvocation = 4;

// AMD_shader_ballot extended instructions: SwizzleInvocationsAMD (1),
// SwizzleInvocationsMaskedAMD (2), WriteInvocationAMD (3) read other invocations;
// MbcntAMD (4) only counts bits of a mask.
bool IsCrossThreadAmdBallot(uint32_t instruction) { return instruction >= 1 && instruction <= 3; }

bool HasExplicitLod(const Instruction& inst) {
  // OpImageSampleFootprintNV: sampled image, coordinate, granularity, coarse, [operands].
  ImageAccessView footprint(inst);
  if (!footprint.has_image_operands()) return false;
  uint32_t mask = footprint.image_operands();
  return (mask & (spv::ImageOperandsLodMask | spv::ImageOperandsGradMask)) != 0;
}

}  // namespace

namespace {

// The table by opcode, laid out once: every analysis asks it of every instruction.
const std::vector<std::optional<OpcodeConvergence>>& RowsByOpcode() {
  static const std::vector<std::optional<OpcodeConvergence>> kByOpcode = [] {
    std::vector<std::optional<OpcodeConvergence>> rows;
    for (const auto& [op, row] : Table()) {
      if (rows.size() <= op) rows.resize(op + 1);
      rows[op] = row;
    }
    return rows;
  }();
  return kByOpcode;
}

// The table row of an instruction whose opcode alone decides its classes (all but
// OpExtInst, OpImageSampleFootprintNV and opcodes without a row), else null.
// Its answers are laid out once by opcode (null for those three cases), as every
// analysis asks it of every instruction (SPIRV/ir/opcode_table.h).
std::vector<const OpcodeConvergence*> MakeDecidingRows() {
  const std::vector<std::optional<OpcodeConvergence>>& rows = RowsByOpcode();
  std::vector<const OpcodeConvergence*> by_opcode(rows.size(), nullptr);
  for (size_t opcode = 0; opcode < rows.size(); ++opcode)
    if (rows[opcode] && opcode != spv::OpExtInst && opcode != spv::OpImageSampleFootprintNV)
      by_opcode[opcode] = &*rows[opcode];  // the rows never change: stable addresses
  return by_opcode;
}

const OpcodeConvergence* RowDecides(const Instruction& inst) {
  return LazyOpcodeTable<const OpcodeConvergence*, &MakeDecidingRows>::At(inst.opcode);
}

}  // namespace

std::optional<OpcodeConvergence> ClassifyOpcode(uint32_t opcode) {
  const std::vector<std::optional<OpcodeConvergence>>& rows = RowsByOpcode();
  return opcode < rows.size() ? rows[opcode] : std::nullopt;
}

std::vector<uint32_t> ConvergenceTableOpcodes() {
  std::vector<uint32_t> opcodes;
  for (spv::Op op : kLocalOpcodes) opcodes.push_back(op);
  for (spv::Op op : kSubgroupAvcOpcodes) opcodes.push_back(op);
  for (const SpecialRow& row : kSpecialOpcodes) opcodes.push_back(row.opcode);
  return opcodes;
}

std::string ConvergenceFlagsText(ConvergenceFlags flags) {
  std::string text;
  auto add = [&](ConvergenceFlags bit, const char* name) {
    if (!(flags & bit)) return;
    if (!text.empty()) text += " ";
    text += name;
  };
  add(kConvergent, "convergent");
  add(kCrossThread, "cross-thread");
  add(kUniformControl, "uniform-control");
  return text.empty() ? "none" : text;
}

ConvergenceClasses::ConvergenceClasses(const Module& module) : module_(module) {
  for (const Instruction& import : module.ext_inst_imports) {
    std::string name = import.StringAt(0);
    ExtInstSet kind = ExtInstSet::kUnclassified;
    if (name == "GLSL.std.450" || name.rfind("NonSemantic.", 0) == 0 ||
        name == "SPV_AMD_shader_trinary_minmax" || name == "SPV_AMD_gcn_shader" ||
        name == "SPV_AMD_shader_explicit_vertex_parameter")
      kind = ExtInstSet::kNotConvergent;
    else if (name == "SPV_AMD_shader_ballot")
      kind = ExtInstSet::kAmdBallot;
    ext_inst_sets_[import.result_id] = ImportedSet{std::move(name), kind};
  }
  for (const Instruction& inst : module.types_values)
    if (inst.opcode == spv::OpConstant && inst.words.size() == 1)
      constants_.emplace_back(inst.result_id, ConstantView(inst).value32());
  // Ids rise in module order as glslang writes them; sorted (stably) in case they do not.
  std::stable_sort(constants_.begin(), constants_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  SummarizeFunctions();
}

ConvergenceFlags ConvergenceClasses::ClassifyExtInst(const Instruction& inst,
                                                     std::string* error) const {
  auto set = ext_inst_sets_.find(inst.words.empty() ? 0 : ExtInstView(inst).set());
  if (set == ext_inst_sets_.end()) {
    *error = "OpExtInst %" + std::to_string(inst.result_id) + " uses no imported set";
    return kCross;
  }
  switch (set->second.kind) {
    case ExtInstSet::kNotConvergent:
      return kNotConvergent;
    case ExtInstSet::kAmdBallot:
      return inst.words.size() > 1 && IsCrossThreadAmdBallot(ExtInstView(inst).instruction_number())
                 ? kCross
                 : kNotConvergent;
    case ExtInstSet::kUnclassified:
      break;
  }
  *error = "extended instruction set \"" + set->second.name + "\" is not classified";
  return kCross;  // unknown: the most restrictive answer, and ok() is false
}

ConvergenceFlags ConvergenceClasses::ClassifyLocally(const Instruction& inst,
                                                     std::string* error) const {
  if (inst.opcode == spv::OpExtInst) return ClassifyExtInst(inst, error);
  std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
  if (!row) {
    *error = std::string(grammar::OpcodeName(inst.opcode)) + " has no convergence class";
    return kCross;  // the most restrictive answer, and ok() is false
  }
  if (inst.opcode == spv::OpImageSampleFootprintNV && HasExplicitLod(inst)) return kNotConvergent;
  return row->flags;
}

// Each function's own instructions, then the union over callees until nothing changes.
// Call graphs of shaders are acyclic; the round limit (one round per function, plus
// one) also ends a recursive module, whose summary is then still a sound union.
void ConvergenceClasses::SummarizeFunctions() {
  std::unordered_map<uint32_t, std::vector<uint32_t>> callees;
  std::string problem;
  for (const Function& function : module_.functions) {
    ConvergenceFlags& flags = function_flags_[function.id()];
    for (const Block& block : function.blocks)
      for (const Instruction& inst : block.instructions) {
        if (inst.opcode == spv::OpFunctionCall && !inst.words.empty()) {
          callees[function.id()].push_back(FunctionCallView(inst).callee());
          continue;
        }
        if (const OpcodeConvergence* row = RowDecides(inst)) {  // most instructions
          flags |= row->flags;
          continue;
        }
        flags |= ClassifyLocally(inst, &problem);
        if (error_.empty() && !problem.empty()) error_ = problem;
      }
  }
  for (size_t round = 0; round <= module_.functions.size(); ++round) {
    bool changed = false;
    for (auto& [caller, called] : callees)
      for (uint32_t callee : called) {
        ConvergenceFlags merged = function_flags_[caller] | function_flags_[callee];
        changed |= merged != function_flags_[caller];
        function_flags_[caller] = merged;
      }
    if (!changed) return;
  }
}

ConvergenceFlags ConvergenceClasses::Of(const Instruction& inst) const {
  if (inst.opcode == spv::OpFunctionCall)
    return inst.words.empty() ? kNotConvergent : OfFunction(FunctionCallView(inst).callee());
  // Asked of every instruction by every analysis: the table row directly where the
  // opcode alone decides (what ClassifyLocally answers for it).
  if (const OpcodeConvergence* row = RowDecides(inst)) return row->flags;
  std::string ignored;  // the constructor reported unclassified instructions
  return ClassifyLocally(inst, &ignored);
}

bool ConvergenceClasses::IsAmdBallotSet(uint32_t import) const {
  auto set = ext_inst_sets_.find(import);
  return set != ext_inst_sets_.end() && set->second.kind == ExtInstSet::kAmdBallot;
}

ConvergenceFlags ConvergenceClasses::OfFunction(uint32_t function_id) const {
  auto it = function_flags_.find(function_id);
  return it == function_flags_.end() ? kNotConvergent : it->second;
}

UniformScope ConvergenceClasses::RequiredScope(const Instruction& inst) const {
  if (inst.opcode == spv::OpFunctionCall || !(Of(inst) & kUniformControl))
    return UniformScope::kNone;
  std::optional<OpcodeConvergence> row = ClassifyOpcode(inst.opcode);
  if (!row || row->scope != UniformScope::kExecutionOperand)
    return row ? row->scope : UniformScope::kNone;
  // Every kExecutionOperand row's first operand is its execution scope (convergence_test).
  const uint32_t scope_id = inst.words.empty() ? 0 : ExecutionScopedView(inst).execution_scope();
  // The last definition of the id counts (an id defined twice: an invalid module).
  auto after = std::upper_bound(constants_.begin(), constants_.end(), scope_id,
                                [](uint32_t id, const auto& entry) { return id < entry.first; });
  // A scope that is not a known constant is treated as the widest one.
  if (after == constants_.begin() || std::prev(after)->first != scope_id)
    return UniformScope::kInvocationGroup;
  auto scope = std::prev(after);
  if (scope->second == kScopeInvocation) return UniformScope::kNone;
  if (scope->second == kScopeSubgroup) return UniformScope::kSubgroup;
  return UniformScope::kInvocationGroup;  // CrossDevice, Device, Workgroup, QueueFamily
}

}  // namespace glint::spirv
