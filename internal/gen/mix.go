package gen

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
)

// The mixes are the kinds of input nccllog meets, for benchmarks that compare its speed on
// each: a log of training steps, the init of a large job, a job's whole output, and inputs
// that are not logs at all.
const (
	MixCollective = "collective" // the default log: 16 ranks, collective lines of every step
	MixInit       = "init"       // the init of 4,096-rank jobs: communicator and set-up lines
	MixJob        = "job"        // torchrun output: NCCL lines between the script's own lines
	MixText       = "text"       // random printable text
	MixBinary     = "binary"     // random bytes
)

// Mixes lists the mixes in the order benchmarks print them.
var Mixes = []string{MixCollective, MixInit, MixJob, MixText, MixBinary}

// WriteMix writes about size bytes (at least one whole job for the log mixes) of the named
// mix to w. The same arguments always give the same bytes.
func WriteMix(w io.Writer, mix string, size, seed int64) error {
	if size <= 0 {
		return fmt.Errorf("mix %s: size must be positive", mix)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch mix {
	case MixCollective:
		_, err = Write(bw, Config{Seed: seed, Size: size})
	case MixInit:
		err = writeInitMix(bw, size, seed)
	case MixJob:
		err = writeJobMix(bw, size, seed)
	case MixText, MixBinary:
		err = writeNoise(bw, size, seed, mix == MixBinary)
	default:
		return fmt.Errorf("unknown mix %q (want one of %v)", mix, Mixes)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// writeInitMix writes the init lines of 4,096-rank jobs (each job with its own seed) until
// size is reached. The one step each job needs is left out: only the init is wanted.
func writeInitMix(w io.Writer, size, seed int64) error {
	lw := &lineWriter{w: w, keep: func(line []byte) bool { return !containsOpCount(line) }, limit: size}
	for k := int64(0); lw.n < size; k++ {
		_, err := Write(lw, Config{Seed: seed + k, Ranks: 4096, Steps: 1, Progress: "none"})
		if err != nil && !errors.Is(err, errEnough) {
			return err
		}
	}
	return nil
}

// errEnough stops a generator once a mix has its size.
var errEnough = errors.New("mix: size reached")

// writeNoise writes size bytes of random printable text (a newline about every 80 bytes) or
// of random bytes.
func writeNoise(w io.Writer, size, seed int64, binary bool) error {
	rng := rand.New(rand.NewPCG(uint64(seed), pcgStream))
	buf := make([]byte, 64<<10)
	for left := size; left > 0; left -= int64(len(buf)) {
		for i := range buf {
			buf[i] = noiseByte(rng, binary)
		}
		if _, err := w.Write(buf[:min(int64(len(buf)), left)]); err != nil {
			return err
		}
	}
	return nil
}

func noiseByte(rng *rand.Rand, binary bool) byte {
	if binary {
		return byte(rng.Uint32())
	}
	if rng.IntN(80) == 0 {
		return '\n'
	}
	return byte(' ' + rng.IntN(95))
}

func containsOpCount(line []byte) bool {
	const w = ": opCount "
	for i := 0; i+len(w) <= len(line); i++ {
		if string(line[i:i+len(w)]) == w {
			return true
		}
	}
	return false
}
