package gen

import (
	"math"
	"strconv"
	"time"
)

// stepStats are the training numbers of one step.
type stepStats struct {
	durMs                        int64   // for the clock
	dur                          float64 // milliseconds
	loss, gradNorm, lr           float64
	tflops, memGiB, tokensPerSec float64
}

const (
	peakLR      = 1e-3
	minLR       = 1e-4
	warmupSteps = 100
	h100GiB     = 79.1 // usable memory that torchtitan's percentage refers to
	h100TFLOPS  = 989  // bf16 dense peak that mfu refers to
)

// nextStats draws the step time, loss and the rest for one step.
func (g *gen) nextStats(step int) stepStats {
	m, rng := &g.model, g.rng
	dur := m.stepMs * (0.96 + 0.08*rng.Float64())
	s := stepStats{durMs: int64(dur), dur: dur}
	s.loss = 2.2 + 8.8*math.Exp(-float64(step)/400) + 0.05*rng.NormFloat64()
	s.gradNorm = 0.5 + 25*math.Exp(-float64(step)/150) + 0.2*rng.Float64()
	s.lr = g.learningRate(step)
	s.tflops = m.tflops * m.stepMs / dur
	s.memGiB = m.memGiB + rng.Float64()*0.1
	s.tokensPerSec = m.tokPerMs * 1000 * m.stepMs / dur
	return s
}

// learningRate is linear warmup then cosine decay to minLR at the last step.
func (g *gen) learningRate(step int) float64 {
	if step < warmupSteps {
		return peakLR * float64(step+1) / warmupSteps
	}
	total := max(g.maxSteps, warmupSteps+1)
	frac := min(1, float64(step-warmupSteps)/float64(total-warmupSteps))
	return minLR + 0.5*(peakLR-minLR)*(1+math.Cos(math.Pi*frac))
}

// writeProgress writes rank 0's progress line for the step, if any.
func (g *gen) writeProgress(step int, s stepStats) {
	if g.cfg.Progress == "none" {
		return
	}
	p := &g.topo.procs[0]
	b := g.begin(p)
	switch g.cfg.Progress {
	case "megatron":
		b = g.appendMegatron(b, step, s)
	case "torchtitan":
		b = g.appendTitan(b, step, s)
	default:
		b = g.appendNemo(b, step, s)
	}
	if g.end(p, b) {
		g.sum.ProgressLines++
	}
}

// appendNemo appends "Training epoch 0, iteration 45/99 | lr: 4.600e-04 | … | consumed_samples: 5888".
func (g *gen) appendNemo(b []byte, step int, s stepStats) []byte {
	const gbs = 128
	b = append(b, "Training epoch 0, iteration "...)
	b = strconv.AppendInt(b, int64(step), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(g.maxSteps-1), 10)
	b = append(b, " | lr: "...)
	b = strconv.AppendFloat(b, s.lr, 'e', 3, 64)
	b = append(b, " | global_batch_size: 128 | global_step: "...)
	b = strconv.AppendInt(b, int64(step), 10)
	b = append(b, " | reduced_train_loss: "...)
	b = strconv.AppendFloat(b, s.loss, 'f', 2, 64)
	b = append(b, " | train_step_timing in s: "...)
	b = strconv.AppendFloat(b, s.dur/1000, 'f', 3, 64)
	b = append(b, " | TFLOPS_per_GPU: "...)
	b = strconv.AppendFloat(b, s.tflops, 'f', 1, 64)
	b = append(b, " | consumed_samples: "...)
	return strconv.AppendInt(b, int64(step+1)*gbs, 10)
}

// appendMegatron appends Megatron-LM's training_log line:
// " [2025-04-13 23:41:12] iteration       45/    1000 | consumed samples:          720 | … |".
func (g *gen) appendMegatron(b []byte, step int, s stepStats) []byte {
	const gbs = 16
	b = append(b, " ["...)
	b = time.UnixMilli(g.clockMs).UTC().AppendFormat(b, "2006-01-02 15:04:05")
	b = append(b, "] iteration "...)
	b = appendPad(b, step, 8, ' ')
	b = append(b, '/')
	b = appendPad(b, g.maxSteps, 8, ' ')
	b = append(b, " | consumed samples: "...)
	b = appendPad(b, step*gbs, 12, ' ')
	b = append(b, " | elapsed time per iteration (ms): "...)
	b = strconv.AppendFloat(b, s.dur, 'f', 1, 64)
	b = append(b, " | learning rate: "...)
	b = strconv.AppendFloat(b, s.lr, 'E', 6, 64)
	b = append(b, " | global batch size: "...)
	b = appendPad(b, gbs, 5, ' ')
	b = append(b, " | lm loss: "...)
	b = strconv.AppendFloat(b, s.loss, 'E', 6, 64)
	b = append(b, " | loss scale: 4096.0 | grad norm: "...)
	b = strconv.AppendFloat(b, s.gradNorm, 'f', 3, 64)
	b = append(b, " | throughput per GPU (TFLOP/s/GPU): "...)
	b = strconv.AppendFloat(b, s.tflops, 'f', 1, 64)
	return append(b, " | number of skipped iterations:   0 | number of nan iterations:   0 |"...)
}

// appendTitan appends torchtitan's metrics line:
// "[titan] 2026-02-24 19:46:17,508 - root - INFO - step: 45  loss:  7.62585  … mfu: 13.99%".
func (g *gen) appendTitan(b []byte, step int, s stepStats) []byte {
	b = append(b, "[titan] "...)
	b = time.UnixMilli(g.clockMs).UTC().AppendFormat(b, "2006-01-02 15:04:05,000")
	b = append(b, " - root - INFO - step: "...)
	b = appendPad(b, step, 2, ' ')
	b = append(b, "  loss: "...)
	b = appendFloatPad(b, s.loss, 5, 8)
	b = append(b, "  grad_norm: "...)
	b = appendFloatPad(b, s.gradNorm, 4, 7)
	b = append(b, "  memory: "...)
	b = appendFloatPad(b, s.memGiB, 2, 5)
	b = append(b, "GiB("...)
	b = strconv.AppendFloat(b, s.memGiB/h100GiB*100, 'f', 2, 64)
	b = append(b, "%)  tps: "...)
	b = appendThousands(b, int64(s.tokensPerSec))
	b = append(b, "  tflops: "...)
	b = strconv.AppendFloat(b, s.tflops, 'f', 2, 64)
	b = append(b, "  mfu: "...)
	b = strconv.AppendFloat(b, s.tflops/h100TFLOPS*100, 'f', 2, 64)
	return append(b, '%')
}

// appendFloatPad appends v like printf's %width.precf.
func appendFloatPad(b []byte, v float64, prec, width int) []byte {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

// appendThousands appends v with commas between groups of three digits.
func appendThousands(b []byte, v int64) []byte {
	s := strconv.FormatInt(v, 10)
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	return b
}
