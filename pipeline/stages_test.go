package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nccllog/nccllog/internal/gen"
	"github.com/nccllog/nccllog/parser"
	"github.com/nccllog/nccllog/stages"
	"github.com/nccllog/nccllog/stages/all"
)

// TestEveryStageIndependentOfChunkingAndOrder runs every registered stage over a job's
// per-process files and over its interleaved log, in chunks of a few lines and of a MiB, with
// one and two workers, with the files in order and reversed, and with every stretch that waits
// for its step past a cap of 1 byte (read ahead): each stage's Snapshot must
// come out the same. A new stage is held to this by being registered. With -short the job
// has 4 ranks and 5 steps (still past the selection 2-4) rather than 8 and 8, and each stage
// reads each way either with the selection or without it, alternating.
func TestEveryStageIndependentOfChunkingAndOrder(t *testing.T) {
	dir := t.TempDir()
	job := gen.Config{Seed: 11, Ranks: 8, RanksPerHost: 4, Steps: 8, Noise: true, Progress: "megatron"}
	if testing.Short() {
		job.Ranks, job.RanksPerHost, job.Steps = 4, 2, 5
	}
	files, err := gen.WriteFiles(dir, job)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := writeLog(t, dir, job)
	reversed := slices.Clone(files)
	slices.Reverse(reversed)
	reg := all.Registry()
	for si, name := range reg.Names() {
		for ri, steps := range []*stages.StepRange{nil, {From: 2, To: 4}} {
			plan := stages.MustPlan(stages.Config{Steps: steps}, reg, name)
			for seti, set := range [][]string{files, {one}} {
				if testing.Short() && (si+ri+seti)%2 != 0 {
					continue // -short: per stage and selection, the per-rank files or the one log (go test ./... reads both)
				}
				want := snapshot(t, set, plan, 1, 0, 0)
				for ci, c := range []struct {
					inputs               []string
					jobs, chunk, waitCap int
				}{{set, 2, 0, 0}, {set, 1, 700, 0}, {set, 2, 4 << 10, 0}, {reversed, 2, 700, 0}, {set, 2, 700, 1}} {
					if len(set) == 1 && len(c.inputs) > 1 {
						continue
					}
					if testing.Short() && (si+ci)%2 != 0 {
						continue // -short: every other way of reading, alternating with the stage (go test ./... runs all)
					}
					what := fmt.Sprintf("stage %s, steps %v, %d inputs, jobs %d, chunks %d, wait cap %d", name, steps, len(c.inputs), c.jobs, c.chunk, c.waitCap)
					if got := snapshot(t, c.inputs, plan, c.jobs, c.chunk, c.waitCap); got != want {
						t.Errorf("%s: snapshot differs (-want +got):\n%s", what, cmp.Diff(want, got))
					}
				}
			}
		}
	}
}

// snapshot runs the plan over the inputs and returns its stages' Snapshots as JSON; waitCap
// overrides stages.WaitCap where it is not 0.
func snapshot(t *testing.T, names []string, plan *stages.Plan, jobs, chunk, waitCap int) string {
	t.Helper()
	inputs := make([]Input, len(names))
	for i, n := range names {
		inputs[i] = Input{Name: n}
	}
	res, err := RunAll(context.Background(), inputs, Options{Jobs: jobs, ChunkSize: chunk, Plan: plan, waitCap: waitCap, Parsers: sharedParsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	snaps := make(map[string]any)
	for i, st := range plan.Stages {
		snaps[st.Name()] = res.Set.Parts[i].Snapshot()
	}
	b, err := json.MarshalIndent(snaps, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// commHosts is a toy stage written the way every stage is: it counts the communicator lines
// of the selected steps per host. Registering it is all it takes to run it.
type commHosts struct{}

func (commHosts) Name() string                      { return "commhosts" }
func (commHosts) Reads() stages.Reads               { return stages.ReadsSelected }
func (commHosts) Kinds() stages.KindSet             { return stages.Kinds(parser.KindComm) }
func (commHosts) New(*stages.Config) stages.Partial { return &commPart{by: map[string]int64{}} }

type commPart struct {
	by, open map[string]int64
}

func (p *commPart) Add(l *stages.Line) {
	if p.open == nil {
		p.open = map[string]int64{}
	}
	p.open[l.P.Env.Host]++
}

func (p *commPart) Settle(_ int64, selected bool) {
	for h, n := range p.open {
		if selected {
			p.by[h] += n
		}
	}
	clear(p.open)
}

func (p *commPart) Anchor(stages.Origin) {}

func (p *commPart) Merge(o stages.Partial) {
	op := o.(*commPart)
	for h, n := range op.by {
		p.by[h] += n
	}
	for h, n := range op.open {
		if p.open == nil {
			p.open = map[string]int64{}
		}
		p.open[h] += n
	}
}

func (p *commPart) Reset()        { clear(p.by); clear(p.open) }
func (p *commPart) Snapshot() any { return p.by }

// TestToyStage registers a stage in a test and runs it through the pipeline: no change to
// pipeline or cmd is needed to add an analysis. Its count must match the lines class count.
func TestToyStage(t *testing.T) {
	name, _ := writeLog(t, t.TempDir(), gen.Config{Seed: 4, Ranks: 4, RanksPerHost: 2, Steps: 6, Noise: true})
	reg := all.Registry()
	reg.Register(commHosts{})
	plan := stages.MustPlan(stages.Config{}, reg, "commhosts")
	res, err := RunAll(context.Background(), []Input{{Name: name}}, Options{Plan: plan, ChunkSize: 2 << 10, Parsers: sharedParsers()}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	part, ok := stages.Part[*commPart](res.Set)
	if !ok {
		t.Fatal("the toy stage's Partial is not in the Result")
	}
	var n int64
	for _, c := range part.by {
		n += c
	}
	if want := res.Lines().ByKind[parser.KindComm]; n != want || n == 0 || len(part.by) < 2 {
		t.Errorf("toy stage counted %d communicator lines on %d hosts, the line classes %d", n, len(part.by), want)
	}
}
