package parser

import (
	"strconv"
	"strings"
)

// parseProgress reads a training progress line.
func (g *Grammar) parseProgress(text string) (Line, bool) {
	tree, err := g.progress.ParseString("", text)
	if err != nil {
		return Line{}, false
	}
	var p Progress
	switch {
	case tree.NeMo != nil:
		p = Progress{Framework: "nemo", Step: int64(tree.NeMo.Iter)}
		for _, kv := range tree.NeMo.Fields {
			p.setField(kv.key(), kv.value(), "train_step_timing in s", 1, "TFLOPS_per_GPU")
		}
	case tree.Mega != nil:
		p = Progress{Framework: "megatron", Step: int64(tree.Mega.Iter)}
		for _, kv := range tree.Mega.Fields {
			p.setField(kv.key(), kv.value(), "elapsed time per iteration (ms)", 1e-3, "throughput per GPU (TFLOP/s/GPU)")
		}
	default:
		p = Progress{Framework: "torchtitan", Step: int64(tree.Titan.Step)}
		for _, kv := range tree.Titan.Fields {
			p.setField(kv.Key, strings.Join(kv.Value, ""), "", 1, "tflops")
		}
	}
	return Line{Kind: KindProgress, Rank: prefixRank(tree.Prefix), Prog: p}, true
}

func (kv *gKV) key() string   { return strings.TrimSpace(strings.Join(kv.Key, "")) }
func (kv *gKV) value() string { return strings.TrimSpace(strings.Join(kv.Value, "")) }

// setField takes the step time (scaled to seconds) and TFLOP/s from the fields that hold them.
// A value that is not a number leaves the field unset.
func (p *Progress) setField(key, value, timeKey string, scale float64, tflopsKey string) {
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return
	}
	switch key {
	case timeKey:
		p.TimeS, p.HasTime = v*scale, true
	case tflopsKey:
		p.TFLOPs, p.HasTFLOPs = v, true
	}
}

// parseBare reads a line without an envelope: blank, the bare version line, damaged NCCL
// output, or anything else.
func (g *Grammar) parseBare(text string) Line {
	tree, err := g.bare.ParseString("", text)
	if err != nil {
		return Line{Kind: KindOther, Rank: -1}
	}
	l := Line{Kind: KindOther, Rank: prefixRank(tree.Prefix)}
	rest := strings.Join(tree.Rest, "")
	switch {
	case tree.Version != "":
		l.Kind = KindVersion
	case strings.Trim(rest, " \t\n\f\r") == "": // the lexer's white space, not Unicode's
		l.Kind = KindBlank
	default:
		l.Kind, l.Reason = damageReason([]byte(rest))
	}
	return l
}
