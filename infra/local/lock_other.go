//go:build !unix

package main

import "os"

// lockFile is the operating system's file lock where there is one; here
// the data folder is not locked.
func lockFile(*os.File) error { return nil }
