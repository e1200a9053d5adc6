#include "output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace glint::output {
namespace {

constexpr int kMaxSymlinkHops = 40;       // the kernel's own limit before ELOOP
constexpr long kProcSuperMagic = 0x9fa0;  // statfs f_type of /proc
constexpr int kTemporaryNameAttempts = 100;

// What the path names once symlinks are followed.
struct Target {
  std::string path;  // the file to write
  bool exists = false;
  bool in_place = false;    // not a regular file (device, FIFO, /proc fd link): write it directly
  struct stat status = {};  // valid when `exists`
  int error = 0;            // errno of a failed lookup, 0 when the lookup succeeded
};

std::string Dirname(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// /proc's fd links (behind /dev/stdout and /dev/fd/N) name open files, not paths: they
// must be opened as they are, never resolved and replaced.
bool InProcfs(const std::string& directory) {
  struct statfs fs;
  return statfs(directory.c_str(), &fs) == 0 && fs.f_type == kProcSuperMagic;
}

bool ReadLink(const std::string& path, std::string* target) {
  std::string buffer(256, '\0');
  for (;;) {
    ssize_t length = readlink(path.c_str(), buffer.data(), buffer.size());
    if (length < 0) return false;
    if (static_cast<size_t>(length) < buffer.size())
      return void(*target = buffer.substr(0, length)), true;
    buffer.resize(buffer.size() * 2);
  }
}

// Follows the symlinks of the last path component (a symlinked directory on the way
// needs nothing: the temporary is created in the same real directory).
Target Resolve(std::string path) {
  Target target;
  for (int hop = 0;; ++hop) {
    target.path = path;
    struct stat status;
    if (lstat(path.c_str(), &status) != 0) {
      target.error = errno == ENOENT ? 0 : errno;
      return target;
    }
    if (!S_ISLNK(status.st_mode)) {
      target.exists = true;
      target.status = status;
      target.in_place = !S_ISREG(status.st_mode) && !S_ISDIR(status.st_mode);
      return target;
    }
    if (InProcfs(Dirname(path))) {
      target.exists = target.in_place = true;
      return target;
    }
    std::string link;
    if (hop == kMaxSymlinkHops || !ReadLink(path, &link)) {
      target.error = hop == kMaxSymlinkHops ? ELOOP : errno;
      return target;
    }
    path = link.front() == '/' ? link : Dirname(path) + "/" + link;
  }
}

// 0 when every byte was written, else errno.
int WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t written = write(fd, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return written < 0 ? errno : EIO;
    bytes.remove_prefix(static_cast<size_t>(written));
  }
  return 0;
}

// 0 when the bytes were written and the descriptor closed cleanly, else errno; the
// descriptor is closed either way.
int WriteAndClose(int fd, std::string_view bytes) {
  int error = WriteAll(fd, bytes);
  if (close(fd) != 0 && error == 0) error = errno;
  return error;
}

WriteResult Failed(WriteFailure failure, int error) { return {failure, std::strerror(error)}; }

WriteResult WriteInPlace(const Target& target, std::string_view bytes) {
  int fd = open(target.path.c_str(), O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return Failed(WriteFailure::kOpen, errno);
  int error = WriteAndClose(fd, bytes);
  return error ? Failed(WriteFailure::kWrite, error) : WriteResult{};
}

// A new file beside the target, opened O_EXCL (never an existing file or link).
int CreateTemporary(const std::string& path, mode_t mode, std::string* name) {
  static std::atomic<unsigned> counter{0};
  std::string prefix = Dirname(path) + "/." + Basename(path).substr(0, 100) + ".glint-tmp-" +
                       std::to_string(getpid()) + "-";
  for (int attempt = 0; attempt < kTemporaryNameAttempts; ++attempt) {
    *name = prefix + std::to_string(counter++);
    int fd = open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

// The replaced file's owner (where permitted) and mode. chown first: it clears set-id
// bits that the chmod then restores.
int KeepOwnerAndMode(int fd, const struct stat& old) {
  struct stat now;
  if (fstat(fd, &now) != 0) return errno;
  if ((now.st_uid != old.st_uid || now.st_gid != old.st_gid) &&
      fchown(fd, old.st_uid, old.st_gid) != 0 && errno != EPERM && errno != EINVAL)
    return errno;
  return fchmod(fd, old.st_mode & 07777) == 0 ? 0 : errno;
}

WriteResult ReplaceAtomically(const Target& target, std::string_view bytes) {
  // A new file gets 0666 less the umask from open(); a replacement starts private and
  // gets the old file's mode before it becomes visible under the target's name.
  std::string temporary;
  int fd = CreateTemporary(target.path, target.exists ? 0600 : 0666, &temporary);
  if (fd < 0) return Failed(WriteFailure::kOpen, errno);
  int error = target.exists ? KeepOwnerAndMode(fd, target.status) : 0;
  if (error)
    close(fd);
  else
    error = WriteAndClose(fd, bytes);
  if (!error && rename(temporary.c_str(), target.path.c_str()) != 0) error = errno;
  if (!error) return {};
  unlink(temporary.c_str());
  return Failed(WriteFailure::kWrite, error);
}

}  // namespace

WriteResult WriteOutputFile(const std::string& path, std::string_view bytes) {
  if (path.empty()) return Failed(WriteFailure::kOpen, ENOENT);
  if (path.back() == '/') return Failed(WriteFailure::kOpen, EISDIR);
  Target target = Resolve(path);
  if (target.error) return Failed(WriteFailure::kOpen, target.error);
  if (target.exists && S_ISDIR(target.status.st_mode)) return Failed(WriteFailure::kOpen, EISDIR);
  // A file the user may not write is refused as glslang's in-place open refuses it,
  // although replacing it would only need the directory's permission.
  if (target.exists && !target.in_place &&
      faccessat(AT_FDCWD, target.path.c_str(), W_OK, AT_EACCESS) != 0)
    return Failed(WriteFailure::kOpen, errno);
  return target.in_place ? WriteInPlace(target, bytes) : ReplaceAtomically(target, bytes);
}

std::string DescribeFailure(const std::string& path, const WriteResult& result) {
  if (result.failure == WriteFailure::kOpen)
    return "cannot open '" + path + "' for writing: " + result.reason;
  return "cannot write '" + path + "': " + result.reason;
}

}  // namespace glint::output
