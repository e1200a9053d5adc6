#include "wire_format.h"

#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
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

// send() on a socket never raises SIGPIPE; a pipe (ENOTSOCK) falls back to write().
ssize_t WriteSome(int fd, const char* data, size_t size) {
  ssize_t written = send(fd, data, size, MSG_NOSIGNAL);
  if (written < 0 && errno == ENOTSOCK) written = write(fd, data, size);
  return written;
}

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t written = WriteSome(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

// Waits until `fd` is readable or the deadline passes (0: no deadline).
bool WaitReadable(int fd, uint64_t deadline_ms) {
  for (;;) {
    int timeout = -1;
    if (deadline_ms) {
      uint64_t now = NowMs();
      if (now >= deadline_ms) return false;
      timeout = static_cast<int>(deadline_ms - now);
    }
    pollfd entry{fd, POLLIN, 0};
    int ready = poll(&entry, 1, timeout);
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return true;  // let read() report the error
  }
}

// Reads exactly `size` bytes. 1: done, 0: closed before any byte, -1: error or closed
// midway, -2: deadline.
int ReadExactly(int fd, char* data, size_t size, uint64_t deadline_ms) {
  size_t got = 0;
  while (got < size) {
    if (!WaitReadable(fd, deadline_ms)) return -2;
    ssize_t n = read(fd, data + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0 && got == 0) return 0;
    if (n <= 0) return -1;
    got += static_cast<size_t>(n);
  }
  return 1;
}

}  // namespace

bool WriteMessage(int fd, uint32_t magic, const std::string& payload) {
  uint32_t header[2] = {magic, static_cast<uint32_t>(payload.size())};
  if (payload.size() > UINT32_MAX) return false;
  return WriteAll(fd, reinterpret_cast<const char*>(header), sizeof header) &&
         WriteAll(fd, payload.data(), payload.size());
}

ReadStatus ReadAnyMessage(int fd, uint32_t max_bytes, uint64_t deadline_ms, uint32_t* magic,
                          std::string* payload) {
  uint32_t header[2] = {0, 0};
  int got = ReadExactly(fd, reinterpret_cast<char*>(header), sizeof header, deadline_ms);
  if (got == 0) return ReadStatus::kEof;
  if (got == -2) return ReadStatus::kTimeout;
  if (got < 0 || header[1] > max_bytes) return ReadStatus::kBad;
  *magic = header[0];
  payload->assign(header[1], '\0');
  got = ReadExactly(fd, payload->data(), payload->size(), deadline_ms);
  if (got == -2) return ReadStatus::kTimeout;
  if (got != 1 && !payload->empty()) return ReadStatus::kBad;
  return ReadStatus::kOk;
}

ReadStatus ReadMessage(int fd, uint32_t magic, uint32_t max_bytes, uint64_t deadline_ms,
                       std::string* payload) {
  uint32_t got = 0;
  ReadStatus status = ReadAnyMessage(fd, max_bytes, deadline_ms, &got, payload);
  if (status == ReadStatus::kOk && got != magic) return ReadStatus::kBad;
  return status;
}

}  // namespace glint::wire
