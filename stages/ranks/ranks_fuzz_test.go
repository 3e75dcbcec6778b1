package ranks

import (
	"testing"

	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
)

// FuzzRanks feeds Ranks arbitrary sequences of calls, Init, layout and Abort lines of a few
// processes, split over two files, and checks that hang and check never panic and that every
// rank's calls lie inside its communicator's sequence.
func FuzzRanks(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{1, 0, 0, 2, 1, 0, 0, 1, 0, 5, 3, 0, 9, 1, 0, 4, 3, 0, 3, 2, 200, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		half := len(data) / 8 * 4
		a, b := NewRanks(&stages.Config{}), NewRanks(&stages.Config{})
		feed(a, "a.log", data[:half])
		feed(b, "b.log", data[half:])
		a.Merge(b)
		for _, g := range a.Groups() {
			for _, m := range g.Members {
				if m.Start < 0 || m.Through() > g.ref.len() || m.FirstDiv() >= g.ref.len() {
					t.Fatalf("rank at %d-%d, first divergence %d, sequence of %d", m.Start, m.Through(), m.FirstDiv(), g.ref.len())
				}
			}
			a.Cover(g)
		}
		a.Hang()
		a.Check()
	})
}

// feed turns each 4 bytes into one line: kind, process, opCount and call shape.
func feed(r *Ranks, file string, data []byte) {
	for _, e := range fedEvents(file, data) {
		r.Add(file, &e)
	}
}

// fedEvents are the lines feed makes of data, as events of file.
func fedEvents(file string, data []byte) []RankEvent {
	var out []RankEvent
	ops := []parser.Op{"AllReduce", "AllGather", "Send", "Broadcast"}
	for i := 0; i+4 <= len(data); i += 4 {
		k, p, op, sh := data[i], int64(data[i+1]%4), uint64(data[i+2]), data[i+3]
		e := RankEvent{File: file, Line: int64(i), Step: int64(sh%3) - 1, Host: "h" + itoa(p%2), Pid: p, Dev: int64(sh % 2), Kind: parser.KindCollective}
		n := int64(2 + k%3)
		comm := &parser.CommEvent{Comm: uint64(1 + sh%2), Rank: int64(sh) % n, NRanks: n, CudaDev: -1, NNodes: 2, LocalRks: 1}
		switch k % 5 {
		case 0:
			comm.Event, comm.CommID = "Init COMPLETE", uint64(k%2)
			e.Kind, e.Comm = parser.KindComm, comm
		case 1:
			comm.Event = parser.EventLayout
			e.Kind, e.Comm = parser.KindComm, comm
		case 2:
			comm.Event = "Abort COMPLETE"
			e.Kind, e.Comm = parser.KindComm, comm
		default:
			e.Coll = parser.Collective{Op: ops[sh%4], OpCount: op % 7, Count: int64(sh % 5), Datatype: 7, Comm: uint64(1 + sh%2),
				NRanks: n, Root: int64(sh % 2), GlobalRank: int64(sh%3) - 1}
		}
		out = append(out, e)
	}
	return out
}
