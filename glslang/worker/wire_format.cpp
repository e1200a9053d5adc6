#include "glslang/worker/wire_format.h"

#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

namespace glint::wire {

void Writer::Raw(const void* data, size_t size) {
  bytes_.append(static_cast<const char*>(data), size);
}

void Writer::String(const std::string& text) {
  U32(static_cast<uint32_t>(text.size()));
  bytes_ += text;
}

void Writer::Words(const std::vector<uint32_t>& words) {
  U32(static_cast<uint32_t>(words.size()));
  Raw(words.data(), words.size() * sizeof(uint32_t));
}

bool Reader::Raw(void* data, size_t size) {
  if (!ok_ || bytes_.size() - at_ < size) return ok_ = false;
  // An empty word array has no storage (data() is null), and memcpy's pointers must
  // not be null even for zero bytes (UBSan: "null pointer passed as argument 1").
  if (size != 0) std::memcpy(data, bytes_.data() + at_, size);
  at_ += size;
  return true;
}

bool Reader::Bool(bool* value) {
  uint8_t byte = 0;
  if (!U8(&byte) || byte > 1) return ok_ = false;
  *value = byte == 1;
  return true;
}

bool Reader::String(std::string* text) {
  uint32_t size = 0;
  if (!U32(&size) || bytes_.size() - at_ < size) return ok_ = false;
  text->assign(bytes_, at_, size);
  at_ += size;
  return true;
}

bool Reader::Words(std::vector<uint32_t>* words) {
  uint32_t count = 0;
  if (!U32(&count) || (bytes_.size() - at_) / sizeof(uint32_t) < count) return ok_ = false;
  words->resize(count);
  return Raw(words->data(), count * sizeof(uint32_t));
}

uint64_t NowMs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000 + static_cast<uint64_t>(now.tv_nsec) / 1000000;
}

namespace {

// Milliseconds left until `deadline_ms` for poll(): -1 for no deadline, 0 when passed.
int PollTimeout(uint64_t deadline_ms) {
  if (!deadline_ms) return -1;
  uint64_t now = NowMs();
  return now >= deadline_ms ? 0 : static_cast<int>(std::min<uint64_t>(deadline_ms - now, 1u << 30));
}

// Waits until `fd` is ready for `events` or the deadline passes (0: no deadline).
bool WaitReady(int fd, short events, uint64_t deadline_ms) {
  for (;;) {
    int timeout = PollTimeout(deadline_ms);
    if (timeout == 0 && deadline_ms) return false;
    pollfd entry{fd, events, 0};
    int ready = poll(&entry, 1, timeout);
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return true;  // let read()/send() report the error
  }
}

// A socket is first tried without waiting (MSG_DONTWAIT never blocks) and polled only
// when full: one system call per message where there is room, which is the common case
// (a warm worker's compiles are a few hundred microseconds; each call counts). A pipe
// (ENOTSOCK) is polled before each write and given at most PIPE_BUF bytes, which a
// writable pipe takes whole without blocking.
bool WriteAll(int fd, const char* data, size_t size, uint64_t deadline_ms) {
  bool pipe = false, poll_first = false;
  while (size > 0) {
    if (poll_first && !WaitReady(fd, POLLOUT, deadline_ms)) return false;
    ssize_t written = pipe ? write(fd, data, std::min<size_t>(size, PIPE_BUF))
                           : send(fd, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    poll_first = true;
    if (written < 0 && errno == ENOTSOCK && !pipe) {
      pipe = true;
      continue;
    }
    if (written < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

constexpr size_t kOneWriteBytes = 1u << 20;

enum class Got { kDone, kClosedAtStart, kBroken, kTimeout };

// Appends exactly `size` bytes to `out`, growing it as they arrive.
Got ReadExactly(int fd, size_t size, uint64_t deadline_ms, std::string* out) {
  char buffer[65536];
  size_t got = 0;
  // Without a deadline, read() waits by itself (poll only for a descriptor that does
  // not block); with one, poll first so that a silent peer cannot outlast it.
  bool poll_first = deadline_ms != 0;
  while (got < size) {
    if (poll_first && !WaitReady(fd, POLLIN, deadline_ms)) return Got::kTimeout;
    ssize_t n = read(fd, buffer, std::min(sizeof buffer, size - got));
    poll_first = deadline_ms != 0 || (n < 0 && errno == EAGAIN);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n == 0 && got == 0) return Got::kClosedAtStart;
    if (n <= 0) return Got::kBroken;
    out->append(buffer, static_cast<size_t>(n));
    got += static_cast<size_t>(n);
  }
  return Got::kDone;
}

constexpr const char* kClosedMidMessage = "the connection closed in the middle of a message";

// kBad, with `text` in *why when the caller asked.
ReadStatus Bad(std::string* why, const std::string& text) {
  if (why) *why = text;
  return ReadStatus::kBad;
}

std::string Hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

// One header word; kOk, or what ReadAnyMessage returns for it.
ReadStatus ReadWord(int fd, uint64_t deadline_ms, bool first, uint32_t* word, std::string* why) {
  std::string bytes;
  switch (ReadExactly(fd, sizeof *word, deadline_ms, &bytes)) {
    case Got::kDone:
      std::memcpy(word, bytes.data(), sizeof *word);
      return ReadStatus::kOk;
    case Got::kClosedAtStart:
      return first ? ReadStatus::kEof : Bad(why, kClosedMidMessage);
    case Got::kTimeout:
      return ReadStatus::kTimeout;
    case Got::kBroken:
      break;
  }
  return Bad(why, kClosedMidMessage);
}

bool Accepts(const std::vector<uint32_t>& magics, uint32_t magic) {
  return magics.empty() || std::find(magics.begin(), magics.end(), magic) != magics.end();
}

}  // namespace

bool WriteMessage(int fd, uint32_t magic, const std::string& payload, uint64_t deadline_ms) {
  if (payload.size() > UINT32_MAX) return false;
  uint32_t header[3] = {magic, kWireVersion, static_cast<uint32_t>(payload.size())};
  const char* header_bytes = reinterpret_cast<const char*>(header);
  // A small message (a warm worker's usual request and response) is written in one
  // call; a large one in two, rather than copied whole (sources may be 256 MiB).
  if (payload.size() <= kOneWriteBytes) {
    std::string message(header_bytes, sizeof header);
    message += payload;
    return WriteAll(fd, message.data(), message.size(), deadline_ms);
  }
  return WriteAll(fd, header_bytes, sizeof header, deadline_ms) &&
         WriteAll(fd, payload.data(), payload.size(), deadline_ms);
}

ReadStatus ReadAnyMessage(int fd, uint32_t max_bytes, uint64_t deadline_ms, uint32_t* magic,
                          std::string* payload, std::vector<uint32_t> magics, std::string* why) {
  uint32_t version = 0, length = 0;
  ReadStatus status = ReadWord(fd, deadline_ms, true, magic, why);
  if (status != ReadStatus::kOk) return status;
  if (!Accepts(magics, *magic)) return Bad(why, "a message of unknown magic " + Hex(*magic));
  if ((status = ReadWord(fd, deadline_ms, false, &version, why)) != ReadStatus::kOk) return status;
  if (version != kWireVersion)
    return Bad(why,
               "wire version " + std::to_string(version) + ", not " + std::to_string(kWireVersion));
  if ((status = ReadWord(fd, deadline_ms, false, &length, why)) != ReadStatus::kOk) return status;
  if (length > max_bytes)
    return Bad(why, "a message of " + std::to_string(length) + " bytes, over the bound of " +
                        std::to_string(max_bytes));
  payload->clear();
  switch (ReadExactly(fd, length, deadline_ms, payload)) {
    case Got::kDone:
      return ReadStatus::kOk;
    case Got::kTimeout:
      return ReadStatus::kTimeout;
    default:
      return Bad(why, kClosedMidMessage);
  }
}

ReadStatus ReadMessage(int fd, uint32_t magic, uint32_t max_bytes, uint64_t deadline_ms,
                       std::string* payload) {
  uint32_t got = 0;
  return ReadAnyMessage(fd, max_bytes, deadline_ms, &got, payload, {magic});
}

}  // namespace glint::wire
