// Command nccllog-gen writes a synthetic multi-rank NCCL_DEBUG=INFO training log.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nccllog/nccllog/internal/gen"
)

const about = `nccllog-gen writes a realistic, deterministic NCCL_DEBUG=INFO log of a
multi-rank training job (init blocks, COLL lines of every rank interleaved,
one progress line per step) for benchmarking and testing nccllog. The same
flags always give byte-identical output. Without --steps or --size it writes
100 steps.

Usage: nccllog-gen [flags]
`

// usageError is a mistake on the command line (exit status 2).
type usageError struct{ error }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, out, err := parseArgs(args, stdout)
	if errors.Is(err, pflag.ErrHelp) {
		return 0
	}
	if err == nil {
		err = generate(cfg, out, stdout)
	}
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "nccllog-gen: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func parseArgs(args []string, stdout io.Writer) (gen.Config, string, error) {
	fs := pflag.NewFlagSet("nccllog-gen", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	size := fs.String("size", "", "approximate output size: 1GiB, 100MiB, 500M (=MiB), 10MB (decimal) or plain bytes")
	steps := fs.Int("steps", 0, "number of training steps (default 100 unless --size is given)")
	seed := fs.Int64("seed", 1, "random seed")
	ranks := fs.Int("ranks", 16, "total number of ranks")
	perHost := fs.Int("ranks-per-host", 8, "ranks per host (hosts are gpu-node-00, gpu-node-01, ...)")
	prefix := fs.String("prefix", "", "launcher prefix on every line: srun, mpirun, torchrun or timestamp")
	progress := fs.String("progress", "nemo", "progress line style: nemo, megatron, torchtitan or none")
	noise := fs.Bool("noise", false, "add application lines, blank lines and NCCL WARNs")
	version := fs.String("nccl-version", "2.21.5", "NCCL version whose formats to use (2.18 or later)")
	output := fs.StringP("output", "o", "-", "output file (- for stdout)")
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		fmt.Fprint(stdout, about+"\nFlags:\n"+fs.FlagUsages())
		return gen.Config{}, "", err
	}
	if err != nil {
		return gen.Config{}, "", usageError{err}
	}
	if fs.NArg() > 0 {
		return gen.Config{}, "", usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	cfg := gen.Config{Seed: *seed, Ranks: *ranks, RanksPerHost: *perHost, Steps: *steps,
		Prefix: *prefix, Progress: *progress, Noise: *noise, NCCLVersion: *version}
	if *size != "" {
		if cfg.Size, err = parseSize(*size); err != nil {
			return cfg, "", usageError{err}
		}
	}
	if cfg.Steps == 0 && cfg.Size == 0 {
		cfg.Steps = 100
	}
	if cfg.Ranks < 1 || cfg.RanksPerHost < 1 {
		return cfg, "", usageError{errors.New("--ranks and --ranks-per-host must be at least 1")}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, "", usageError{err}
	}
	return cfg, *output, nil
}

// parseSize reads a byte count: plain bytes, K/M/G/T or KiB/MiB/GiB/TiB
// (powers of 1024), or KB/MB/GB/TB (powers of 1000). Case does not matter.
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	i := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	if i < 0 {
		i = len(t)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	mult, ok := sizeUnit(strings.TrimSpace(t[i:]))
	if !ok || (n > 0 && mult > (1<<62)/n) {
		return 0, fmt.Errorf("invalid size %q (use e.g. 1GiB, 100MiB, 500M or 4096)", s)
	}
	return n * mult, nil
}

func sizeUnit(u string) (int64, bool) {
	const units = "KMGT"
	if u == "" || u == "B" {
		return 1, true
	}
	k := strings.IndexByte(units, u[0])
	if k < 0 {
		return 0, false
	}
	bin, dec := int64(1)<<(10*(k+1)), int64(1)
	for j := 0; j <= k; j++ {
		dec *= 1000
	}
	switch u[1:] {
	case "", "IB":
		return bin, true
	case "B":
		return dec, true
	}
	return 0, false
}

// generate writes the log to the named file, or to stdout for "-".
func generate(cfg gen.Config, name string, stdout io.Writer) error {
	if name == "-" || name == "" {
		_, err := gen.Write(stdout, cfg)
		return err
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	_, werr := gen.Write(f, cfg)
	cerr := f.Close()
	if werr != nil {
		return werr
	}
	return cerr
}
