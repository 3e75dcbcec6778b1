package diagnose

import (
	"bytes"
	"slices"
	"strings"
)

// NCCL's shared memory transport makes a segment in /dev/shm for each pair of processes on
// a host and maps its peer's (src/misc/shmutils.cc; include/shm.h before 2.12). Its WARNs are
// system calls that failed there (`shmutils.cc:93 NCCL WARN Call to open failed: No such
// file or directory`), which the WARN's words alone file as any system call's.

// shmSite reports whether a WARN's source file (warnFile) is NCCL's shared memory code.
func shmSite(file []byte) bool {
	return bytes.HasPrefix(file, []byte("shmutils.")) || bytes.HasPrefix(file, []byte("shm.h:"))
}

// shmHint says what a shared memory finding's errno points to: a segment that could not be
// made or grown (no space: the host's or container's /dev/shm is too small or full, 64 MB
// by default in a container), or one its peer made that is not there to attach.
func shmHint(c *cand) string {
	if shmNoSpace(c) {
		return " (the host's /dev/shm is too small or full)"
	}
	for _, it := range c.items {
		if t := it.Text; strings.Contains(t, "attaching") && strings.Contains(t, "No such file") {
			return " (the segment its peer made was not found in /dev/shm)"
		}
	}
	return ""
}

// shmNoSpace reports whether a shared memory finding's WARNs say a segment could not be made
// or grown: no space left, a failed fallocate or extension, an error while creating one.
func shmNoSpace(c *cand) bool {
	return slices.ContainsFunc(c.items, func(it *Item) bool {
		t := it.Text
		return strings.Contains(t, "No space left") || strings.Contains(t, "fallocate") ||
			strings.Contains(t, "to extend") || strings.Contains(t, "while creating")
	})
}

// shmText is the WARN of a shared memory finding that names the segment (`Error while
// attaching to shared memory segment /dev/shm/nccl-Qw3rTy (size 0) ...`), which says more
// than the system call before it; text where none does.
func shmText(c *cand, text string) string {
	for _, it := range c.items {
		if it.Ev == evShm && strings.Contains(it.Text, "/dev/shm/") {
			return it.Text
		}
	}
	return text
}
