// Helpers that give the bound C++ structs a Python face: documented
// attributes, a readable __repr__ and, for the result records, pickling, all
// derived from one list of fields so that they cannot disagree.
#ifndef FCSN_PYTHON_SRC_RECORD_H_
#define FCSN_PYTHON_SRC_RECORD_H_

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fcsn/types.h"

namespace fcsn::python {

namespace py = pybind11;

// Floats of results to four significant digits: a repr is for reading, the
// attribute keeps every bit.
inline py::str ShortRepr(const py::handle& value) {
  if (py::isinstance<py::float_>(value)) {
    return py::str("{:.4g}").format(value);
  }
  return py::repr(value);
}

// "Name(field=value, ...)" listing the fields whose value differs from a
// default-constructed instance: the options a user changed.
inline py::str OptionsRepr(const py::object& self) {
  const py::object type = py::type::of(self);
  const py::object defaults = type();
  const py::object property = py::module_::import("builtins").attr("property");
  py::list parts;
  for (const auto item : type.attr("__dict__").attr("items")()) {
    const auto pair = item.cast<py::tuple>();
    const std::string name = pair[0].cast<std::string>();
    if (name.front() == '_' || !py::isinstance(pair[1], property)) continue;
    const py::str value = py::repr(self.attr(name.c_str()));
    if (!value.equal(py::repr(defaults.attr(name.c_str())))) {
      parts.append(py::str("{}={}").format(name, value));
    }
  }
  return py::str("{}({})").format(type.attr("__name__"),
                                  py::str(", ").attr("join")(parts));
}

// Appends "Default: <value>." to the docstring of every scalar property, read
// from a default-constructed instance, so that help() shows the defaults the
// C++ headers define without restating them here.
inline void AppendDefaults(const py::object& type) {
  const py::object defaults = type();
  const py::object property = py::module_::import("builtins").attr("property");
  for (const auto item : type.attr("__dict__").attr("items")()) {
    const auto pair = item.cast<py::tuple>();
    const std::string name = pair[0].cast<std::string>();
    if (name.front() == '_' || !py::isinstance(pair[1], property)) continue;
    const py::object value = defaults.attr(name.c_str());
    const bool scalar =
        py::isinstance<py::bool_>(value) || py::isinstance<py::int_>(value) ||
        py::isinstance<py::float_>(value) || py::isinstance<py::str>(value);
    if (!scalar) continue;
    const py::object doc = pair[1].attr("__doc__");
    const std::string text = doc.is_none() ? "" : doc.cast<std::string>();
    pair[1].attr("__doc__") =
        py::str("{} Default: {}.").format(text, py::repr(value));
  }
}

// Binds the read-only fields of a result struct T and keeps their list for
// __repr__ and pickling (state: a dict by field name, so that a pickle from a
// build with fewer fields still loads).
template <typename T>
class RecordBinder {
 public:
  RecordBinder(py::module_& m, const char* name, const char* doc)
      : cls_(m, name, doc), fields_(std::make_shared<std::vector<Access>>()) {}

  template <typename F>
  RecordBinder& Field(const char* name, F T::*member, const char* doc) {
    cls_.def_readonly(name, member, doc);
    fields_->push_back(
        {name,
         [member](const T& o) { return py::cast(o.*member); },
         [member](T& o, const py::handle& v) { o.*member = v.cast<F>(); }});
    return *this;
  }

  // An enum field, as its ToString name.
  template <typename E, std::size_t N>
  RecordBinder& EnumField(const char* name,
                          E T::*member,
                          const std::array<E, N>& all,
                          const char* doc) {
    const std::string text =
        std::string(doc) + " One of: " + NamesOf(all) + ".";
    cls_.def_property_readonly(
        name,
        [member](const T& o) { return std::string(ToString(o.*member)); },
        text.c_str());
    fields_->push_back(
        {name,
         [member](const T& o) { return py::str(ToString(o.*member)); },
         [member, all, name](T& o, const py::handle& v) {
           const std::optional<E> e = FromStringIn(all, v.cast<std::string>());
           if (!e) throw py::value_error(std::string("bad ") + name);
           o.*member = *e;
         }});
    return *this;
  }

  py::class_<T>& cls() { return cls_; }

  // Adds __repr__ over `shown` (every field when empty, else those then
  // "...") and pickling of every field.
  void Finish(const std::vector<std::string>& shown = {}) {
    const auto fields = fields_;
    cls_.def("__repr__", [shown, fields](const py::object& self) {
      py::list parts;
      if (shown.empty()) {
        for (const Access& f : *fields) {
          parts.append(py::str("{}={}").format(
              f.name, ShortRepr(self.attr(f.name.c_str()))));
        }
      } else {
        for (const std::string& name : shown) {
          parts.append(py::str("{}={}").format(
              name, ShortRepr(self.attr(name.c_str()))));
        }
        parts.append("...");
      }
      return py::str("{}({})").format(py::type::of(self).attr("__name__"),
                                      py::str(", ").attr("join")(parts));
    });
    cls_.def(py::pickle(
        [fields](const T& o) {
          py::dict state;
          for (const Access& f : *fields) state[f.name.c_str()] = f.get(o);
          return state;
        },
        [fields](const py::dict& state) {
          T o;
          for (const Access& f : *fields) {
            if (state.contains(f.name)) f.set(o, state[f.name.c_str()]);
          }
          return o;
        }));
  }

 private:
  struct Access {
    std::string name;
    std::function<py::object(const T&)> get;
    std::function<void(T&, const py::handle&)> set;
  };
  py::class_<T> cls_;
  std::shared_ptr<std::vector<Access>> fields_;
};

}  // namespace fcsn::python

#endif  // FCSN_PYTHON_SRC_RECORD_H_
