// Package opts describes command-line options over values that parse
// themselves.
package opts

// Value is the value behind an option.
type Value interface {
	String() string
	Set(string) error
}

// Option is a defined option.
type Option struct {
	Name     string
	Value    Value
	Default  string
	Required bool
}

// Define describes the option name over value; its default is the
// value's text now.
func Define(value Value, name string) *Option {
	return &Option{Name: name, Value: value, Default: value.String()}
}
