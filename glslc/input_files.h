// Reading glslc's inputs (sources, limits files, includes): a whole file, or all of
// standard input for "-", and glslc's reason when it cannot be read.
#ifndef GLINT_GLSLC_INPUT_FILES_H
#define GLINT_GLSLC_INPUT_FILES_H

#include <string>

namespace glint::glslc {

// Reads `path` ("-": standard input) whole into `text`. On failure `why` gets what glslc
// appends to "cannot open input file: 'PATH'": ": " and the system's reason when the file
// cannot be read at all (": No such file or directory"), else nothing.
bool ReadInputFile(const std::string& path, std::string* text, std::string* why);

// What glslc calls the input in messages and #line directives: the path as given, or
// "<stdin>" for "-".
std::string DisplayName(const std::string& path);

}  // namespace glint::glslc

#endif  // GLINT_GLSLC_INPUT_FILES_H
