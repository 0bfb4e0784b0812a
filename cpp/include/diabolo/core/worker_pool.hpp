// A pool of threads that stays up between batches, for work called many times a second
// (a vector environment's step): starting threads for each call would cost more than
// the step. Each pool is a value of its owner; there is no pool shared by the process.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "diabolo/core/errors.hpp"

namespace diabolo {

class WorkerPool {
public:
    /// A pool of `threads` threads in all: the caller of run() and threads - 1 workers.
    /// OptionError outside 1..256.
    explicit WorkerPool(int threads) : threads_(threads) {
        if (threads < 1 || threads > 256) throw OptionError("threads must be 1..256, got " + std::to_string(threads));
        for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { serve(); });
    }

    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    ~WorkerPool() {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& worker : workers_) worker.join();
    }

    int threads() const noexcept { return threads_; }

    /// Calls work(first, last) on blocks of [0, items) on every thread of the pool and
    /// returns when all are done. If work throws, no new block starts and the first
    /// exception is thrown again here. Results must depend only on the items, never on
    /// which thread ran them. Not reentrant: one run() at a time.
    void run(int items, const std::function<void(int, int)>& work) {
        if (items <= 0) return;
        if (workers_.empty() || items == 1) {
            work(0, items);
            return;
        }
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            work_ = &work;
            items_ = items;
            block_ = std::clamp(items / (threads_ * 8), 1, 64);
            next_.store(0, std::memory_order_relaxed);
            failed_.store(false, std::memory_order_relaxed);
            failure_ = nullptr;
            busy_ = static_cast<int>(workers_.size());
            ++generation_;
        }
        wake_.notify_all();
        take_blocks();
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return busy_ == 0; });
        work_ = nullptr;
        if (failure_) std::rethrow_exception(failure_);
    }

private:
    void serve() {
        uint64_t seen = 0;
        for (;;) {
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
                if (stopping_) return;
                seen = generation_;
            }
            take_blocks();
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                --busy_;
            }
            done_.notify_one();
        }
    }

    void take_blocks() {
        try {
            while (!failed_.load(std::memory_order_relaxed)) {
                const int first = next_.fetch_add(block_, std::memory_order_relaxed);
                if (first >= items_) return;
                (*work_)(first, std::min(items_, first + block_));
            }
        } catch (...) {  // an exception must not leave a thread (std::terminate)
            failed_.store(true, std::memory_order_relaxed);
            const std::lock_guard<std::mutex> lock(mutex_);
            if (!failure_) failure_ = std::current_exception();
        }
    }

    const int threads_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(int, int)>* work_ = nullptr;
    int items_ = 0;
    int block_ = 1;
    std::atomic<int> next_{0};
    std::atomic<bool> failed_{false};
    std::exception_ptr failure_;
    int busy_ = 0;
    uint64_t generation_ = 0;
    bool stopping_ = false;
};

}  // namespace diabolo
