// Batch work split across threads. Each item's result must depend only on its index,
// so a batch gives the same results for any thread count.
#pragma once

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "diabolo/common/errors.hpp"

namespace diabolo {

/// Calls work(first, last) on contiguous slices of [0, items), one per thread; the
/// calling thread takes the first slice. OptionError for a bad count.
template <class Work>
void in_parallel(int items, int threads, const Work& work) {
    if (items < 0) throw OptionError("games must be >= 0, got " + std::to_string(items));
    if (threads < 1 || threads > 256) throw OptionError("threads must be 1..256, got " + std::to_string(threads));
    const int used = std::min(threads, std::max(items, 1));
    std::vector<std::thread> pool;
    for (int t = 1; t < used; ++t) pool.emplace_back(work, items * t / used, items * (t + 1) / used);
    work(0, items / used);
    for (auto& thread : pool) thread.join();
}

}  // namespace diabolo
