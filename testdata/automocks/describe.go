package automocks

import "reflect"

// storeType is the reflect.Type of Store.
var storeType = reflect.TypeFor[Store]()

// Describe says, by reflection, whether v is a Store, a pointer to a
// variable holding one, or something else.
func Describe(v any) string {
	if v == nil {
		return "nil"
	}
	t := reflect.TypeOf(v)
	if t.Implements(storeType) {
		return "store"
	}
	if t.Kind() == reflect.Pointer && t.Elem().Implements(storeType) {
		return "pointer to a store"
	}
	return "other"
}
