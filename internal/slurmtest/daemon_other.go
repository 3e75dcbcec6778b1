//go:build !linux

package slurmtest

import "syscall"

// dieWithParent has no equivalent outside Linux; the cleanups stop the daemons.
func dieWithParent() *syscall.SysProcAttr { return nil }
