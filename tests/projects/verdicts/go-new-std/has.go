// Package newstd imports slices, in the standard library since go 1.21: an
// older go stops at `package slices is not in GOROOT`.
package newstd

import "slices"

// Has says whether s holds v.
func Has(s []int, v int) bool { return slices.Contains(s, v) }
