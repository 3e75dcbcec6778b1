package gen

import (
	"bufio"
	"fmt"
	"io"
)

// SetupConfig describes a set-up log: the INFO lines every rank of one communicator prints
// at init (version, network, NICs, environment, Init lines, connections, channel counts,
// init timings, TUNING on rank 0), in one version family's forms, with optional set-up
// faults. WriteSetup writes it; it shares nothing with Write's training logs.
type SetupConfig struct {
	// Family is the version family whose line forms are used: "2.4", "2.8", "2.12", "2.18",
	// "2.22", "2.26", "2.30" or "rccl" (RCCL 2.21.5).
	Family       string
	Hosts        int // default 4
	RanksPerHost int // default 4
	// OneProcess makes each host one process that drives all its GPUs (ncclCommInitAll,
	// nccl-tests -g N), each rank on its own thread.
	OneProcess bool

	// Faults; nil is off. Each changes only the named host's or rank's lines.
	SocketHost  *int // the host's ranks find no IB device and use NET/Socket
	NoGDRHost   *int // the host's network links run without GPUDirect RDMA
	EnvRank     *int // the rank alone sets NCCL_IB_HCA
	VersionRank *int // the rank runs another NCCL patch release (families 2.22 and later)
	WarnRank    *int // the rank's proxy thread prints a WARN and its backtrace chain
}

// WriteSetup writes the set-up log c describes to w. The same SetupConfig always gives the
// same bytes.
func WriteSetup(w io.Writer, c SetupConfig) error {
	s, err := newSetupGen(c)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	s.write(bw)
	return bw.Flush()
}

// setupFamily is what differs between the version families.
type setupFamily struct {
	version string // printed version, e.g. 2.22.3+cuda12.4
	minor   int
	rccl    bool
}

var setupFamilies = map[string]setupFamily{
	"2.4": {"2.4.8+cuda10.0", 4, false}, "2.8": {"2.8.4+cuda11.2", 8, false},
	"2.12": {"2.12.12+cuda11.6", 12, false}, "2.18": {"2.18.3+cuda12.2", 18, false},
	"2.22": {"2.22.3+cuda12.4", 22, false}, "2.26": {"2.26.2+cuda12.8", 26, false},
	"2.30": {"2.30.7+cuda13.0", 30, false}, "rccl": {"2.21.5-5f4c0ac", 21, true},
}

// SetupFamilies lists the families WriteSetup knows, oldest first.
func SetupFamilies() []string {
	return []string{"2.4", "2.8", "2.12", "2.18", "2.22", "2.26", "2.30", "rccl"}
}

type setupGen struct {
	c   SetupConfig
	f   setupFamily
	n   int
	out [][]string // each rank's lines, in order
}

func newSetupGen(c SetupConfig) (*setupGen, error) {
	if c.Hosts == 0 {
		c.Hosts = 4
	}
	if c.RanksPerHost == 0 {
		c.RanksPerHost = 4
	}
	f, ok := setupFamilies[c.Family]
	if !ok {
		return nil, fmt.Errorf("unknown set-up family %q (want one of %v)", c.Family, SetupFamilies())
	}
	if c.Hosts < 1 || c.RanksPerHost < 1 {
		return nil, fmt.Errorf("hosts and ranks per host must be at least 1")
	}
	n := c.Hosts * c.RanksPerHost
	for _, r := range []*int{c.EnvRank, c.VersionRank, c.WarnRank} {
		if r != nil && (*r < 0 || *r >= n) {
			return nil, fmt.Errorf("rank %d is not a rank (want 0..%d)", *r, n-1)
		}
	}
	for _, h := range []*int{c.SocketHost, c.NoGDRHost} {
		if h != nil && (*h < 0 || *h >= c.Hosts) {
			return nil, fmt.Errorf("host %d is not a host (want 0..%d)", *h, c.Hosts-1)
		}
	}
	if c.VersionRank != nil && (f.minor < 22 || f.rccl) {
		return nil, fmt.Errorf("family %s prints the version on rank 0 only: no rank can differ", c.Family)
	}
	return &setupGen{c: c, f: f, n: n, out: make([][]string, n)}, nil
}

// write renders every rank's lines and interleaves them: one line of each rank in turn, as
// ranks that start together print.
func (s *setupGen) write(w *bufio.Writer) {
	if !s.f.rccl && s.f.minor < 22 || s.f.rccl {
		s.bareVersion(w)
	}
	for r := 0; r < s.n; r++ {
		s.rankLines(r)
	}
	for i := 0; ; i++ {
		any := false
		for r := range s.out {
			if i < len(s.out[r]) {
				w.WriteString(s.out[r][i])
				w.WriteByte('\n')
				any = true
			}
		}
		if !any {
			return
		}
	}
}

// bareVersion is the version line rank 0 prints without an envelope before 2.22, and RCCL's
// header block.
func (s *setupGen) bareVersion(w *bufio.Writer) {
	if s.f.rccl {
		fmt.Fprintf(w, "RCCL version : %s\nHIP version  : 6.2.41133-dd7f95766\nROCm version : 6.2.0.0-66-1b6e4b3\nHostname     : %s\n", s.f.version, setupHost(0))
		return
	}
	fmt.Fprintf(w, "NCCL version %s\n", s.f.version)
}

func setupHost(h int) string { return fmt.Sprintf("node-%02d", h) }
