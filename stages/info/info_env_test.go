package info

import (
	"bytes"
	"testing"

	"github.com/nccllog/nccllog/internal/gen"
)

// withoutCommonEnv is a set-up log without the variables every process sets: the job's only
// environment line is then the one a fault puts on one rank.
func withoutCommonEnv(data []byte) []byte {
	var out []byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if !bytes.Contains(l, []byte("NCCL_SOCKET_IFNAME set by")) && !bytes.Contains(l, []byte("NCCL_IB_GID_INDEX set by")) {
			out = append(out, l...)
		}
	}
	return out
}

// startsSetup reports whether fam's processes print a line at the start of their set-up
// (cudaDriverVersion from 2.13, the version line of every process from 2.22).
func startsSetup(fam string) bool { return fam != "rccl" && familyMinor(fam) >= 13 }

// TestInfoEnvOnOneProcess: a variable one process of sixteen sets, where the others print
// their set-up and no variable at all, is an outlier naming that rank, in every family whose
// processes print a line where their set-up starts. Where none does (before 2.13, RCCL) a
// process without environment lines is no evidence, as in an excerpt.
func TestInfoEnvOnOneProcess(t *testing.T) {
	const rank = 6
	for _, fam := range gen.SetupFamilies() {
		r := infoReport(t, withoutCommonEnv(setupLog(t, gen.SetupConfig{Family: fam, EnvRank: gen.Rank(rank)})), 0)
		want := 0
		if startsSetup(fam) {
			want = 1
		}
		if len(r.Outliers) != want {
			t.Errorf("%s: %d outliers, want %d:\n%s", fam, len(r.Outliers), want, describe(r.Outliers))
		}
		for _, o := range r.Outliers {
			if o.What != "env NCCL_IB_HCA" || o.Value != "mlx5_0,mlx5_1" || o.Majority != notSet || !onRank(rank)(o) {
				t.Errorf("%s: outlier\n%s", fam, describe([]Outlier{o}))
			}
		}
	}
}

// TestInfoEnvSilentOnCuts: a job whose processes all set the same variables, and one whose
// processes set none, give no outlier on any head, tail or middle piece of their set-up
// logs: a process whose environment lines the piece does not hold is no evidence. With
// -short, a third as many pieces.
func TestInfoEnvSilentOnCuts(t *testing.T) {
	t.Parallel() // independent of the other tests: its own data
	for _, fam := range gen.SetupFamilies() {
		for _, strip := range []bool{false, true} {
			data := setupLog(t, gen.SetupConfig{Family: fam})
			if strip {
				data = withoutCommonEnv(data)
			}
			lines := parsedLines(t, data)
			seen := allSetups(lines)
			n := len(lines)
			for k := 1; k < n; k += max(n/150, 1) * shortStride(12) {
				for _, cut := range [][2]int{{0, k}, {k, n}, {k / 2, k + (n-k)/2}} {
					if r := infoOfParsedSeen(lines[cut[0]:cut[1]], 0, seen); len(r.Outliers) != 0 {
						t.Fatalf("%s (no common env %v), lines %d-%d of %d: outliers\n%s", fam, strip, cut[0]+1, cut[1], n, describe(r.Outliers))
					}
				}
			}
		}
	}
}
