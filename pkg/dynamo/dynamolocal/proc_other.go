//go:build !linux

package dynamolocal

import (
	"os"
	"os/exec"
)

// setProcAttr leaves the defaults: java runs no child processes.
func setProcAttr(*exec.Cmd) {}

// terminate asks the engine to end (on Windows it is killed).
func terminate(cmd *exec.Cmd) {
	if cmd.Process.Signal(os.Interrupt) != nil {
		_ = cmd.Process.Kill()
	}
}

// kill kills the engine.
func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
