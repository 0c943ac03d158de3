// Package calc is a calculator whose tests testgate's end-to-end tests run.
package calc

// Add adds two numbers.
func Add(a, b int) int { return a + b }
