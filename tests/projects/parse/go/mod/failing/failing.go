// Package failing holds arithmetic whose tests fail on purpose.
package failing

// Add adds, wrongly for negative numbers.
func Add(a, b int) int {
	if a < 0 {
		return a - b
	}
	return a + b
}
