// Checks that the uniformity findings computed from the facts they can depend on
// (SPIRV/analysis/uniformity/uniformity_relevance.cpp) are those computed from every fact: used by
// the relevance suite on its own shaders and by the corpus suite on every corpus shader.
#ifndef GLINT_GTESTS_SUPPORT_UNIFORMITY_RELEVANCE_CHECK_H
#define GLINT_GTESTS_SUPPORT_UNIFORMITY_RELEVANCE_CHECK_H

#include <string>

#include "SPIRV/ir/module.h"

namespace glint::test {

// Runs the uniformity analysis of `module` twice, computing the relevant facts and every
// fact, and compares refusals and findings field by field (instruction, entry point,
// location, message, reasons with their locations, rule, triggers). Empty when they
// agree; else the first difference. *findings (optional) receives the number of findings.
std::string CompareRelevantFindings(spirv::Module& module, size_t* findings = nullptr);

}  // namespace glint::test

#endif  // GLINT_GTESTS_SUPPORT_UNIFORMITY_RELEVANCE_CHECK_H
