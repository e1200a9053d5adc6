#include "glslang/front_end/big_stack.h"

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>

#include <glslang/Include/PoolAlloc.h>

namespace glint {
namespace {

thread_local bool t_on_big_stack = false;

// A thread with a big stack that runs one task at a time for its owner thread.
class BigStackWorker {
 public:
  bool Start() {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, kBigStackBytes);
    started_ = pthread_create(&thread_, &attributes, &BigStackWorker::Loop, this) == 0;
    pthread_attr_destroy(&attributes);
    return started_;
  }

  ~BigStackWorker() {
    if (!started_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
    pthread_join(thread_, nullptr);
  }

  void Run(const std::function<void()>& task) {
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = &task;
    error_ = nullptr;
    wake_.notify_one();
    done_.wait(lock, [&] { return task_ == nullptr; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  static void* Loop(void* self) {
    t_on_big_stack = true;
    static_cast<BigStackWorker*>(self)->Serve();
    return nullptr;
  }

  void Serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || task_ != nullptr; });
      if (stop_) return;
      lock.unlock();
      std::exception_ptr error;
      try {
        RunWithFreshPool(*task_);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      error_ = error;
      task_ = nullptr;
      done_.notify_one();
    }
  }

  pthread_t thread_{};
  bool started_ = false;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void()>* task_ = nullptr;
  std::exception_ptr error_;
  bool stop_ = false;
};

// Counts fork()s: a forked child has none of its parent's worker threads, so a worker
// from an earlier generation is abandoned (never joined, its memory left) and replaced.
std::atomic<unsigned> g_fork_generation{0};

void CountFork() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

// The calling thread's worker; null when it could not be started.
BigStackWorker* ThisThreadsWorker() {
  static const bool registered = pthread_atfork(nullptr, nullptr, CountFork) == 0;
  (void)registered;
  thread_local std::unique_ptr<BigStackWorker> worker;
  thread_local bool tried = false;
  thread_local unsigned generation = 0;
  unsigned now = g_fork_generation.load(std::memory_order_relaxed);
  if (generation != now) {
    (void)worker.release();  // its thread does not exist in this process
    tried = false;
    generation = now;
  }
  if (!tried) {
    tried = true;
    auto started = std::make_unique<BigStackWorker>();
    if (started->Start()) worker = std::move(started);
  }
  return worker.get();
}

}  // namespace

void RunWithFreshPool(const std::function<void()>& task) {
  glslang::TPoolAllocator* previous = &glslang::GetThreadPoolAllocator();
  glslang::TPoolAllocator pool;
  glslang::SetThreadPoolAllocator(&pool);
  struct Restore {
    glslang::TPoolAllocator* previous;
    ~Restore() { glslang::SetThreadPoolAllocator(previous); }
  } restore{previous};
  task();
}

void RunOnBigStack(const std::function<void()>& task) {
  if (t_on_big_stack) return task();
  BigStackWorker* worker = ThisThreadsWorker();
  if (!worker) return RunWithFreshPool(task);
  worker->Run(task);
}

}  // namespace glint
