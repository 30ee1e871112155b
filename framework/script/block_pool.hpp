// The Lua state's small blocks (tables, strings, closures, hash parts) come from size-class free
// lists instead of malloc. Rules calls make and drop millions of them (a piece table per
// game.piece, a frontier per search), and glibc's malloc spent a quarter of a random game's CPU
// on them, consolidating fast bins each time the collector freed a batch. Slabs go back to the
// system only when the pool dies (after lua_close).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <vector>

namespace vedette::script::detail {

class BlockPool {
public:
    static constexpr std::size_t kGranule = 16;   // keeps malloc's alignment
    static constexpr std::size_t kMaxBlock = 512;  // larger blocks go to malloc
    static constexpr std::size_t kSlab = 64 * 1024;

    BlockPool() = default;
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;
    ~BlockPool() {
        for (void* s : slabs_) std::free(s);
    }

    static bool fits(std::size_t n) { return n <= kMaxBlock; }
    static std::size_t size_class(std::size_t n) { return (n + kGranule - 1) / kGranule; }

    // n in 1..kMaxBlock; null when the system has no memory left.
    void* alloc(std::size_t n) {
        const std::size_t c = size_class(n);
        if (Free* f = free_[c]) {
            free_[c] = f->next;
            return f;
        }
        const std::size_t bytes = c * kGranule;
        if (left_ < bytes) {
            if (!new_slab()) return nullptr;
        }
        void* p = cur_;
        cur_ += bytes;
        left_ -= bytes;
        return p;
    }

    // p came from alloc(m) with size_class(m) == size_class(n).
    void release(void* p, std::size_t n) {
        const std::size_t c = size_class(n);
        auto* f = static_cast<Free*>(p);
        f->next = free_[c];
        free_[c] = f;
    }

private:
    struct Free {
        Free* next;
    };

    bool new_slab() {
        // The tail of the old slab is not wasted: it feeds the free lists of the classes it fits.
        while (left_ >= kGranule) {
            const std::size_t c = std::min(left_, kMaxBlock) / kGranule;
            release(cur_, c * kGranule);
            cur_ += c * kGranule;
            left_ -= c * kGranule;
        }
        void* s = std::malloc(kSlab);
        if (!s) return false;
        try {
            slabs_.push_back(s);
        } catch (...) {
            std::free(s);
            return false;
        }
        cur_ = static_cast<char*>(s);
        left_ = kSlab;
        return true;
    }

    Free* free_[kMaxBlock / kGranule + 1] = {};
    char* cur_ = nullptr;
    std::size_t left_ = 0;
    std::vector<void*> slabs_;
};

}  // namespace vedette::script::detail
