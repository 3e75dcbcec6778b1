package gen

import (
	"strconv"
)

// numAppTexts is how many application texts appText knows.
const numAppTexts = 3

// appText returns application output; a text of two lines is printed as one
// write, so its lines stay together.
func appText(i int32) []string {
	switch i {
	case 0:
		return []string{"/usr/local/lib/python3.10/dist-packages/torch/distributed/c10d_logger.py:83: UserWarning: barrier(): using the device under current context. You can specify `device_id` in `init_process_group` to mute this warning.",
			"  return func(*args, **kwargs)"}
	case 1:
		return []string{"Token indices sequence length is longer than the specified maximum sequence length for this model (2611 > 2048). Running this sequence through the model will result in indexing errors"}
	}
	return []string{"/opt/NeMo/nemo/lightning/pytorch/callbacks/progress_printer.py:291: UserWarning: The `train_step_timing` metric was logged without a step.",
		"  warnings.warn("}
}

// addNoise inserts application output, blank lines and WARNs into the queues:
// a tqdm bar every step, the rest at random and a WARN at least every 25 steps.
func (g *gen) addNoise(step int) {
	n := len(g.topo.procs)
	g.insert(0, event{evTqdm, 0})
	if g.rng.IntN(5) == 0 {
		g.insert(g.rng.IntN(n), event{evApp, int32(g.rng.IntN(numAppTexts))})
	}
	if g.rng.IntN(10) == 0 {
		g.insert(g.rng.IntN(n), event{evBlank, 0})
	}
	if step%25 == 12 || g.rng.IntN(50) == 0 {
		g.insert(g.rng.IntN(n), event{evWarn, 0})
	}
}

// emitNoise writes a non-collective event of p.
func (g *gen) emitNoise(p *proc, e event) {
	switch e.kind {
	case evApp:
		for _, s := range appText(e.arg) {
			g.end(p, append(g.begin(p), s...))
		}
	case evTqdm:
		g.end(p, g.appendTqdm(g.begin(p)))
	case evBlank:
		g.blank(p)
	case evWarn:
		g.emitWarn(p)
	}
}

// emitWarn writes NCCL's blank line and a WARN from the IB async thread.
// 2.26+ put a timestamp after the newline.
func (g *gen) emitWarn(p *proc) {
	g.blank(p)
	b := g.begin(p)
	if g.v.atLeast(26) && !g.stamps.ncclOwn() { // else the stamper prints NCCL's time
		b = append(b, '[')
		b = g.wallTime(p).AppendFormat(b, "2006-01-02 15:04:05")
		b = append(b, "] "...)
	}
	b = append(b, hostName(p.host)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.pid), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(p.warnTid), 10)
	b = append(b, " ["...)
	b = strconv.AppendInt(b, int64(p.dev), 10)
	g.end(p, append(b, "] transport/net_ib.cc:1287 NCCL WARN NET/IB : Got async event : port error"...))
}

// appendTqdm appends a tqdm progress bar such as
// "Epoch 0:  45%|████▌     | 45/100 [01:43<02:06,  2.30s/it, v_num=0]".
func (g *gen) appendTqdm(b []byte) []byte {
	step, total := g.st.step, max(g.maxSteps, g.st.step+1)
	pct := step * 100 / total
	b = append(b, "Epoch 0: "...)
	b = appendPad(b, pct, 3, ' ')
	b = append(b, "%|"...)
	for i := 0; i < 10; i++ {
		if i < pct/10 {
			b = append(b, "█"...)
		} else {
			b = append(b, ' ')
		}
	}
	b = append(b, "| "...)
	b = strconv.AppendInt(b, int64(step), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(total), 10)
	perIt := g.model.stepMs / 1000
	b = append(b, " ["...)
	b = appendMinSec(b, int(float64(step)*perIt))
	b = append(b, '<')
	b = appendMinSec(b, int(float64(total-step)*perIt))
	b = append(b, ", "...)
	b = strconv.AppendFloat(b, perIt, 'f', 2, 64)
	return append(b, "s/it, v_num=0]"...)
}

func appendMinSec(b []byte, sec int) []byte {
	b = appendPad(b, sec/60, 2, '0')
	b = append(b, ':')
	return appendPad(b, sec%60, 2, '0')
}
