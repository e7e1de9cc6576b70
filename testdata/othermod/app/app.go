// Package app prices products.
package app

import "example.com/lib/check"

// Price returns the price of a product in cents.
func Price(code string) int {
	switch check.Kind(code) {
	case "tool":
		return 1200
	case "part":
		return 300
	}
	return -1
}
