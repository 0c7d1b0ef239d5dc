// Configs declared by a field list (docs/architecture.md "Configs declared once").
//
// A config's fields are written once, as an X-macro: one line per field giving its type, name,
// default and tags, the tags saying what reads the field (which half of a joined config it comes
// from, which cache keys hold it). From that list come the struct's members (MH_FIELD_MEMBER), its
// visitor (MH_FIELD_VISIT inside `for_each_field`), and through the visitor the binding and the
// pickling (bindings/fields.hpp), every cache key (`key_of`), every comparison of a key's fields
// (`same_fields`) and every join (`copy_fields`). A key that leaves a field out does so by the tags
// on the field's line, never by a second list.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

// One field of a field list: `type name = value;` with its tags.
#define MH_FIELD_MEMBER(type, name, value, tags) type name = value;
// One call of the visitor `visit(name, member pointer, tags)`, inside a struct naming itself `Self`.
#define MH_FIELD_VISIT(type, name, value, tags) visit(#name, &Self::name, static_cast<unsigned>(tags));
// The field's tags, as an element of an array of the list's tags.
#define MH_FIELD_TAGS(type, name, value, tags) static_cast<unsigned>(tags),
// Inside `struct Type`: the members of the field list LIST, their tags (kFieldTags) and the visitor
// (for_each_field) everything else is built on.
#define MH_DECLARE_FIELDS(Type, LIST)                                 \
    LIST(MH_FIELD_MEMBER)                                             \
    using Self = Type;                                                \
    static constexpr unsigned kFieldTags[] = {LIST(MH_FIELD_TAGS)};   \
    template <class Visit>                                            \
    static void for_each_field(Visit&& visit) {                       \
        LIST(MH_FIELD_VISIT)                                          \
    }

namespace mh::fields {

// A field whose value is a plain number, flag or enum (what a key or a pickled state holds as an int).
template <class M>
constexpr bool is_scalar_v = std::is_arithmetic_v<M> || std::is_enum_v<M>;

// How many fields of a list (its tags, one entry per field) carry `tag`.
template <std::size_t N>
constexpr std::size_t count_tagged(const unsigned (&tags)[N], unsigned tag) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < N; ++i) n += (tags[i] & tag) != 0 ? 1 : 0;
    return n;
}

// Whether every field of a list carries exactly one of `tags` (e.g. one half of a joined config).
template <std::size_t N>
constexpr bool each_has_one_of(const unsigned (&field_tags)[N], unsigned tags) {
    for (std::size_t i = 0; i < N; ++i) {
        const unsigned t = field_tags[i] & tags;
        if (t == 0 || (t & (t - 1)) != 0) return false;
    }
    return true;
}

// The key of `obj` for a cache reading the fields tagged `Tag`: their values in list order.
// Only scalar fields can be tagged for a key (a nested config has keys of its own).
template <unsigned Tag, class T>
std::array<int32_t, count_tagged(T::kFieldTags, Tag)> key_of(const T& obj) {
    std::array<int32_t, count_tagged(T::kFieldTags, Tag)> key{};
    std::size_t i = 0;
    T::for_each_field([&](const char*, auto member, unsigned tags) {
        using M = std::remove_reference_t<decltype(obj.*member)>;
        if constexpr (is_scalar_v<M>) {
            if ((tags & Tag) != 0) key[i++] = static_cast<int32_t>(obj.*member);
        } else {
            (void)tags;
        }
    });
    return key;
}

// Whether `a` and `b` agree on every field tagged `Tag` (nested configs and arrays of them
// compared on their own fields tagged `Tag`).
template <unsigned Tag, class T>
bool same_fields(const T& a, const T& b) {
    bool same = true;
    T::for_each_field([&](const char*, auto member, unsigned tags) {
        if ((tags & Tag) == 0 || !same) return;
        using M = std::remove_reference_t<decltype(a.*member)>;
        if constexpr (is_scalar_v<M>) {
            same = a.*member == b.*member;
        } else if constexpr (std::is_array_v<M>) {
            for (std::size_t k = 0; k < std::extent_v<M>; ++k) same = same && same_fields<Tag>((a.*member)[k], (b.*member)[k]);
        } else {
            same = same_fields<Tag>(a.*member, b.*member);
        }
    });
    return same;
}

// Copies into `to` every field of `from` tagged `Tag` (a join of partial configs).
template <unsigned Tag, class T>
void copy_fields(T& to, const T& from) {
    T::for_each_field([&](const char*, auto member, unsigned tags) {
        using M = std::remove_reference_t<decltype(to.*member)>;
        if constexpr (std::is_array_v<M>) {
            if ((tags & Tag) != 0) std::copy(std::begin(from.*member), std::end(from.*member), std::begin(to.*member));
        } else {
            if ((tags & Tag) != 0) to.*member = from.*member;
        }
    });
}

// A hash of a key (FNV-1a over its values), for the caches' unordered maps.
struct KeyHash {
    template <std::size_t N>
    std::size_t operator()(const std::array<int32_t, N>& key) const {
        uint64_t h = 1469598103934665603ull;
        for (const int32_t v : key) h = (h ^ static_cast<uint32_t>(v)) * 1099511628211ull;
        return static_cast<std::size_t>(h);
    }
};

}  // namespace mh::fields
