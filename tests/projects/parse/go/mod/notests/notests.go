// Package notests has no test files.
package notests

// Two is two.
func Two() int { return 2 }
