// The binding of a config declared by a field list (core/fields.hpp), written once: a read-write
// attribute per field, FIELD_TAGS (each field's readers by name) and pickling by the list, so
// process pools and Dask send a config as they send the profiles. Glue only.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/typing.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/fields.hpp"

namespace mh::bindings {

// A config's pickled state (its fields in list order) and a cache key, typed for the stubs.
using FieldState = pybind11::typing::Tuple<pybind11::object, pybind11::ellipsis>;
using KeyTuple = pybind11::typing::Tuple<int, pybind11::ellipsis>;
using FieldTags = pybind11::typing::Dict<pybind11::str, pybind11::typing::Tuple<pybind11::str, pybind11::ellipsis>>;

namespace detail {

// A field's value as the pickled state holds it: a number, a flag, an enum's int, or the state of a
// nested config (a tuple of its fields), an array of configs as a tuple of their states.
template <class T>
pybind11::tuple field_state(const T& obj);

template <class M>
pybind11::object value_state(const M& value) {
    if constexpr (std::is_same_v<M, bool>) {
        return pybind11::bool_(value);
    } else if constexpr (std::is_enum_v<M>) {
        return pybind11::int_(static_cast<long>(value));
    } else if constexpr (std::is_arithmetic_v<M>) {
        return pybind11::int_(value);
    } else if constexpr (std::is_array_v<M>) {
        pybind11::tuple items(std::extent_v<M>);
        for (std::size_t k = 0; k < std::extent_v<M>; ++k) items[k] = field_state(value[k]);
        return std::move(items);
    } else {
        return field_state(value);
    }
}

template <class T>
void set_field_state(T& obj, const pybind11::tuple& state);

template <class M>
void set_value(M& value, const pybind11::handle& state) {
    if constexpr (std::is_enum_v<M>) {
        value = static_cast<M>(state.cast<long>());
    } else if constexpr (std::is_arithmetic_v<M>) {
        value = state.cast<M>();
    } else if constexpr (std::is_array_v<M>) {
        const auto items = pybind11::reinterpret_borrow<pybind11::tuple>(state);
        if (items.size() != std::extent_v<M>) throw std::invalid_argument("pickled config: wrong number of items");
        for (std::size_t k = 0; k < std::extent_v<M>; ++k) set_field_state(value[k], items[k]);
    } else {
        set_field_state(value, pybind11::reinterpret_borrow<pybind11::tuple>(state));
    }
}

template <class T>
pybind11::tuple field_state(const T& obj) {
    std::size_t count = 0;
    T::for_each_field([&](const char*, auto, unsigned) { ++count; });
    pybind11::tuple state(count);
    std::size_t i = 0;
    T::for_each_field([&](const char*, auto member, unsigned) { state[i++] = value_state(obj.*member); });
    return state;
}

template <class T>
void set_field_state(T& obj, const pybind11::tuple& state) {
    std::size_t count = 0;
    T::for_each_field([&](const char*, auto, unsigned) { ++count; });
    if (state.size() != count) throw std::invalid_argument("pickled config: wrong number of fields");
    std::size_t i = 0;
    T::for_each_field([&](const char*, auto member, unsigned) { set_value(obj.*member, state[i++]); });
}

// Sets each field named in `values` ({field: value}) from its value, as an attribute write would: the
// plans build a config in one call instead of one attribute write per field (each costs several
// times a dict entry). A name that is not a field of the list is an error.
template <class T>
struct FieldSetter {
    pybind11::object name;  // interned: the names written in Python code are the same objects
    std::function<void(T&, pybind11::handle)> set;
};

// Each field of T's list (arrays of configs aside) with how to set it from a Python value, made once
// (under the GIL) and kept for the process.
template <class T>
const std::vector<FieldSetter<T>>& field_setters() {
    static const auto* setters = [] {
        auto* out = new std::vector<FieldSetter<T>>;
        T::for_each_field([&](const char* name, auto member, unsigned) {
            using M = std::remove_reference_t<decltype(std::declval<T&>().*member)>;
            if constexpr (!std::is_array_v<M>) {
                out->push_back({pybind11::reinterpret_steal<pybind11::object>(PyUnicode_InternFromString(name)),
                                [member](T& obj, pybind11::handle value) { obj.*member = value.cast<M>(); }});
            }
        });
        return out;
    }();
    return *setters;
}

// Sets each field named in `values` ({field: value}) from its value, as an attribute write would: the
// plans build a config in one call instead of one attribute write per field (each costs several
// times a dict entry). A name that is not a field of the list is an error.
template <class T>
void assign_fields(T& obj, const pybind11::dict& values) {
    const auto& setters = field_setters<T>();
    for (const auto& [key, value] : values) {
        const FieldSetter<T>* found = nullptr;
        for (const auto& setter : setters) {
            if (setter.name.ptr() == key.ptr()) {
                found = &setter;
                break;
            }
        }
        if (found == nullptr) {  // a name made at run time: compared by value
            for (const auto& setter : setters) {
                if (setter.name.equal(key)) {
                    found = &setter;
                    break;
                }
            }
        }
        if (found == nullptr) throw pybind11::key_error("not a field: " + std::string(pybind11::str(key)));
        found->set(obj, value);
    }
}

// A key as a tuple of ints (hashable: the Python side caches by it too).
template <std::size_t N>
KeyTuple key_tuple(const std::array<int32_t, N>& key) {
    pybind11::tuple out(N);
    for (std::size_t k = 0; k < N; ++k) out[k] = pybind11::int_(key[k]);
    return KeyTuple(std::move(out));
}

}  // namespace detail

// Binds every field of `cls`'s list (arrays of configs aside: the game binds them by name), the
// static field_tags() ({field: (reader, ...)} in list order, the readers named by `tag_names`) and
// its pickling.
template <class T, class TagNames>
pybind11::class_<T>& bind_fields(pybind11::class_<T>& cls, const TagNames& tag_names) {
    T::for_each_field([&](const char* name, auto member, unsigned) {
        using M = std::remove_reference_t<decltype(std::declval<T&>().*member)>;
        if constexpr (!std::is_array_v<M>) cls.def_readwrite(name, member);
    });
    cls.def_static(
        "field_tags",
        [tag_names] {
            FieldTags out;
            T::for_each_field([&](const char* name, auto, unsigned tags) {
                pybind11::list readers;
                for (const auto& tag : tag_names) {
                    if ((tags & tag.tag) != 0) readers.append(tag.name);
                }
                out[name] = pybind11::tuple(readers);
            });
            return out;
        },
        "Each field of the config's list in order, with what reads it (its tags)");
    cls.def_static(
        "from_fields",
        [](const pybind11::typing::Dict<pybind11::str, pybind11::object>& values) {
            T obj;
            detail::assign_fields(obj, values);
            return obj;
        },
        pybind11::arg("values"), "A config with the defaults, then each field named in `values` set to its value");
    cls.def(pybind11::pickle([](const T& obj) { return FieldState(detail::field_state(obj)); },
                             [](const FieldState& state) {
                                 T obj;
                                 detail::set_field_state(obj, state);
                                 return obj;
                             }));
    return cls;
}

// Pickling for a struct built by aggregate initialisation from `members` in order (T{a, b, ...}),
// bound with a constructor of the same arguments: the state is their values.
template <class T, class... M>
auto pickle_members(M T::*... members) {
    return pybind11::pickle([members...](const T& obj) { return FieldState(pybind11::make_tuple(obj.*members...)); },
                            [](const FieldState& state) {
                                if (state.size() != sizeof...(M)) {
                                    throw std::invalid_argument("pickled config: wrong number of fields");
                                }
                                std::size_t i = 0;
                                return T{state[i++].template cast<M>()...};  // braced: left to right
                            });
}

}  // namespace mh::bindings
