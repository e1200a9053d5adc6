// The messages between glint::CompileGlslIsolated and the glint-compile worker.
//
// One exchange per worker: the caller writes one Request message, the worker answers
// with one Response message and exits. Both are wire::Writer encodings framed by
// wire::WriteMessage with their own magic; a decoder refuses anything malformed, out
// of range (stages, enums) or with bytes left over, so a worker that died mid-write
// (or a hostile one) can only produce "no answer", never a half-read report.
#ifndef GLINT_GLSLANG_WORKER_PROTOCOL_H
#define GLINT_GLSLANG_WORKER_PROTOCOL_H

#include <cstdint>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "glint/isolated.h"

namespace glint::worker {

constexpr uint32_t kRequestMagic = 0x31515247;   // "GRQ1"
constexpr uint32_t kResponseMagic = 0x31535247;  // "GRS1"
constexpr uint32_t kMaxRequestBytes = 256u << 20;
constexpr uint32_t kMaxResponseBytes = 1024u << 20;

struct Request {
  GlslInput input;
  Options options;
  uint64_t memory_limit_bytes = 0;  // RLIMIT_AS; 0: none
  uint32_t cpu_limit_seconds = 0;   // RLIMIT_CPU; 0: none
};

struct Response {
  bool succeeded = false;
  std::vector<uint32_t> words;
  Report report;
};

std::string EncodeRequest(const Request& request);
bool DecodeRequest(const std::string& bytes, Request* request);

std::string EncodeResponse(const Response& response);
bool DecodeResponse(const std::string& bytes, Response* response);

}  // namespace glint::worker

#endif  // GLINT_GLSLANG_WORKER_PROTOCOL_H
