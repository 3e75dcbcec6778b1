package gen

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strconv"
)

// lineWriter passes on whole lines that keep accepts, and after each calls after (if set),
// which may write lines of its own. n counts the bytes passed on.
type lineWriter struct {
	w       io.Writer
	keep    func(line []byte) bool
	after   func(line []byte) []byte
	partial []byte
	n       int64
	limit   int64 // where set, a Write past this many bytes fails with errEnough
}

func (lw *lineWriter) Write(b []byte) (int, error) {
	total := len(b)
	if lw.limit > 0 && lw.n >= lw.limit {
		return 0, errEnough
	}
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			lw.partial = append(lw.partial, b...)
			break
		}
		line := b[:nl+1]
		if len(lw.partial) > 0 {
			line = append(lw.partial, line...)
			lw.partial = lw.partial[:0]
		}
		if err := lw.line(line); err != nil {
			return 0, err
		}
		b = b[nl+1:]
	}
	return total, nil
}

func (lw *lineWriter) line(line []byte) error {
	if lw.keep != nil && !lw.keep(line) {
		return nil
	}
	n, err := lw.w.Write(line)
	lw.n += int64(n)
	if err != nil || lw.after == nil {
		return err
	}
	n, err = lw.w.Write(lw.after(line))
	lw.n += int64(n)
	return err
}

// writeJobMix writes torchrun job output until size is reached: a 16-rank log with
// [rankN]: prefixes, WARNs and tqdm bars, and after about every other NCCL line one to four
// lines of the training script's own: log lines, free text whose first words vary, loader
// progress and Python tracebacks, half of them with the rank's prefix.
func writeJobMix(w io.Writer, size, seed int64) error {
	app := appWriter{rng: rand.New(rand.NewPCG(uint64(seed)+1, pcgStream))}
	lw := &lineWriter{w: w, after: app.after}
	_, err := Write(lw, Config{Seed: seed, Size: size / 2, Prefix: "torchrun", Noise: true})
	return err
}

// appWriter makes the script's lines.
type appWriter struct {
	rng *rand.Rand
	buf []byte
}

func (a *appWriter) after(line []byte) []byte {
	a.buf = a.buf[:0]
	if a.rng.IntN(2) == 0 {
		return a.buf
	}
	for k := a.rng.IntN(4); k >= 0; k-- {
		if a.rng.IntN(2) == 0 {
			a.buf = append(a.buf, line[:bytes.IndexByte(line, ':')+1]...) // [rankN]:
		}
		a.appLine()
	}
	return a.buf
}

func (a *appWriter) appLine() {
	switch a.rng.IntN(8) {
	case 0:
		a.traceback()
	case 1:
		a.buf = append(a.buf, "[2026-03-01 12:00:0"...)
		a.buf = strconv.AppendInt(a.buf, int64(a.rng.IntN(10)), 10)
		a.buf = append(a.buf, ",123] [INFO] [data_loader.py:214] fetched shard "...)
		a.buf = strconv.AppendInt(a.buf, int64(a.rng.IntN(4096)), 10)
		a.buf = append(a.buf, " in 0.4s\n"...)
	case 2:
		a.buf = append(a.buf, "loader: epoch 0 batch "...)
		a.buf = strconv.AppendInt(a.buf, int64(a.rng.IntN(100000)), 10)
		a.buf = append(a.buf, " tokens/s 18234.5 loss 2.318\n"...)
	default:
		a.freeText()
	}
}

// freeText writes a sentence of made-up words: its first word is one of thousands.
func (a *appWriter) freeText() {
	for k := 4 + a.rng.IntN(12); k > 0; k-- {
		a.word()
		a.buf = append(a.buf, ' ')
	}
	a.buf[len(a.buf)-1] = '\n'
}

var syllables = []string{"ka", "to", "re", "mi", "lon", "dar", "ex", "pro", "ce", "ssi", "ng", "va", "lu", "te", "gra", "di", "ent", "opt"}

func (a *appWriter) word() {
	for k := 1 + a.rng.IntN(4); k > 0; k-- {
		a.buf = append(a.buf, syllables[a.rng.IntN(len(syllables))]...)
	}
}

func (a *appWriter) traceback() {
	a.buf = append(a.buf, "Traceback (most recent call last):\n"...)
	for k := 1 + a.rng.IntN(4); k > 0; k-- {
		a.buf = append(a.buf, "  File \"/workspace/train/"...)
		a.word()
		a.buf = append(a.buf, ".py\", line "...)
		a.buf = strconv.AppendInt(a.buf, int64(1+a.rng.IntN(900)), 10)
		a.buf = append(a.buf, ", in "...)
		a.word()
		a.buf = append(a.buf, "\n    "...)
		a.word()
		a.buf = append(a.buf, "(batch, model.config)\n"...)
	}
	if a.rng.IntN(3) == 0 {
		a.buf = append(a.buf, "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error\n"...)
		return
	}
	a.buf = append(a.buf, "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"...)
}
