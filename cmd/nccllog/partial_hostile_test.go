package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/nccllog/nccllog/internal/gen"
)

// testPartial is a partial result's JSON, its fields in the order summarize writes them, its
// stages left as JSON for a test to change.
type testPartial struct {
	Format   string          `json:"format"`
	Version  int             `json:"version"`
	Steps    json.RawMessage `json:"steps"`
	Boundary string          `json:"boundary"`
	Inputs   []testInput     `json:"inputs"`
	Parse    json.RawMessage `json:"parse"`
	Stages   []testStage     `json:"stages"`
}

type testInput struct {
	Name   string
	Lines  map[string]any
	Digest string `json:",omitempty"`
}

type testStage struct {
	Name string          `json:"name"`
	Data json.RawMessage `json:"data"`
}

// stage returns the data of the stage named name, decoded into a map.
func (p *testPartial) stage(t *testing.T, name string) map[string]any {
	t.Helper()
	for _, s := range p.Stages {
		if s.Name == name {
			var m map[string]any
			if err := json.Unmarshal(s.Data, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("no %s stage", name)
	return nil
}

func (p *testPartial) setStage(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Stages {
		if p.Stages[i].Name == name {
			p.Stages[i].Data = b
		}
	}
}

// summarizedJob summarizes a small generated job into dir/job.part and returns its path.
func summarizedJob(t *testing.T, dir string) string {
	t.Helper()
	files, err := gen.WriteFiles(dir, partialJobs[1].cfg)
	if err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "job.part")
	if _, stderr, code := runCLI(t, "", append([]string{"summarize", "-o", part}, files...)...); code != exitOK {
		t.Fatalf("summarize: exit %d: %s", code, stderr)
	}
	return part
}

func loadPartial(t *testing.T, path string) *testPartial {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := zstd.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var p testPartial
	if err := json.NewDecoder(zr).Decode(&p); err != nil {
		t.Fatal(err)
	}
	return &p
}

// bestEncoder is one zstd encoder, as summarize makes it but for a 1 MiB window, for every
// writeCompressed: making one per partial was most of what a test of a partial's checks cost.
// Its mutex lets parallel tests take turns (an encoder streams one frame at a time). Not at
// its best compression: that encoder's tens of MiB stayed live to the package's end, and
// under -short's collector goal the test binary's heap grew to 300 MB, its page faults a
// third of its CPU time. Nor with summarize's 8 MiB window, whose 16 MiB history (grown at
// the first partial of a few MB) stayed live likewise: the test binary's peak RSS about 180
// to 135 MB. A partial reads the same from a frame of either window.
var bestEncoder = sync.OnceValues(func() (*lockedEncoder, error) {
	zw, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(1<<20))
	return &lockedEncoder{zw: zw}, err
})

type lockedEncoder struct {
	sync.Mutex
	zw *zstd.Encoder
}

// writeCompressed writes data zstd-compressed to path.
func writeCompressed(t *testing.T, path string, data []byte) {
	t.Helper()
	var buf bytes.Buffer
	enc, err := bestEncoder()
	if err != nil {
		t.Fatal(err)
	}
	enc.Lock()
	defer enc.Unlock()
	zw := enc.zw
	zw.Reset(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func savePartial(t *testing.T, path string, p *testPartial) {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	writeCompressed(t, path, b)
}

// allocCap is the most a command may allocate over a hostile partial of a few KB.
const allocCap = 64 << 20

// refusedSmall runs args over the partial path and wants it refused: exit 1, one line naming
// it and saying want, nothing on stdout, and no more than allocCap allocated on the way.
func refusedSmall(t *testing.T, path, want string, args ...string) {
	t.Helper()
	if fi, err := os.Stat(path); err != nil || fi.Size() > 64<<10 {
		t.Fatalf("%s: %v, want a file of a few KB", path, err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, stderr, code := runCLI(t, "", append(args, path)...)
	runtime.ReadMemStats(&after)
	if code != exitData || out != "" || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, path) || !strings.Contains(stderr, want) {
		t.Errorf("%v over %s: exit %d, stdout %.200q, stderr %.300q: want exit 1, one line naming it and saying %q", args, path, code, out, stderr, want)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > allocCap {
		t.Errorf("%v over %s allocated %d MiB, more than %d MiB", args, path, n>>20, allocCap>>20)
	}
}

// TestPartialRepeatedRunsBounded: a run of calls written without its signatures repeats the
// run before; a partial of a few KB made of such runs once expanded to gigabytes (hang
// reached 1.4 GB, or died out of memory). Its calls are now bounded by its size.
func TestPartialRepeatedRunsBounded(t *testing.T) {
	dir := t.TempDir()
	p := loadPartial(t, summarizedJob(t, dir))
	ranks := p.stage(t, "ranks")
	const width, repeats = 1000, 8000 // 8 M calls, 128 MB once expanded
	sigs := make([]int, width)
	for i := range sigs {
		sigs[i] = 1
	}
	runs := []any{map[string]any{"t": 0, "n": width, "s": sigs, "o": 0, "d": 1}}
	for range repeats {
		runs = append(runs, map[string]any{"t": 0, "n": width, "o": 0})
	}
	groups := ranks["Groups"].([]any)
	groups[0].(map[string]any)["Ref"] = runs
	p.setStage(t, "ranks", ranks)
	path := filepath.Join(dir, "repeat.part")
	savePartial(t, path, p)
	refusedSmall(t, path, "its call sequences expand to more than", "hang")
}

// TestPartialLongString: a partial is read as a stream, and a string longer than any
// summarize writes is refused as it is read (a 13 KB partial declaring a 400 MB string
// reached 950 MB).
func TestPartialLongString(t *testing.T) {
	dir := t.TempDir()
	p := loadPartial(t, summarizedJob(t, dir))
	p.Inputs[0].Name = strings.Repeat("a", 2<<20)
	path := filepath.Join(dir, "string.part")
	savePartial(t, path, p)
	refusedSmall(t, path, "a string of more than", "report")
}

// TestPartialBomb: what a partial decompresses to is bounded by its size: 64 MiB of JSON
// whitespace (which the format allows anywhere) from a few KB is refused.
func TestPartialBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the memory bound of a 64 MiB partial runs without -short")
	}
	dir := t.TempDir()
	p := loadPartial(t, summarizedJob(t, dir))
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, []byte(`"stages":`)) + len(`"stages":`)
	bomb := append(append(append([]byte{}, b[:at]...), bytes.Repeat([]byte(" "), 64<<20)...), b[at:]...)
	path := filepath.Join(dir, "bomb.part")
	writeCompressed(t, path, bomb)
	refusedSmall(t, path, "decompresses to more than", "report")
}

// TestPartialCountsValidated: what a partial declares is checked as it is read: counts
// between 0 and 2^48 (a negative count printed "-55 lines", 2^63 wrapped when summed), parts
// that add up, ranks within their communicator, no more calls kept than a run keeps. Each
// is a one-line error naming the file and what is wrong.
func TestPartialCountsValidated(t *testing.T) {
	dir := t.TempDir()
	base := summarizedJob(t, dir)
	cases := []struct {
		name, want string
		change     func(p *testPartial)
		cmd        string // the command that reads what is changed
	}{
		{"negative input lines", `its count of lines of input`, func(p *testPartial) {
			p.Inputs[0].Lines["Total"] = -55
		}, "report"},
		{"huge line counts", `is 4611686018427387904`, func(p *testPartial) {
			p.Inputs[0].Lines["Total"] = 1 << 62
			p.Inputs[1].Lines["Total"] = 1 << 62
		}, "report"},
		{"classes do not add up", `its count of lines says`, func(p *testPartial) {
			lines := p.stage(t, "lines")
			lines["Total"] = lines["Total"].(float64) + 1
			p.setStage(t, "lines", lines)
		}, "report"},
		{"inputs do not add up", `its inputs' lines add up to`, func(p *testPartial) {
			p.Inputs = p.Inputs[1:]
		}, "report"},
		{"rank outside its communicator", `of 8 ranks holds rank 8`, func(p *testPartial) {
			ranks := p.stage(t, "ranks")
			g := ranks["Groups"].([]any)[0].(map[string]any)
			g["Members"].([]any)[0].(map[string]any)["Rank"] = 8
			p.setStage(t, "ranks", ranks)
		}, "hang"},
		{"more calls kept than a run keeps", `keeps more than 2048 calls to align`, func(p *testPartial) {
			ranks := p.stage(t, "ranks")
			g := ranks["Groups"].([]any)[0].(map[string]any)
			g["Members"].([]any)[0].(map[string]any)["Hist"] = []any{
				map[string]any{"t": 0, "n": 1, "s": []int{1}, "o": 0}, map[string]any{"t": 0, "n": 3000, "o": 0}}
			p.setStage(t, "ranks", ranks)
		}, "hang"},
		{"negative calls", `its count of AllGather calls of count`, func(p *testPartial) {
			agg := p.stage(t, "agg")
			agg["Groups"].([]any)[0].(map[string]any)["Calls"] = -1
			p.setStage(t, "agg", agg)
		}, "report"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := loadPartial(t, base)
			c.change(p)
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".part")
			savePartial(t, path, p)
			refusedSmall(t, path, c.want, c.cmd, "--format", "json")
			refusedSmall(t, path, "partial result is damaged", c.cmd)
		})
	}
}
