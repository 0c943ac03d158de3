package calc

// Add adds, wrongly.
func Add(a, b int) int { return a - b }
