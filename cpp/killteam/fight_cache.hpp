// The lookahead cache: an open-addressing hash map from a packed fight state to a packed answer.
//
// Keys are never 0 (decision_key sets the top bit), so 0 marks an empty slot. Values are looked
// up by copy: a lookup never hands out a reference that a later insert (a rehash) could move.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mh::kt {

class StateMap {
public:
    explicit StateMap(std::size_t initial_slots = 1024) { reset(initial_slots); }

    // The value stored under `key`, or false.
    bool find(uint64_t key, uint32_t& value) const {
        for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
            if (keys_[i] == key) {
                value = values_[i];
                return true;
            }
            if (keys_[i] == 0) return false;
        }
    }

    void insert(uint64_t key, uint32_t value) {
        if (2 * (size_ + 1) > keys_.size()) grow();
        place(key, value);
    }

    std::size_t size() const { return size_; }

    // Forget everything, keeping the slots.
    void clear() {
        std::fill(keys_.begin(), keys_.end(), 0);
        size_ = 0;
    }

private:
    static uint64_t mix(uint64_t x) {  // splitmix64 finaliser: neighbouring states spread out
        x ^= x >> 30;
        x *= 0xBF58476D1CE4E5B9ULL;
        x ^= x >> 27;
        x *= 0x94D049BB133111EBULL;
        return x ^ (x >> 31);
    }
    std::size_t slot(uint64_t key) const { return static_cast<std::size_t>(mix(key)) & mask_; }

    void reset(std::size_t slots) {
        keys_.assign(slots, 0);
        values_.assign(slots, 0);
        mask_ = slots - 1;
        size_ = 0;
    }

    void place(uint64_t key, uint32_t value) {
        std::size_t i = slot(key);
        while (keys_[i] != 0 && keys_[i] != key) i = (i + 1) & mask_;
        if (keys_[i] == 0) ++size_;
        keys_[i] = key;
        values_[i] = value;
    }

    void grow() {
        std::vector<uint64_t> old_keys;
        std::vector<uint32_t> old_values;
        old_keys.swap(keys_);
        old_values.swap(values_);
        reset(old_keys.size() * 2);
        for (std::size_t i = 0; i < old_keys.size(); ++i) {
            if (old_keys[i] != 0) place(old_keys[i], old_values[i]);
        }
    }

    std::vector<uint64_t> keys_;
    std::vector<uint32_t> values_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

}  // namespace mh::kt
