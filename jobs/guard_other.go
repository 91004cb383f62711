//go:build !unix

package jobs

// Without process groups there is no guard (guard_unix.go).

func ServeGuard() bool    { return false }
func UseGuard()           {}
func guardTell(byte, int) {}
func guardReady()         {}
