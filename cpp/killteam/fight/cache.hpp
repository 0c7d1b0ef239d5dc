// The lookahead cache: an open-addressing hash map from a packed fight state to a value (SlotMap;
// StateMap holds a packed 32-bit answer, the optimal solver's valued states hold bigger values).
//
// Keys are never 0 (decision_key sets the top bit), so 0 marks an empty slot. A key and its value
// share a slot: a lookup in a big table costs one cache miss, not two. Values are looked up by
// copy: a lookup never hands out a reference that a later insert (a rehash) could move.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mh::kt {

namespace detail {
inline uint64_t mix_key(uint64_t x) {  // splitmix64 finaliser: neighbouring states spread out
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
}  // namespace detail

// Any trivially copyable value in the slot; the table grows at half full.
template <class Value>
class SlotMap {
public:
    explicit SlotMap(std::size_t initial_slots = 1024) { reset(initial_slots); }

    // The value stored under `key`, or false.
    bool find(uint64_t key, Value& value) const {
        for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
            if (slots_[i].key == key) {
                value = slots_[i].value;
                return true;
            }
            if (slots_[i].key == 0) return false;
        }
    }

    void insert(uint64_t key, const Value& value) {
        if (2 * (size_ + 1) > slots_.size()) grow();
        place(key, value);
    }

    std::size_t size() const { return size_; }
    // Bytes of the slots, and what they will be after the next insert (a grow doubles them).
    std::size_t bytes() const { return slots_.size() * sizeof(Slot); }
    std::size_t bytes_after_insert() const { return (2 * (size_ + 1) > slots_.size() ? 2 : 1) * bytes(); }

    // Forget everything, keeping the slots.
    void clear() {
        std::fill(slots_.begin(), slots_.end(), Slot{});
        size_ = 0;
    }

private:
    std::size_t slot(uint64_t key) const { return static_cast<std::size_t>(detail::mix_key(key)) & mask_; }

    struct Slot {
        uint64_t key = 0;
        Value value{};
    };

    void reset(std::size_t slots) {
        slots_.assign(slots, Slot{});
        mask_ = slots - 1;
        size_ = 0;
    }

    void place(uint64_t key, const Value& value) {
        std::size_t i = slot(key);
        while (slots_[i].key != 0 && slots_[i].key != key) i = (i + 1) & mask_;
        if (slots_[i].key == 0) ++size_;
        slots_[i].key = key;
        slots_[i].value = value;
    }

    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        reset(old.size() * 2);
        for (const Slot& s : old) {
            if (s.key != 0) place(s.key, s.value);
        }
    }

    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

// A packed fight state -> a packed 32-bit answer (round starts, graph nodes).
using StateMap = SlotMap<uint32_t>;

// A key of at most kKeyBits bits -> a value of at most kValueBits bits, both in one 8-byte word a
// slot: a quarter of the memory of a half-full StateMap, so the decisions and the exact engine's
// chance memo stay in the processor's nearer caches (their lookups are what a big fight waits on,
// and the slower caches are shared with whatever else the machine runs). Grows at three quarters
// full; 8 slots share a cache line, so a lookup rarely reads a second one.
class PackedStateMap {
public:
    static constexpr int kKeyBits = 39;  // decision_key's 37 bits, the chance memo's 39
    static constexpr int kValueBits = 24;

    explicit PackedStateMap(std::size_t initial_slots = 1024) { reset(initial_slots); }

    // The value stored under `key` (less than 2^kKeyBits), or false.
    bool find(uint64_t key, uint32_t& value) const {
        const uint64_t tagged = tag(key);
        for (std::size_t i = slot(tagged);; i = (i + 1) & mask_) {
            const uint64_t word = slots_[i];
            if ((word & kTaggedMask) == tagged) {
                value = static_cast<uint32_t>(word >> (kKeyBits + 1));
                return true;
            }
            if (word == 0) return false;
        }
    }

    // Stores `value` (less than 2^kValueBits) under a key not stored yet.
    void insert(uint64_t key, uint32_t value) {
        if (4 * (size_ + 1) > 3 * slots_.size()) grow();
        place(tag(key) | static_cast<uint64_t>(value) << (kKeyBits + 1));
    }

    // Starts fetching the slot `key` is looked up in first, for a find() soon after.
    void prefetch(uint64_t key) const { __builtin_prefetch(&slots_[slot(tag(key))]); }

    std::size_t size() const { return size_; }
    std::size_t slots() const { return slots_.size(); }

    // Forget everything, keeping the slots.
    void clear() {
        if (size_ == 0) return;
        std::fill(slots_.begin(), slots_.end(), uint64_t{0});
        size_ = 0;
    }

private:
    static constexpr uint64_t kTaggedMask = (uint64_t{1} << (kKeyBits + 1)) - 1;
    // The key with the bit above it set: a used slot is never 0.
    static uint64_t tag(uint64_t key) { return key | uint64_t{1} << kKeyBits; }
    std::size_t slot(uint64_t tagged) const { return static_cast<std::size_t>(detail::mix_key(tagged)) & mask_; }

    void reset(std::size_t slots) {
        slots_.assign(slots, 0);
        mask_ = slots - 1;
        size_ = 0;
    }

    void place(uint64_t word) {
        std::size_t i = slot(word & kTaggedMask);
        while (slots_[i] != 0) i = (i + 1) & mask_;
        slots_[i] = word;
        ++size_;
    }

    void grow() {
        std::vector<uint64_t> old;
        old.swap(slots_);
        reset(old.size() * 2);
        for (const uint64_t word : old) {
            if (word != 0) place(word);
        }
    }

    std::vector<uint64_t> slots_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

}  // namespace mh::kt
