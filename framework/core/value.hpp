// Value: the plain data a module may keep in the game state (module variables, piece
// properties, decision context). Nil, booleans, 64-bit integers, strings, and tables that are
// either arrays or string-keyed maps. No floating point: rule outcomes must be exact and
// serialise bit for bit.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace vedette::core {

class Value;
using Array = std::vector<Value>;
using Object = std::map<std::string, Value>;  // ordered: iteration order never leaks hashing

class Value {
public:
    using Storage = std::variant<std::monostate, bool, std::int64_t, std::string,
                                 std::shared_ptr<const Array>, std::shared_ptr<const Object>>;

    Value() = default;
    Value(bool b) : v_(b) {}
    Value(int i) : v_(std::int64_t{i}) {}
    Value(std::int64_t i) : v_(i) {}
    Value(const char* s) : v_(std::string(s)) {}
    Value(std::string s) : v_(std::move(s)) {}
    Value(Array a) : v_(std::make_shared<const Array>(std::move(a))) {}
    Value(Object o) : v_(std::make_shared<const Object>(std::move(o))) {}

    bool is_nil() const { return v_.index() == 0; }
    bool is_bool() const { return v_.index() == 1; }
    bool is_int() const { return v_.index() == 2; }
    bool is_string() const { return v_.index() == 3; }
    bool is_array() const { return v_.index() == 4; }
    bool is_object() const { return v_.index() == 5; }

    bool as_bool() const { return std::get<bool>(v_); }
    std::int64_t as_int() const { return std::get<std::int64_t>(v_); }
    const std::string& as_string() const { return std::get<std::string>(v_); }
    const Array& as_array() const { return *std::get<4>(v_); }
    const Object& as_object() const { return *std::get<5>(v_); }

    const Storage& storage() const { return v_; }
    friend bool operator==(const Value& a, const Value& b);

private:
    // Tables are shared immutably: copying a state copies pointers, not whole trees.
    Storage v_;
};

}  // namespace vedette::core
