#include "child_compiles.h"

#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <deque>
#include <iostream>
#include <new>
#include <set>

#include "glint/input_limits.h"
#include "glslang/front_end/big_stack.h"
#include "glslang/worker/crash_message.h"
#include "glslang/worker/wire_format.h"

namespace glint::standalone {
namespace {

// Messages on the socket pair between parent and worker.
constexpr uint32_t kRunRequest = 0x52524c47;    // parent -> worker: job index
constexpr uint32_t kWriteRequest = 0x57524c47;  // worker -> parent: path, bytes
constexpr uint32_t kWriteAnswer = 0x41524c47;   // parent -> worker: failure, reason
constexpr uint32_t kDone = 0x44524c47;          // worker -> parent: flags, payload
constexpr uint32_t kMaxMessage = 1024u << 20;

// Jobs handed to a worker ahead of the one it compiles, so that it never waits for
// the parent between two jobs; fewer with several workers, so that the last jobs of a
// run are not all queued behind one of them.
constexpr size_t kQueuedAlone = 8;
constexpr size_t kQueuedEach = 2;

// In a worker: the descriptor to the parent (-1 otherwise), and the jobs the parent
// sent while the worker waited for the answer to a write request.
int g_parent = -1;
std::deque<uint64_t> g_runs_received;

// What a parallel worker's job printed (empty when it printed to the parent's).
struct Captured {
  std::string out, err;
};

std::string EncodeDone(const CompileFlags& flags, const std::string& payload,
                       const Captured& text) {
  wire::Writer out;
  out.U8(flags.compile_failed);
  out.U8(flags.link_failed);
  out.U8(flags.output_failed);
  out.String(payload);
  out.String(text.out);
  out.String(text.err);
  return out.bytes();
}

bool DecodeDone(const std::string& bytes, CompileOutcome* outcome, Captured* text) {
  wire::Reader in(bytes);
  CompileFlags& f = outcome->flags;
  return in.Bool(&f.compile_failed) && in.Bool(&f.link_failed) && in.Bool(&f.output_failed) &&
         in.String(&outcome->payload) && in.String(&text->out) && in.String(&text->err) &&
         in.Done();
}

void FlushAll() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stdout);
  std::fflush(stderr);
}

[[noreturn]] void ExitOverMemoryBudget() { _exit(kMemoryBudgetExit); }

// The address space this process has now (VmSize), in bytes; 0 when unknown.
uint64_t AddressSpaceBytes() {
  unsigned long long pages = 0;
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (!statm) return 0;
  if (std::fscanf(statm, "%llu", &pages) != 1) pages = 0;
  std::fclose(statm);
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// Lets the worker's address space grow by `memory_mb` MiB (and the big stack it is
// about to reserve); an allocation past that ends the worker with kMemoryBudgetExit.
void LimitMemory(uint32_t memory_mb) {
  uint64_t now = AddressSpaceBytes();
  if (memory_mb == 0 || now == 0) return;
  uint64_t limit = now + kBigStackBytes + (uint64_t{memory_mb} << 20);
  struct rlimit cap = {limit, limit};
  if (setrlimit(RLIMIT_AS, &cap) == 0) std::set_new_handler(ExitOverMemoryBudget);
}

void WriteAll(int fd, const std::string& bytes) {
  for (size_t at = 0; at < bytes.size();) {
    ssize_t written = write(fd, bytes.data() + at, bytes.size() - at);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // the reader went away: nothing else to do with the text
    at += static_cast<size_t>(written);
  }
}

// In a worker: the next job the parent handed it; false when the parent closed.
bool NextJob(uint64_t* job) {
  if (!g_runs_received.empty()) {
    *job = g_runs_received.front();
    g_runs_received.pop_front();
    return true;
  }
  std::string request;
  if (wire::ReadMessage(g_parent, kRunRequest, 64, 0, &request) != wire::ReadStatus::kOk)
    return false;
  wire::Reader in(request);
  return in.U64(job) && in.Done();
}

// In a worker: the parent's answer to a write request; jobs it sends meanwhile are
// kept for NextJob.
bool ReadWriteAnswer(std::string* answer) {
  for (;;) {
    uint32_t magic = 0;
    if (wire::ReadAnyMessage(g_parent, kMaxMessage, 0, &magic, answer) != wire::ReadStatus::kOk)
      return false;
    if (magic == kWriteAnswer) return true;
    wire::Reader in(*answer);
    uint64_t job = 0;
    if (magic != kRunRequest || !in.U64(&job) || !in.Done()) return false;
    g_runs_received.push_back(job);
  }
}

// A parallel worker's stdout and stderr: anonymous files it empties before each job
// and reads back after it, for its answer (the parent reads them after a worker died:
// the text of the job it died in). -1: the worker prints to the parent's.
struct Capture {
  int out = -1;
  int err = -1;
  bool on() const { return out >= 0; }
  void Close() {
    for (int fd : {out, err})
      if (fd >= 0) close(fd);
    out = err = -1;
  }
};

bool OpenCapture(Capture* capture) {
  capture->out = memfd_create("glint-worker-stdout", MFD_CLOEXEC);
  capture->err = memfd_create("glint-worker-stderr", MFD_CLOEXEC);
  if (capture->on() && capture->err >= 0) return true;
  capture->Close();
  return false;
}

void EmptyCapturedFile(int fd) {
  if (ftruncate(fd, 0) == 0) lseek(fd, 0, SEEK_SET);
}

std::string ReadCapturedFile(int fd) {
  struct stat info {};
  if (fstat(fd, &info) != 0 || info.st_size <= 0) return "";
  std::string text(static_cast<size_t>(info.st_size), '\0');
  size_t at = 0;
  while (at < text.size()) {
    ssize_t got = pread(fd, text.data() + at, text.size() - at, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    at += static_cast<size_t>(got);
  }
  text.resize(at);
  return text;
}

Captured ReadCaptured(const Capture& capture, int out, int err) {
  if (!capture.on()) return {};
  return {ReadCapturedFile(out), ReadCapturedFile(err)};
}

// A regular file the parent wrote is removed when its job did not count.
void RemoveWritten(const std::vector<std::string>& written) {
  for (const std::string& path : written) {
    struct stat info {};
    if (stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode)) std::remove(path.c_str());
  }
}

int Reap(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// How a job ended whose worker did not report it done.
CompileOutcome Unfinished(int status, bool timed_out, uint32_t memory_mb) {
  CompileOutcome outcome;
  if (timed_out)
    outcome.end = CompileOutcome::End::kTimedOut;
  else if (memory_mb && WIFEXITED(status) && WEXITSTATUS(status) == kMemoryBudgetExit)
    outcome.end = CompileOutcome::End::kOutOfMemory, outcome.memory_mb = memory_mb;
  else if (WIFSIGNALED(status))
    outcome.end = CompileOutcome::End::kCrashed, outcome.signal = WTERMSIG(status);
  else
    outcome.end = CompileOutcome::End::kExited,
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  return outcome;
}

// The parent's view of one worker process.
struct Worker {
  pid_t pid = -1;  // -1: none running (never started, or ended with its last job)
  int channel = -1;
  Capture capture;
  std::deque<size_t> jobs;           // handed to it, in order: it is compiling the first
  uint64_t deadline = 0;             // the first job's
  std::vector<std::string> written;  // files the parent wrote for the first job
  size_t ended = 0;                  // jobs this process (the latest fork) ended
  bool busy() const { return !jobs.empty(); }
};

// What the parent keeps of one job until the end of the run.
struct JobRecord {
  CompileOutcome outcome;
  Captured text;
  std::vector<std::string> written;
};

// The isolated run of RunCompiles: hands jobs in order to idle workers, serves their
// write requests, records each job's end; then prints captured text in job order.
class WorkerPool {
 public:
  WorkerPool(size_t count, const BatchSettings& settings, const JobBody& body)
      : settings_(settings), body_(body), jobs_(count), stop_(count) {
    size_t workers =
        std::min<size_t>(std::max(settings.max_workers, 1u), std::max<size_t>(count, 1));
    workers_.resize(workers);
    queued_ = workers == 1 ? kQueuedAlone : kQueuedEach;
    for (size_t job = 0; job < count; ++job) waiting_.insert(waiting_.end(), job);
  }
  ~WorkerPool();
  std::vector<CompileOutcome> Run();

 private:
  void HandOutJobs();
  void Hand(Worker& worker, size_t job);
  bool Fork(Worker& worker);
  [[noreturn]] void Serve(const Worker& worker);
  void RunHere(size_t job);
  void WaitForWorkers();
  void ReadFrom(Worker& worker);
  bool AnswerWrite(Worker& worker, const std::string& request);
  void Retire(Worker& worker, bool kill_first, bool timed_out, bool last_undelivered = false);
  void ReadEndsLeft(Worker& worker);
  void End(Worker& worker, const CompileOutcome& outcome, Captured text);
  std::vector<CompileOutcome> Replay();

  const BatchSettings settings_;
  const JobBody& body_;
  std::vector<Worker> workers_;
  std::vector<JobRecord> jobs_;
  std::set<size_t> waiting_;  // jobs not handed out yet, or handed back by a dead worker
  size_t queued_;             // jobs a worker is handed at most
  size_t stop_;               // no job from here on counts: the one before it exit()ed
};

WorkerPool::~WorkerPool() {
  // An idle worker reads the closed channel as the end of the run and _exits.
  for (Worker& worker : workers_) {
    if (worker.pid > 0) {
      close(worker.channel);
      Reap(worker.pid);
    }
    worker.capture.Close();
  }
}

std::vector<CompileOutcome> WorkerPool::Run() {
  for (;;) {
    HandOutJobs();
    if (std::none_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.busy(); }))
      return Replay();
    WaitForWorkers();
  }
}

// The lowest waiting jobs, one to each worker in turn, until each has its share.
void WorkerPool::HandOutJobs() {
  for (bool handed = true; handed;) {
    handed = false;
    for (Worker& worker : workers_) {
      if (worker.jobs.size() >= queued_ || waiting_.empty() || *waiting_.begin() >= stop_) continue;
      size_t job = *waiting_.begin();
      waiting_.erase(waiting_.begin());
      Hand(worker, job);
      handed = true;
    }
  }
}

void WorkerPool::Hand(Worker& worker, size_t job) {
  if (worker.pid < 0 && !Fork(worker)) return RunHere(job);  // no fork: compile here
  if (worker.jobs.empty())
    worker.deadline = settings_.timeout_ms ? wire::NowMs() + settings_.timeout_ms : 0;
  worker.jobs.push_back(job);
  wire::Writer request;
  request.U64(job);
  if (!wire::WriteMessage(worker.channel, kRunRequest, request.bytes()))
    Retire(worker, /*kill_first=*/true, /*timed_out=*/false, /*last_undelivered=*/true);
}

bool WorkerPool::Fork(Worker& worker) {
  if (workers_.size() > 1 && !worker.capture.on() && !OpenCapture(&worker.capture)) return false;
  int ends[2];
  FlushAll();  // the worker must not print the parent's buffered text again
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return false;
  pid_t pid = fork();
  if (pid == 0) {
    close(ends[0]);
    for (Worker& other : workers_)
      if (&other != &worker && other.channel >= 0) close(other.channel);
    worker.channel = ends[1];
    Serve(worker);
  }
  close(ends[1]);
  if (pid < 0) return close(ends[0]), false;
  worker.pid = pid;
  worker.channel = ends[0];
  worker.ended = 0;
  return true;
}

// The worker's loop: a job index in, the job's result out, until the parent closes.
// The whole loop runs on the big stack (one hand-off per worker, not two per job), each
// job with a fresh glslang pool. _exit at the end, so nothing of the parent's (atexit
// handlers, static destructors) runs twice.
void WorkerPool::Serve(const Worker& worker) {
  g_parent = worker.channel;
  const Capture& capture = worker.capture;
  if (capture.on() &&
      (dup2(capture.out, STDOUT_FILENO) < 0 || dup2(capture.err, STDERR_FILENO) < 0))
    _exit(3);
  LimitMemory(settings_.memory_mb);
  RunOnBigStack([&] {
    for (;;) {
      uint64_t job = 0;
      if (!NextJob(&job)) _exit(0);
      if (job >= jobs_.size()) _exit(3);
      if (capture.on()) EmptyCapturedFile(STDOUT_FILENO), EmptyCapturedFile(STDERR_FILENO);
      CompileFlags flags;
      std::string payload;
      RunWithFreshPool([&] { payload = body_(job, flags); });
      FlushAll();
      Captured text = ReadCaptured(capture, STDOUT_FILENO, STDERR_FILENO);
      if (!wire::WriteMessage(g_parent, kDone, EncodeDone(flags, payload, text))) _exit(3);
    }
  });
  _exit(3);  // only when the big stack could not run the loop
}

void WorkerPool::RunHere(size_t job) {
  CompileOutcome& outcome = jobs_[job].outcome;
  RunOnBigStack([&] { outcome.payload = body_(job, outcome.flags); });
}

// Waits until a busy worker says something or a deadline passes, and deals with it.
void WorkerPool::WaitForWorkers() {
  std::vector<pollfd> waiting;
  std::vector<Worker*> owners;
  uint64_t soonest = 0;
  for (Worker& worker : workers_) {
    if (!worker.busy()) continue;
    waiting.push_back({worker.channel, POLLIN, 0});
    owners.push_back(&worker);
    if (worker.deadline && (!soonest || worker.deadline < soonest)) soonest = worker.deadline;
  }
  uint64_t now = wire::NowMs();
  int wait_ms = !soonest         ? -1
                : soonest <= now ? 0
                                 : static_cast<int>(std::min<uint64_t>(soonest - now, 1u << 30));
  if (poll(waiting.data(), waiting.size(), wait_ms) < 0 && errno != EINTR) return;
  for (size_t i = 0; i < waiting.size(); ++i)
    if (waiting[i].revents) ReadFrom(*owners[i]);
  now = wire::NowMs();
  for (Worker* worker : owners)
    if (worker->busy() && worker->deadline && worker->deadline <= now)
      Retire(*worker, /*kill_first=*/true, /*timed_out=*/true);
}

// One message from a busy worker: a write request, its job's end, or its death.
void WorkerPool::ReadFrom(Worker& worker) {
  uint32_t magic = 0;
  std::string payload;
  wire::ReadStatus status =
      wire::ReadAnyMessage(worker.channel, kMaxMessage, worker.deadline, &magic, &payload);
  if (status == wire::ReadStatus::kTimeout) return Retire(worker, true, true);
  if (status != wire::ReadStatus::kOk) return Retire(worker, false, false);  // it ended
  CompileOutcome outcome;
  Captured text;
  if (magic == kDone && DecodeDone(payload, &outcome, &text)) return End(worker, outcome, text);
  if (magic != kWriteRequest || !AnswerWrite(worker, payload)) Retire(worker, true, false);
}

bool WorkerPool::AnswerWrite(Worker& worker, const std::string& request) {
  wire::Reader in(request);
  std::string path, bytes;
  if (!in.String(&path) || !in.String(&bytes) || !in.Done()) return false;
  output::WriteResult result = output::WriteOutputFile(path, bytes);
  if (result.ok()) worker.written.push_back(path);
  wire::Writer answer;
  answer.U32(static_cast<uint32_t>(result.failure));
  answer.String(result.reason);
  return wire::WriteMessage(worker.channel, kWriteAnswer, answer.bytes());
}

// The worker ended (or is ended here) in the middle of a job; the jobs queued behind
// that one go back to the waiting ones, for a fresh fork. `last_undelivered`: the parent
// found the worker dead handing it a job, so that job never reached it; and a worker
// may run ahead of the parent, so the ends it reported before it died may still wait in
// the channel behind the last one read. They are read first, so that the job it died
// on is the one that counts as unfinished (otherwise a finished job would count as
// crashed and the one after it run twice). The undelivered job is not blamed when it is
// the only one left of a worker that ended jobs before (the next fork runs it); a fork
// that ended none blames it, so that a worker that cannot start still ends the run.
// Elsewhere nothing is left to read: the parent read up to the worker's end of the
// channel, or killed it past the first job's deadline, or for a message it could not
// read.
void WorkerPool::Retire(Worker& worker, bool kill_first, bool timed_out, bool last_undelivered) {
  if (kill_first) kill(worker.pid, SIGKILL);
  int status = Reap(worker.pid);
  worker.pid = -1;
  if (last_undelivered) ReadEndsLeft(worker);
  close(worker.channel);
  worker.channel = -1;
  const bool only_undelivered = last_undelivered && worker.jobs.size() == 1 && worker.ended > 0;
  if (!worker.jobs.empty() && !only_undelivered)
    End(worker, Unfinished(status, timed_out, settings_.memory_mb),
        ReadCaptured(worker.capture, worker.capture.out, worker.capture.err));
  waiting_.insert(worker.jobs.begin(), worker.jobs.end());
  worker.jobs.clear();
}

// The ends a dead worker reported that the parent has not read, in order, up to the
// first message that is not one (a write request it died waiting on) or is cut short.
// The worker is reaped: its end of the channel is closed, so the reads end.
void WorkerPool::ReadEndsLeft(Worker& worker) {
  while (!worker.jobs.empty()) {
    uint32_t magic = 0;
    std::string payload;
    if (wire::ReadAnyMessage(worker.channel, kMaxMessage, 0, &magic, &payload) !=
        wire::ReadStatus::kOk)
      break;
    CompileOutcome outcome;
    Captured text;
    if (magic != kDone || !DecodeDone(payload, &outcome, &text)) break;
    End(worker, outcome, text);
  }
}

// Records how the worker's first job ended; the next one's time starts now.
void WorkerPool::End(Worker& worker, const CompileOutcome& outcome, Captured text) {
  size_t job = worker.jobs.front();
  worker.jobs.pop_front();
  ++worker.ended;
  if (!worker.jobs.empty() && settings_.timeout_ms)
    worker.deadline = wire::NowMs() + settings_.timeout_ms;
  JobRecord& record = jobs_[job];
  record.outcome = outcome;
  record.written = std::move(worker.written);
  worker.written.clear();
  record.text = std::move(text);
  CompileOutcome::End end = outcome.end;
  if (end == CompileOutcome::End::kCrashed || end == CompileOutcome::End::kTimedOut ||
      end == CompileOutcome::End::kOutOfMemory)
    RemoveWritten(record.written);
  if (end == CompileOutcome::End::kExited) stop_ = std::min(stop_, job + 1);
  if (settings_.job_ended) settings_.job_ended(job);
}

// The outcomes that count, their captured text printed in job order; what was written
// for jobs past one that exit()ed is removed (a sequential run never reached them).
std::vector<CompileOutcome> WorkerPool::Replay() {
  std::vector<CompileOutcome> outcomes;
  FlushAll();
  for (size_t job = 0; job < jobs_.size(); ++job) {
    JobRecord& record = jobs_[job];
    if (job >= stop_) {
      RemoveWritten(record.written);
      continue;
    }
    WriteAll(STDOUT_FILENO, record.text.out);
    WriteAll(STDERR_FILENO, record.text.err);
    outcomes.push_back(std::move(record.outcome));
  }
  return outcomes;
}

}  // namespace

std::vector<CompileOutcome> RunCompiles(size_t count, const BatchSettings& settings,
                                        const JobBody& body) {
  if (settings.isolate) return WorkerPool(count, settings, body).Run();
  std::vector<CompileOutcome> outcomes(count);
  for (size_t job = 0; job < count; ++job)
    RunOnBigStack([&] { outcomes[job].payload = body(job, outcomes[job].flags); });
  return outcomes;
}

uint32_t DefaultCompileMemoryMb() {
#if defined(__SANITIZE_ADDRESS__)
  return 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return 0;
#else
  return GLINT_COMPILE_MEMORY_MB;
#endif
#else
  return GLINT_COMPILE_MEMORY_MB;
#endif
}

CompileOutcome RunCompile(bool isolate, uint32_t timeout_ms, const CompileBody& body,
                          uint32_t memory_mb) {
  BatchSettings settings;
  settings.isolate = isolate;
  settings.timeout_ms = timeout_ms;
  settings.memory_mb = memory_mb;
  std::vector<CompileOutcome> outcomes =
      RunCompiles(1, settings, [&](size_t, CompileFlags& flags) { return body(flags); });
  return outcomes.front();
}

unsigned UsableCores() {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0)
    return static_cast<unsigned>(CPU_COUNT(&cpus));
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? static_cast<unsigned>(online) : 1;
}

output::WriteResult WriteOutput(const std::string& path, std::string_view bytes) {
  if (g_parent < 0) return output::WriteOutputFile(path, bytes);
  wire::Writer request;
  request.String(path);
  request.String(std::string(bytes));
  std::string answer;
  output::WriteResult result;
  result.failure = output::WriteFailure::kWrite;
  result.reason = "the parent process did not answer";
  if (!wire::WriteMessage(g_parent, kWriteRequest, request.bytes()) || !ReadWriteAnswer(&answer))
    return result;
  wire::Reader in(answer);
  uint32_t failure = 0;
  if (!in.U32(&failure) || failure > 2 || !in.String(&result.reason) || !in.Done()) return result;
  result.failure = static_cast<output::WriteFailure>(failure);
  return result;
}

std::string UnfinishedLine(const CompileOutcome& outcome, const std::string& names,
                           uint32_t timeout_ms) {
  if (outcome.end == CompileOutcome::End::kTimedOut)
    return "ERROR: " + names + ": compile exceeded --timeout-ms " + std::to_string(timeout_ms) +
           "; no output written";
  if (outcome.end == CompileOutcome::End::kOutOfMemory)
    return "ERROR: " + names + ": compile exceeded its memory budget (--max-memory-mb " +
           std::to_string(outcome.memory_mb) + "); no output written";
  return "ERROR: " + names + ": " + InternalErrorMessage(outcome.signal) + "; no output written";
}

}  // namespace glint::standalone
