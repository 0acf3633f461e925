//go:build unix

package main

import (
	"os"
	"syscall"
)

// lockFile takes f's exclusive lock without waiting; closing f (or the
// process ending) releases it.
func lockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
