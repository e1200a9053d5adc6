// Lines forecast: before glslang generates SPIR-V, one walk over its syntax tree that
// says whether the passes are likely to report something at a source line.
//
// Why: findings name source lines, and glslang's module without line information has
// none. A compile that reports something then pays for a second code generation, with
// lines, only to read them (glslang/api/process.cpp). Generating with lines first and
// stripping them costs a little on every compile; generating twice costs much more on
// the compiles that report. The forecast picks the first path for the shaders likely
// to report and the second for the rest.
//
// What it proves: nothing. Both paths give byte-identical modules and reports, so a wrong
// forecast costs instructions, never output. It answers true when
// - (uniformity) some instruction the uniformity check judges (a derivative, an
//   implicit-LOD sample in a fragment shader or one with derivative groups, a control
//   barrier, a cooperative-matrix or SPIR-V 1.0 group operation, mesh outputs, the
//   invocation interlock) sits where control may have diverged: under a selection,
//   loop, switch or short circuit whose condition may differ between invocations, after
//   a return or discard taken there, in the rest of a loop after a break or continue
//   taken there, or in a function called from such a place (lines_forecast.cpp says how
//   values are judged); whether the check then agrees is its own job;
// - (constant tables) a constant array is indexed at run time: glslang copies it into a
//   Function variable, which hoist-constant-tables turns into a table it reports.
// The walk must cost far less than code generation: one pass in program order, no
// fixed point within a function.
#ifndef GLINT_GLSLANG_FRONT_END_LINES_FORECAST_H
#define GLINT_GLSLANG_FRONT_END_LINES_FORECAST_H

namespace glslang {
class TIntermediate;
}

namespace glint {

// Which passes that report at source lines will run.
struct LinesForecastPasses {
  bool uniformity = true;
  bool constant_tables = true;
};

// True when a pass of `passes` is likely to report at a source line on `intermediate`
// (see the file comment); false for an empty tree.
bool LinesLikelyAsked(const glslang::TIntermediate& intermediate,
                      const LinesForecastPasses& passes);

}  // namespace glint

#endif  // GLINT_GLSLANG_FRONT_END_LINES_FORECAST_H
