// The messages between the host (warm_worker.cpp: glint_compile_isolated, glint_worker_*,
// glint::CompileGlslIsolated) and the glint-compile worker.
//
// A worker serves compiles one after another for as long as its host keeps the socket
// open. Per compile: the host writes one Request; the worker may ask IncludeQuery
// messages, each answered by one IncludeAnswer (includes are resolved in the host, by
// the very includer glint_compile uses in-process: the embedder's callback, then the
// directories); the worker ends the compile with one Response. Each message is framed
// by wire::WriteMessage with its own magic and the wire version; every length is
// bounded below, before any allocation, and a decoder refuses anything malformed, out
// of range (stages, enums) or with bytes left over, so a worker that died mid-write (or
// a hostile one) can only produce "no answer", never a half-read report.
#ifndef GLINT_GLSLANG_WORKER_WORKER_PROTOCOL_H
#define GLINT_GLSLANG_WORKER_WORKER_PROTOCOL_H

#include <cstdint>
#include <string>
#include <vector>

#include "glint/glint.h"
#include "glslang/api/c_api_internal.h"

namespace glint::worker {

constexpr uint32_t kRequestMagic = 0x32515247;        // "GRQ2"
constexpr uint32_t kResponseMagic = 0x32535247;       // "GRS2"
constexpr uint32_t kIncludeQueryMagic = 0x31514947;   // "GIQ1"
constexpr uint32_t kIncludeAnswerMagic = 0x31414947;  // "GIA1"

// Bounds, checked against each header before anything is allocated. A request holds
// one source (its includes travel one answer each); a response one module (the IR's
// limit, spirv::kMaxModuleWords: 32 MiB) and its report; an include answer one file.
// They follow the input limits: 64 MiB per source (sources and includes), 256 MiB of
// sources per compile, 32 MiB per module.
constexpr uint32_t kMaxSourceBytes = 64u << 20;
constexpr uint32_t kMaxRequestBytes = kMaxSourceBytes + (16u << 20);       // + names, options
constexpr uint32_t kMaxResponseBytes = (32u << 20) + (96u << 20);          // module + report
constexpr uint32_t kMaxIncludeQueryBytes = 1u << 20;                       // two names
constexpr uint32_t kMaxIncludeAnswerBytes = kMaxSourceBytes + (1u << 20);  // a file + its name

// The worker's exit status when an allocation fails under its memory limit: its
// new-handler exits at once (glslang's state after a failed allocation is not trusted
// with the next compile), and the host names the budget.
constexpr int kMemoryBudgetExit = 97;

struct Request {
  glint_input_s input;  // callback and user_data stay in the host: has_include_callback
  Options options;
  uint64_t memory_limit_bytes = 0;  // RLIMIT_AS; 0: none
  uint32_t cpu_limit_seconds = 0;   // CPU this compile may use; 0: no limit
};

struct Response {
  bool succeeded = false;
  std::vector<uint32_t> words;
  Report report;
};

struct IncludeQuery {
  bool system = false;  // includeSystem (#include <x>, or the retry of an unresolved "x")
  std::string header;
  std::string includer;
  uint64_t depth = 0;
};

struct IncludeAnswer {
  enum class Kind : uint8_t { kNotFound, kFound, kRefused } kind = Kind::kNotFound;
  std::string name;     // kFound: the resolved name
  std::string content;  // kFound: the text; kRefused: why (glslang prints it)
};

std::string EncodeRequest(const Request& request);
bool DecodeRequest(const std::string& bytes, Request* request);
std::string EncodeResponse(const Response& response);
bool DecodeResponse(const std::string& bytes, Response* response);
std::string EncodeIncludeQuery(const IncludeQuery& query);
bool DecodeIncludeQuery(const std::string& bytes, IncludeQuery* query);
std::string EncodeIncludeAnswer(const IncludeAnswer& answer);
bool DecodeIncludeAnswer(const std::string& bytes, IncludeAnswer* answer);

}  // namespace glint::worker

#endif  // GLINT_GLSLANG_WORKER_WORKER_PROTOCOL_H
