// Package buildfail compiles; its test does not.
package buildfail

// One is one.
func One() int { return 1 }
