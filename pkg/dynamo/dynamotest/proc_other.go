//go:build !linux

package dynamotest

import "os/exec"

// setProcAttr leaves the defaults: java runs no child processes.
func setProcAttr(*exec.Cmd) {}

// kill kills the engine.
func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
