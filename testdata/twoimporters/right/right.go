// Package right calls into package shared.
package right

import "example.com/twoimporters/shared"

// Label names the grade of n.
func Label(n int) string {
	return []string{"low", "mid", "high"}[shared.Grade(n)]
}
