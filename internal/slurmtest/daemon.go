package slurmtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// daemon is one process the cluster started in the foreground, with its output in a file.
type daemon struct {
	name   string
	log    string
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited and been reaped
	err    error         // Wait's result, valid once exited is closed
}

// startDaemon runs path with args in the foreground, output to logPath.
func startDaemon(name, logPath string, env []string, path string, args ...string) (*daemon, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = dieWithParent()
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	d := &daemon{name: name, log: logPath, cmd: cmd, exited: make(chan struct{})}
	go func() {
		d.err = cmd.Wait()
		out.Close()
		close(d.exited)
	}()
	return d, nil
}

// running reports an error if the daemon has already exited.
func (d *daemon) running() error {
	select {
	case <-d.exited:
		return fmt.Errorf("%s exited (%v): %s", d.name, d.err, d.tail())
	default:
		return nil
	}
}

// stop sends SIGTERM to the daemon's pid and waits for it, then SIGKILL after grace.
func (d *daemon) stop(grace time.Duration) error {
	if d.running() != nil {
		return nil
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("%s (pid %d): %v", d.name, d.cmd.Process.Pid, err)
	}
	select {
	case <-d.exited:
		return nil
	case <-time.After(grace):
	}
	if err := d.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("%s (pid %d): %v", d.name, d.cmd.Process.Pid, err)
	}
	<-d.exited
	return fmt.Errorf("%s (pid %d) ignored SIGTERM for %v and was killed", d.name, d.cmd.Process.Pid, grace)
}

// tail is the last lines of the daemon's output, on one line, for error messages.
func (d *daemon) tail() string {
	b, err := os.ReadFile(d.log)
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	lines = lines[max(0, len(lines)-3):]
	return string(bytes.Join(lines, []byte(" | ")))
}
