package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// gPrefix is one launcher or collector prefix in front of a line. Only prefixes at the very
// start of a line are read as prefixes; anything else before an envelope is skipped as junk.
type gPrefix struct {
	Srun  *decNum   `parser:"(  Sp? @Word ':' Sp"` // Slurm right-aligns the label: " 3: "
	Mpi   *gMpi     `parser:" | '[' @@"`
	Torch *rankWord `parser:" | '[' @Word ']' ':'"`
	Label *gLabel   `parser:" | '[' @@"`
	Stamp *gStamp   `parser:" | '[' @@"`
	Ray   *gRay     `parser:" | '(' @@ ) Sp?"`
	// EndPos is where the prefix ends (participle sets it).
	EndPos lexer.Position
}

// prefixEnd returns where the prefixes ps end in their line: where its text starts.
func prefixEnd(ps []*gPrefix) int {
	if len(ps) == 0 {
		return 0
	}
	return ps[len(ps)-1].EndPos.Offset
}

// gMpi is OpenMPI's --tag-output prefix `parser:"[1,3]<stdout>:"`; the second number is the rank.
type gMpi struct {
	Job  decNum `parser:"@Word ','"`
	Rank decNum `parser:"@Word ']' '<' ('stdout' | 'stderr') '>' ':'"`
}

// gStamp is a collector or NCCL timestamp `parser:"[2026-03-01 12:00:00] "` (any text up to `parser:"]"` after
// a date).
type gStamp struct {
	Year yearWord `parser:"@Word '-' Word '-' Word"`
	Rest []string `parser:"@(~']')* ']'"`
}

// gRay is Ray's `parser:"(RayWorker pid=615, ip=10.72.7.6) "` prefix, and SkyPilot's
// `parser:"(worker1, rank=1, pid=2634, ip=10.0.0.2) "` (its rank is the node's, no global rank).
type gRay struct {
	Actor string  `parser:"( @Word"`
	Node  *decNum `parser:"  ( ',' Sp 'rank' '=' @Word ',' )? Sp )? 'pid' '='"` // a Ray task has no actor name: "(pid=927) "
	Pid   decNum  `parser:"@Word"`
	IP    string  `parser:"(',' Sp 'ip' '=' @Word)? ')'"`
}

// rankWord is torchrun's `parser:"rank3"` / `parser:"default3"` label.
type rankWord int64

func (r *rankWord) Capture(values []string) error {
	s := strings.Join(values, "")
	for _, p := range [...]string{"rank", "default"} {
		if strings.HasPrefix(s, p) {
			v, err := parseDec(s[len(p):])
			if err == nil && v >= 0 {
				*r = rankWord(v)
				return nil
			}
		}
	}
	return errNumber
}

// yearWord is the four-digit year that opens a timestamp.
type yearWord int64

func (y *yearWord) Capture(values []string) error {
	s := strings.Join(values, "")
	v, err := parseDec(s)
	if err != nil || len(s) != 4 {
		return errNumber
	}
	*y = yearWord(v)
	return nil
}

// rank returns the launcher rank a prefix carries, or -1.
func (p *gPrefix) rank() int64 {
	switch {
	case p.Srun != nil:
		return int64(*p.Srun)
	case p.Mpi != nil:
		return int64(p.Mpi.Rank)
	case p.Torch != nil:
		return int64(*p.Torch)
	}
	return -1
}
