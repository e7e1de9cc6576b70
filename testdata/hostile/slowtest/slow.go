// Package slowtest has a test that takes minutes.
package slowtest

// Wait is how long TestSlow waits, in seconds.
const Wait = 300
