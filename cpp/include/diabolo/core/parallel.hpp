// Batch work split across threads. Each item's result must depend only on its index,
// so a batch gives the same results for any thread count.
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
#include <type_traits>
#include <utility>
#include <vector>

#include "diabolo/core/errors.hpp"

#ifdef _WIN32
#include <process.h>
#else
#include <unistd.h>
#endif

namespace diabolo {

/// Asked by the calling thread of a batch between its blocks of work: true stops the
/// batch (blocks under way finish; no new one starts). A binding uses it to honour
/// Ctrl-C in a long batch; an empty function never stops.
using Interrupt = std::function<bool()>;

/// An allocator whose new elements are default-initialised: numbers are left as they are,
/// not zeroed. A batch's results are written by its games, so zeroing them first would only
/// delay the first game; for 10**8 games that is gigabytes of writes before the batch can
/// see an interrupt.
template <class T>
struct Uninitialised : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = Uninitialised<U>;
    };
    Uninitialised() = default;
    template <class U>
    Uninitialised(const Uninitialised<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

/// One column of a batch's results, one or more entries per game, each written by its game.
template <class T>
using Results = std::vector<T, Uninitialised<T>>;

/// The most threads a call may use: 1 where the build has none (WebAssembly without
/// pthreads), so that asking for more is a clear OptionError, not a failed thread start.
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
constexpr int kMaxThreads = 1;
#else
constexpr int kMaxThreads = 256;
#endif

/// Threads kept for the batches of one call: a search runs a batch per round, and starting
/// a thread costs tens of microseconds (about 40 on a 2-core virtual machine), as much as a
/// round of a short search, so the team starts its threads once and hands each batch to
/// them. Waking a sleeping thread costs as much again on a virtual machine (the host must
/// wake its idle core), so a thread of the team waits a little (kSpin) for the next batch,
/// and the caller for the end of one, before it sleeps. The calling thread is one of the
/// team. Owned by one call (never shared, never global): run() is called from the thread
/// that made the team, one batch at a time.
class Team {
public:
    /// A team of `threads` (1..kMaxThreads; OptionError otherwise), `threads` - 1 of them
    /// started now.
    explicit Team(int threads) : threads_(threads) {
        if (threads < 1 || threads > kMaxThreads)
            throw OptionError("threads must be 1.." + std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
        workers_.reserve(static_cast<std::size_t>(threads - 1));
        try {
            for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { serve(); });
        } catch (...) {  // a thread that would not start: the started ones end before the error leaves
            stop();
            throw;
        }
    }
    Team(const Team&) = delete;
    Team& operator=(const Team&) = delete;
    ~Team() { stop(); }

    int threads() const noexcept { return threads_; }

    /// Calls work(first, last) on blocks of [0, items), handed out in index order to the
    /// team until all are done or `interrupted` (asked by the calling thread between its
    /// blocks) says stop. If work throws, no new block starts and, once every thread is
    /// done, the first exception thrown is thrown again in the calling thread.
    template <class Work>
    void run(int items, const Work& work, const Interrupt& interrupted = {}) {
        if (items < 0) throw OptionError("games must be >= 0, got " + std::to_string(items));
        // Small blocks balance the threads and keep an interrupt prompt; 256 items at most,
        // so a batch of 10**8 games asks about 400,000 times, each a few nanoseconds of work.
        const int used = std::min(threads_, std::max(items, 1));
        const int block = std::clamp(items / (used * 16), 1, 256);
        std::atomic<int> next{0};
        std::atomic<bool> stop{false};
        std::exception_ptr failure;  // the first exception of any thread
        std::mutex failure_mutex;
        const auto share = [&](bool caller) {
            try {
                while (!stop.load(std::memory_order_relaxed)) {
                    if (caller && interrupted && interrupted()) {
                        stop = true;
                        return;
                    }
                    const int first = next.fetch_add(block);
                    if (first >= items) return;
                    work(first, std::min(items, first + block));
                }
            } catch (...) {  // an exception must not leave a thread (std::terminate)
                stop = true;
                const std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        };
        const std::function<void()> job = [&] { share(false); };
        // Only as many threads as there are items: the others let the batch pass.
        const int woken = used - 1;
        if (woken > 0) {
            job_ = &job;
            busy_.store(woken, std::memory_order_relaxed);
            wanted_.store(woken, std::memory_order_release);  // a worker that takes a place sees job_
            batch_.fetch_add(1, std::memory_order_release);
            wake(wake_);
        }
        share(true);
        if (woken > 0 && !wait([this] { return busy_.load(std::memory_order_acquire) == 0; })) {
            std::unique_lock<std::mutex> lock(mutex_);
            done_.wait(lock, [this] { return busy_.load(std::memory_order_acquire) == 0; });
        }
        if (failure) std::rethrow_exception(failure);
    }

private:
    /// How long a thread waits awake for what it waits for before it sleeps.
    static constexpr std::chrono::microseconds kSpin{50};

    /// Whether `ready` became true within kSpin.
    template <class Ready>
    static bool wait(const Ready& ready) {
        const auto until = std::chrono::steady_clock::now() + kSpin;
        for (int i = 1;; ++i) {
            if (ready()) return true;
            if (i % 64 == 0 && std::chrono::steady_clock::now() >= until) return false;
        }
    }

    /// Ends the workers.
    void stop() {
        quit_.store(true);
        wake(wake_);
        for (auto& worker : workers_) worker.join();
    }

    /// Wakes the threads asleep on `sleepers` once what they wait for has changed. Taking the
    /// mutex first means a thread that looked before the change is asleep by now, so it
    /// gets the notice (it looks again under the mutex before it sleeps).
    void wake(std::condition_variable& sleepers) {
        std::unique_lock<std::mutex> lock(mutex_);
        lock.unlock();
        sleepers.notify_all();
    }

    /// A worker: waits for a batch, takes part in it while the batch wants more threads,
    /// and says when it is done.
    void serve() {
        uint64_t seen = 0;
        const auto fresh = [&] { return quit_.load() || batch_.load(std::memory_order_acquire) != seen; };
        for (;;) {
            if (!wait(fresh)) {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, fresh);
            }
            if (quit_.load()) return;
            seen = batch_.load(std::memory_order_acquire);
            if (wanted_.fetch_sub(1, std::memory_order_acq_rel) <= 0) continue;  // the batch has its threads
            (*job_)();
            if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) wake(done_);
        }
    }

    const int threads_;
    std::vector<std::thread> workers_;
    std::mutex mutex_;  // for sleeping only: what is waited for is in the atomics
    std::condition_variable wake_, done_;
    const std::function<void()>* job_ = nullptr;  // the batch under way
    std::atomic<uint64_t> batch_{0};              // batches begun
    std::atomic<int> wanted_{0};                  // places left in the batch (below 0 when late workers asked)
    std::atomic<int> busy_{0};                    // workers of the batch not yet done
    std::atomic<bool> quit_{false};
};

/// The id of this process: a Team's threads stay in the process that started them.
inline long process_id() noexcept {
#ifdef _WIN32
    return static_cast<long>(_getpid());
#else
    return static_cast<long>(getpid());
#endif
}

/// A Team kept between the calls of an object that makes many of them one after another
/// (a bot's searches, a move apart), so that its threads start once, not at every call.
/// A call that finds it in use by another thread gets a team of its own, and so does the
/// first call in a process forked since the team started (its threads stayed in the
/// parent: the team is let go without waiting for them).
class KeptTeam {
public:
    KeptTeam() = default;
    KeptTeam(const KeptTeam&) = delete;
    KeptTeam& operator=(const KeptTeam&) = delete;

    /// use(team) with a team of `threads` (OptionError for a bad count), and what it returns.
    template <class Use>
    auto with(int threads, const Use& use) -> decltype(use(std::declval<Team&>())) {
        std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
        if (!lock.owns_lock() || threads == 1) {
            Team team(threads);
            return use(team);
        }
        if (team_ && process_ != process_id()) (void)team_.release();  // its threads are not here
        if (team_ && team_->threads() != threads) team_.reset();
        if (!team_) {
            team_ = std::make_unique<Team>(threads);
            process_ = process_id();
        }
        return use(*team_);
    }

private:
    std::mutex mutex_;  // held by the call that uses team_
    std::unique_ptr<Team> team_;
    long process_ = 0;  // where team_ started
};

/// Calls work(first, last) on blocks of [0, items), handed out in index order to
/// `threads` threads (the calling thread is one of them) until all are done or
/// `interrupted` says stop: one batch of a Team of as many threads as there are items, at
/// most `threads`. OptionError for a bad count. If work throws (a LimitError of the word
/// finder on a custom deck), no new block starts and, once every thread is done, the first
/// exception thrown is thrown again in the calling thread.
template <class Work>
void in_parallel(int items, int threads, const Work& work, const Interrupt& interrupted = {}) {
    if (items < 0) throw OptionError("games must be >= 0, got " + std::to_string(items));
    if (threads < 1 || threads > kMaxThreads)
        throw OptionError("threads must be 1.." + std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
    Team(std::min(threads, std::max(items, 1))).run(items, work, interrupted);
}

}  // namespace diabolo
