package slurmtest

import "syscall"

// dieWithParent makes the kernel send SIGTERM to a daemon when the test binary dies without
// running its cleanups (a panic on -timeout), so no daemon outlives the test.
func dieWithParent() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
