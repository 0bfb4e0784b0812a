// Batch work split across threads. Each item's result must depend only on its index,
// so a batch gives the same results for any thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "diabolo/core/errors.hpp"

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

/// Calls work(first, last) on blocks of [0, items), handed out in index order to
/// `threads` threads (the calling thread is one of them) until all are done or
/// `interrupted` says stop. OptionError for a bad count. If work throws (a LimitError of
/// the word finder on a custom deck), no new block starts and, once every thread is done,
/// the first exception thrown is thrown again in the calling thread.
template <class Work>
void in_parallel(int items, int threads, const Work& work, const Interrupt& interrupted = {}) {
    if (items < 0) throw OptionError("games must be >= 0, got " + std::to_string(items));
    if (threads < 1 || threads > kMaxThreads)
        throw OptionError("threads must be 1.." + std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
    const int used = std::min(threads, std::max(items, 1));
    // Small blocks balance the threads and keep an interrupt prompt; 256 items at most,
    // so a batch of 10**8 games asks about 400,000 times, each a few nanoseconds of work.
    const int block = std::clamp(items / (used * 16), 1, 256);
    std::atomic<int> next{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;  // the first exception of any thread
    std::mutex failure_mutex;
    const auto run = [&](bool caller) {
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
    std::vector<std::thread> pool;
    for (int t = 1; t < used; ++t) pool.emplace_back(run, false);
    run(true);
    for (auto& thread : pool) thread.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace diabolo
