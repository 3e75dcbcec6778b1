package parser

import "strings"

// gProgressLine is a training framework's progress line anywhere in a line: NeMo
// `parser:"Training epoch E, iteration N/M | key: value | ..."`, Megatron-LM
// `parser:"iteration N/ M | key: value | ..."` and torchtitan `parser:"step: N  key: value  ..."`.
type gProgressLine struct {
	Prefix []*gPrefix `parser:"@@*"`
	Junk   []string   `parser:"( (?! 'Training' Sp 'epoch' | 'iteration' Sp Word Sp? '/' | 'step' ':' Sp Word ) @(HPT | Sp | Punct | Word) )*"`
	NeMo   *gNeMo     `parser:"(  @@"`
	Mega   *gMega     `parser:" | @@"`
	Titan  *gTitan    `parser:" | @@ )"`
}

// gNeMo is `parser:"Training epoch 0, iteration 45/99 | lr: ... | train_step_timing in s: 2.44 | ..."`.
type gNeMo struct {
	Epoch  decNum `parser:"'Training' Sp 'epoch' Sp @Word ',' Sp"`
	Iter   decNum `parser:"'iteration' Sp @Word '/'"`
	Of     decNum `parser:"@Word"`
	Fields []*gKV `parser:"( Sp? '|' @@ )*"`
}

// gMega is Megatron-LM's `parser:"iteration       10/    1000 | consumed samples: ... |"`.
type gMega struct {
	Iter   decNum `parser:"'iteration' Sp @Word Sp? '/' Sp?"`
	Of     decNum `parser:"@Word"`
	Fields []*gKV `parser:"( Sp? '|' @@ )*"`
	Trail  string `parser:"Sp? '|'? @Sp?"`
}

// gKV is one `parser:"key: value"` field between `parser:"|"` separators. The key may hold spaces and
// parentheses (`parser:"elapsed time per iteration (ms)"`); the value is everything up to the next `parser:"|"`.
type gKV struct {
	Key   []string `parser:"Sp? @(~(':' | '|'))+ ':'"`
	Value []string `parser:"@(~'|')*"`
}

// gTitan is torchtitan's `parser:"step: 4  loss:  7.62585  ...  tflops: 314.71  mfu: 13.99%"`.
type gTitan struct {
	Step   decNum      `parser:"'step' ':' Sp @Word"`
	Fields []*gTitanKV `parser:"( Sp @@ )*"`
	Trail  string      `parser:"@Sp?"`
}

// gTitanKV is one `parser:"key: value"` pair of a torchtitan line; the value ends at white space.
type gTitanKV struct {
	Key   string   `parser:"@Word ':' Sp"`
	Value []string `parser:"@(HPT | Punct | Word)+"`
}

// gBareLine is a line without an envelope: launcher prefixes, then the rest.
type gBareLine struct {
	Prefix  []*gPrefix `parser:"@@*"`
	Version string     `parser:"( @('NCCL' | 'RCCL') Sp 'version' )?"`
	Rest    []string   `parser:"@(HPT | Sp | Punct | Word)*"`
}

// parseProgress reads a training progress line.
func (g *Grammar) parseProgress(text string) (Line, bool) {
	if !mayBeProgress(text) {
		return Line{}, false
	}
	tree, err := g.progress().ParseString("", blankSGR(text))
	if err != nil {
		return Line{}, false
	}
	var p Progress
	switch {
	case tree.NeMo != nil:
		p = Progress{Framework: "nemo", Step: int64(tree.NeMo.Iter)}
		for _, kv := range tree.NeMo.Fields {
			p.setField(kv.key(), kv.value(), "train_step_timing in s", 0, "TFLOPS_per_GPU")
		}
	case tree.Mega != nil:
		p = Progress{Framework: "megatron", Step: int64(tree.Mega.Iter)}
		for _, kv := range tree.Mega.Fields {
			p.setField(kv.key(), kv.value(), "elapsed time per iteration (ms)", -3, "throughput per GPU (TFLOP/s/GPU)")
		}
	default:
		p = Progress{Framework: "torchtitan", Step: int64(tree.Titan.Step)}
		for _, kv := range tree.Titan.Fields {
			p.setField(kv.Key, strings.Join(kv.Value, ""), "", 0, "tflops")
		}
	}
	return Line{Kind: KindProgress, Rank: prefixRank(tree.Prefix), Prog: p}, true
}

func (kv *gKV) key() string   { return strings.TrimSpace(strings.Join(kv.Key, "")) }
func (kv *gKV) value() string { return strings.TrimSpace(strings.Join(kv.Value, "")) }
