// Package tooold uses min, a builtin only since go 1.21: an older go fails
// to build it and says that the module requires a newer Go.
package tooold

// Least is the smaller of a and b.
func Least(a, b int) int { return min(a, b) }
