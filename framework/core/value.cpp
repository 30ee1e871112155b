#include "core/value.hpp"

namespace vedette::core {

bool operator==(const Value& a, const Value& b) {
    if (a.v_.index() != b.v_.index()) return false;
    if (a.is_array()) return a.as_array() == b.as_array();
    if (a.is_object()) return a.as_object() == b.as_object();
    return a.v_ == b.v_;
}

}  // namespace vedette::core
