// Package limits holds the limits of package app.
package limits

// Max is the largest size allowed.
const Max = 4
