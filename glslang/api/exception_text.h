// The error text for an exception that ended a compile. Running out of memory is a
// limit, not a bug: it says so, where "internal error: std::bad_alloc" blamed Glint.
#ifndef GLINT_GLSLANG_API_EXCEPTION_TEXT_H
#define GLINT_GLSLANG_API_EXCEPTION_TEXT_H

#include <exception>
#include <new>
#include <string>

namespace glint::capi {

inline std::string ExceptionText(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return "out of memory: the compile needed more memory than this process may allocate "
           "(std::bad_alloc; an isolated compile names its memory budget)";
  return std::string("internal error: ") + e.what();
}

}  // namespace glint::capi

#endif  // GLINT_GLSLANG_API_EXCEPTION_TEXT_H
