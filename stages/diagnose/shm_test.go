package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/nccllog/nccllog/stages/diagnose"
)

// TestShmHint: a shared memory finding says what its errno points to: a segment that could
// not be made (the host's /dev/shm too small or full), or a peer's that is not there; and
// nothing where the WARN names neither.
func TestShmHint(t *testing.T) {
	data, ps := warnJob(t)
	p := ps[5]
	for _, c := range []struct{ name, lines, want string }{
		{"create", chain(p, "misc/shmutils.cc:95", "Error while creating shared memory segment /dev/shm/nccl-Qw3rTy (size 9437184)", 2, "transport/shm.cc:120"),
			"(the host's /dev/shm is too small or full)"},
		{"fallocate", warnAt(p, 7005, "include/shm.h:48", "Call to posix_fallocate failed : No space left on device"),
			"(the host's /dev/shm is too small or full)"},
		{"attach", warnAt(p, 7005, "misc/shmutils.cc:93", "Call to open failed: No such file or directory") +
			warnAt(p, 7005, "misc/shmutils.cc:129", "Error while attaching to shared memory segment /dev/shm/nccl-Qw3rTy (size 0), error: No such file or directory (2)"),
			"(the segment its peer made was not found in /dev/shm)"},
		{"mmap", warnAt(p, 7005, "misc/shmutils.cc:110", "Call to mmap failed: Cannot allocate memory"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := diagnoseBytes(t, "job.log", append(slices.Clone(data), c.lines...), 0)
			if r.Status != diagnose.StatusFault || r.Findings[0].Kind != diagnose.KindShm {
				t.Fatalf("want a shm-error first:\n%s", js(r))
			}
			s := r.Findings[0].Summary
			if !strings.Contains(s, "could not make or attach a shared memory segment first") {
				t.Errorf("summary %q", s)
			}
			if c.want != "" && !strings.Contains(s, c.want) {
				t.Errorf("summary %q, want %q", s, c.want)
			}
			if c.want == "" && strings.Contains(s, "/dev/shm is") {
				t.Errorf("summary %q guesses a cause the WARN does not name", s)
			}
		})
	}
	// A WARN of another file with the same words is any system call's.
	r := diagnoseBytes(t, "job.log", append(slices.Clone(data), warnAt(p, 7005, "misc/utils.cc:93", "Call to open failed: No such file or directory")...), 0)
	if len(r.Findings) > 0 && r.Findings[0].Kind == diagnose.KindShm {
		t.Errorf("a system call outside the shared memory code is a shm-error:\n%s", js(r))
	}
}

// TestShmNoSpaceFirst: a segment that could not be made for want of room in /dev/shm comes
// before a CUDA error printed after it where neither names a process or a time: the host
// lacked the room, and the peers' kernels failed after it; a CUDA error printed first still
// comes first.
func TestShmNoSpaceFirst(t *testing.T) {
	shm := "misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-nyj24T to 10486116 bytes, error: No space left on device (28)\n"
	cuda := "terminate called after throwing an instance of 'EPException'\n  what():  Failed: CUDA error deep_ep.cpp:89 'an illegal memory access was encountered'\n"
	for _, c := range []struct {
		name, log string
		want      diagnose.Kind
	}{
		{"shm then cuda", shm + cuda, diagnose.KindShm},
		{"cuda then shm", cuda + shm, diagnose.KindCudaError},
	} {
		r := diagnoseBytes(t, "job.log", []byte(c.log), 0)
		if r.Status != diagnose.StatusFault || r.Findings[0].Kind != c.want {
			t.Errorf("%s: want a %s first:\n%s", c.name, c.want, js(r))
		}
	}
}
