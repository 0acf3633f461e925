//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in its own process group, so that killGroup ends it
// and its children (the emulator and the function it runs).
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
