// The byte encoding Glint's helper processes speak over pipes and socket pairs: a
// writer and a reader of fixed-width integers, strings and word arrays in the host's
// byte order (both ends are the same build on the same machine), and whole-message
// I/O on a file descriptor with a 4-byte magic and a 4-byte length in front.
//
// Refuses: a reader never reads past its buffer (every getter reports failure instead,
// and the reader stays failed); ReadMessage refuses a wrong magic or version, then a
// length over the caller's bound, before allocating; reads and writes take a deadline.
// Writes never raise SIGPIPE (send with MSG_NOSIGNAL on sockets; on a pipe the caller
// ignores SIGPIPE or owns the reading end).
#ifndef GLINT_GLSLANG_WORKER_WIRE_FORMAT_H
#define GLINT_GLSLANG_WORKER_WIRE_FORMAT_H

#include <cstdint>
#include <string>
#include <vector>

namespace glint::wire {

class Writer {
 public:
  void U8(uint8_t value) { bytes_.push_back(static_cast<char>(value)); }
  void U32(uint32_t value) { Raw(&value, sizeof value); }
  void U64(uint64_t value) { Raw(&value, sizeof value); }
  void I64(int64_t value) { Raw(&value, sizeof value); }
  void String(const std::string& text);
  void Words(const std::vector<uint32_t>& words);
  const std::string& bytes() const { return bytes_; }

 private:
  void Raw(const void* data, size_t size);
  std::string bytes_;
};

class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  bool U8(uint8_t* value) { return Raw(value, sizeof *value); }
  bool U32(uint32_t* value) { return Raw(value, sizeof *value); }
  bool U64(uint64_t* value) { return Raw(value, sizeof *value); }
  bool I64(int64_t* value) { return Raw(value, sizeof *value); }
  bool Bool(bool* value);
  bool String(std::string* text);
  bool Words(std::vector<uint32_t>* words);
  // True when every read succeeded and the whole buffer was consumed.
  bool Done() const { return ok_ && at_ == bytes_.size(); }
  bool ok() const { return ok_; }

 private:
  bool Raw(void* data, size_t size);
  const std::string& bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

// Every message starts with a 12-byte header: the sender's magic, kWireVersion, and the
// payload's length. A reader checks them in that order, each before reading the next
// word: a wrong magic or version is refused before the length is even read, and a
// length over the caller's bound before any allocation; the payload buffer then grows
// only with the bytes that actually arrive, so a peer that announces much and sends
// little costs what it sent.
constexpr uint32_t kWireVersion = 4;

// Writes the header and `payload`. `deadline_ms` is an absolute CLOCK_MONOTONIC time in
// milliseconds (0: none): a peer that stops reading makes this return false at the
// deadline instead of blocking. False when the descriptor fails, closes or the deadline
// passes (NowMs() tells which).
bool WriteMessage(int fd, uint32_t magic, const std::string& payload, uint64_t deadline_ms = 0);

// Reads one message whose magic is `magic` into `payload`. Returns kOk, kEof (closed
// before the first byte), kTimeout (the deadline, as for WriteMessage), or kBad (another
// magic, another version, over `max_bytes`, closed mid-message, read error).
enum class ReadStatus { kOk, kEof, kTimeout, kBad };
ReadStatus ReadMessage(int fd, uint32_t magic, uint32_t max_bytes, uint64_t deadline_ms,
                       std::string* payload);

// ReadMessage for a reader that accepts several kinds: any magic in `magics`, stored in
// `magic`. An empty list accepts any magic (the version is checked all the same). On
// kBad, `why` (when given) says which rule the peer broke, e.g. "a message of unknown
// magic 0x04030201" or "the connection closed in the middle of a message".
ReadStatus ReadAnyMessage(int fd, uint32_t max_bytes, uint64_t deadline_ms, uint32_t* magic,
                          std::string* payload, std::vector<uint32_t> magics = {},
                          std::string* why = nullptr);

// CLOCK_MONOTONIC now, in milliseconds.
uint64_t NowMs();

}  // namespace glint::wire

#endif  // GLINT_GLSLANG_WORKER_WIRE_FORMAT_H
