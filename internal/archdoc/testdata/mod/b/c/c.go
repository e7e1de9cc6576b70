// Package c is imported by b's tests only.
package c

// Word is a word.
const Word = "hi"
