package golden

import "strings"

// Scheme calls a standard library function the runtime models.
func Scheme(url string) string {
	if strings.HasPrefix(url, "https:") {
		return "secure"
	}
	return "plain"
}
