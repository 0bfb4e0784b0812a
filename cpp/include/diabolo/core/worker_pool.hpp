// A pool of threads that stays up between batches, for work called many times a second
// (a vector environment's step): starting threads for each call would cost more than
// the step. Each pool is a value of its owner; there is no pool shared by the process.
// Each thread takes blocks from its own share of the items first, the same share at every
// call, so that an item's data stays in the cache of the core that last used it; then it
// takes what is left of the others' shares (so a slow block delays no one).
// A thread that waits spins for a short while before it sleeps: the next batch, or the
// end of this one, usually comes within microseconds, and waking a sleeping thread costs
// tens of them.
// run() works on the caller's thread too; start() and wait() let the pool's threads work
// alone while the caller does something else (an extra thread, made at the first start(),
// takes the caller's share).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "diabolo/core/errors.hpp"

namespace diabolo {

class WorkerPool {
public:
    /// A pool of `threads` threads in all: the caller of run() and threads - 1 workers (and
    /// from the first start() on, a stand-in for the caller). OptionError outside 1..256.
    explicit WorkerPool(int threads) : threads_(threads) {
        if (threads < 1 || threads > 256) throw OptionError("threads must be 1..256, got " + std::to_string(threads));
        shares_ = std::make_unique<Share[]>(static_cast<std::size_t>(threads));
        for (int t = 1; t < threads; ++t) workers_.emplace_back([this, t] { serve(t); });
    }

    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    ~WorkerPool() {
        if (started_) sleep_until_done();  // the batch's work must not outlive its owner
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            stopping_.store(true);
        }
        wake_.notify_all();
        for (auto& worker : workers_) worker.join();
        if (stand_in_.joinable()) stand_in_.join();
    }

    int threads() const noexcept { return threads_; }

    /// Calls work(first, last, thread) on blocks of [0, items) on every thread of the pool
    /// and returns when all are done; `thread` (0 .. threads - 1, 0 for the caller) names
    /// the thread running the block, for room of its own. If work throws, no new block
    /// starts and the first exception is thrown again here. Results must depend only on
    /// the items, never on which thread ran them. One batch at a time: not while a started
    /// one runs.
    void run(int items, const std::function<void(int, int, int)>& work) {
        if (items <= 0) return;
        if (workers_.empty() || items == 1) {
            work(0, items, 0);
            return;
        }
        begin(items, &work, false);
        take_blocks(0);
        wait_for_workers();
        finish();
    }

    /// Starts work(first, last, thread) on blocks of [0, items) on the pool's threads
    /// without the caller (the stand-in runs as thread 0), and returns at once; wait()
    /// returns when they are done (and throws what work threw). `work` is kept until then.
    /// One batch at a time.
    void start(int items, std::function<void(int, int, int)> work) {
        if (!stand_in_.joinable()) stand_in_ = std::thread([this] { serve(0); });
        started_work_ = std::move(work);
        started_ = true;
        begin(std::max(items, 0), &started_work_, true);
    }

    /// Waits for the batch start() began, asleep (the cores are the workers'); throws the
    /// first exception its work threw.
    void wait() {
        if (!started_) return;
        sleep_until_done();
        started_ = false;
        finish();
    }

private:
    /// Hands out a batch to the workers (and to the stand-in for the caller's share when
    /// `alone`).
    void begin(int items, const std::function<void(int, int, int)>* work, bool alone) {
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            work_ = work;
            // Small blocks: the threads finish within a block's time of each other.
            block_ = std::clamp(items / (threads_ * 16), 1, 16);
            for (int t = 0; t < threads_; ++t) {
                Share& share = shares_[static_cast<std::size_t>(t)];
                share.next.store(static_cast<int>(static_cast<int64_t>(items) * t / threads_),
                                 std::memory_order_relaxed);
                share.end = static_cast<int>(static_cast<int64_t>(items) * (t + 1) / threads_);
            }
            failed_.store(false, std::memory_order_relaxed);
            failure_ = nullptr;
            alone_ = alone;
            busy_.store(static_cast<int>(workers_.size()) + (alone ? 1 : 0), std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
        }
        wake_.notify_all();
    }

    void wait_for_workers() {
        spin_until([this] { return busy_.load(std::memory_order_acquire) == 0; });
        sleep_until_done();
    }

    void sleep_until_done() {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return busy_.load(std::memory_order_acquire) == 0; });
    }

    void finish() {
        work_ = nullptr;
        if (failure_) std::rethrow_exception(failure_);
    }

    /// A worker's loop; thread 0 is the stand-in, which works only on started batches.
    void serve(int thread) {
        uint64_t seen = 0;
        bool spin = thread != 0;
        for (;;) {
            if (spin) {
                spin_until([&] {
                    return generation_.load(std::memory_order_acquire) != seen ||
                           stopping_.load(std::memory_order_acquire);
                });
            }
            bool mine = false;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stopping_.load() || generation_.load() != seen; });
                if (stopping_.load()) return;
                seen = generation_.load();
                mine = thread != 0 || alone_;
                // After a started batch the caller is busy elsewhere, and other pools may be
                // working: a spinning thread would take their cores. The stand-in, which
                // works only on started batches, never spins.
                spin = thread != 0 && !alone_;
            }
            if (!mine) continue;
            take_blocks(thread);
            if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                const std::lock_guard<std::mutex> lock(mutex_);  // the caller waits under the mutex
                done_.notify_one();
            }
        }
    }

    /// Spins until `ready()` or about 100 microseconds have passed.
    template <class Ready>
    static void spin_until(Ready ready) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
        while (!ready()) {
            for (int k = 0; k < 64; ++k) {
                if (ready()) return;
            }
            if (std::chrono::steady_clock::now() > until) return;
        }
    }

    void take_blocks(int thread) {
        try {
            for (int k = 0; k < threads_; ++k) {
                Share& share = shares_[static_cast<std::size_t>((thread + k) % threads_)];
                for (;;) {
                    if (failed_.load(std::memory_order_relaxed)) return;
                    const int first = share.next.fetch_add(block_, std::memory_order_relaxed);
                    if (first >= share.end) break;
                    (*work_)(first, std::min(share.end, first + block_), thread);
                }
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
    std::thread stand_in_;  // takes the caller's share of a started batch
    const std::function<void(int, int, int)>* work_ = nullptr;
    std::function<void(int, int, int)> started_work_;
    bool started_ = false;  // a started batch was not waited for (the owner's thread only)
    bool alone_ = false;    // the batch runs without the caller (under the mutex)
    int block_ = 1;
    struct alignas(64) Share {  // a cache line each: the threads take from theirs at once
        std::atomic<int> next{0};
        int end = 0;
    };
    std::unique_ptr<Share[]> shares_;
    std::atomic<bool> failed_{false};
    std::exception_ptr failure_;
    std::atomic<int> busy_{0};
    std::atomic<uint64_t> generation_{0};
    std::atomic<bool> stopping_{false};
};

}  // namespace diabolo
