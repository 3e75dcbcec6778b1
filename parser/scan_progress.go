package parser

import "bytes"

// scanProgress reads a progress line as gProgressLine does: the first token at or after
// start (the end of the line's prefixes) where a framework's head begins, then that
// framework's fields to the end of the line. A head inside a prefix does not count: a
// timestamp prefix runs to the first ']' and may swallow one. found is false where no head
// occurs (then the line is no progress line); ok is false where the scanner leaves the line
// to the grammar.
func scanProgress(b []byte, start int, rank int64, l *Line) (found, ok bool) {
	if bytes.Contains(b, []byte("\x1b[")) {
		return true, false // colours (blankSGR): rare lines, left to the grammar
	}
	i, head := progressHead(b, start)
	if head == 0 {
		return false, true
	}
	var p Progress
	switch head {
	case 'n':
		ok = scanNeMo(b, i, &p)
	case 'm':
		ok = scanMega(b, i, &p)
	default:
		ok = scanTitan(b, i, &p)
	}
	if ok {
		*l = Line{Kind: KindProgress, Rank: rank, Prog: p}
	}
	return true, ok
}

// progressHead walks the tokens from start to the first head of gProgressLine's junk loop:
// `Training epoch` (n), `iteration N /` (m) or `step: N` (t).
func progressHead(b []byte, start int) (int, byte) {
	for i := start; i < len(b); {
		end, isHPT := tokenEnd(b, i)
		if !isHPT {
			if h := headAt(b, i, end); h != 0 {
				return i, h
			}
		}
		i = end
	}
	return 0, 0
}

func headAt(b []byte, i, end int) byte {
	w := b[i:end]
	switch string(w) {
	case "Training":
		j := spEnd(b, end)
		if j > end && string(word(b, j)) == "epoch" {
			return 'n'
		}
	case "iteration":
		j := spEnd(b, end)
		w2 := word(b, j)
		if j > end && len(w2) > 0 && lit(b, spEnd(b, j+len(w2)), "/") {
			return 'm'
		}
	case "step":
		if lit(b, end, ":") {
			j := spEnd(b, end+1)
			if j > end+1 && len(word(b, j)) > 0 {
				return 't'
			}
		}
	}
	return 0
}

// scanNeMo reads `Training epoch E, iteration N/M` and `| key: value` fields to the end.
func scanNeMo(b []byte, i int, p *Progress) bool {
	*p = Progress{Framework: "nemo"}
	i = spEnd(b, i+len("Training"))
	i = spEnd(b, i+len("epoch"))
	e, _ := decWord(b, i)
	if e < 0 || !lit(b, e, ",") || e+1 >= len(b) || !isSp(b[e+1]) {
		return false
	}
	i = spEnd(b, e+1)
	if string(word(b, i)) != "iteration" {
		return false
	}
	i = spEnd(b, i+len("iteration"))
	e, iter := decWord(b, i)
	if e < 0 || !lit(b, e, "/") {
		return false
	}
	if e, _ = decWord(b, e+1); e < 0 {
		return false
	}
	p.Step = iter
	end, ok := scanKVs(b, e, p, "train_step_timing in s", 0, "TFLOPS_per_GPU")
	return ok && end == len(b)
}

// scanMega reads Megatron-LM's `iteration N/ M |` and its fields, then an optional ` |`.
func scanMega(b []byte, i int, p *Progress) bool {
	*p = Progress{Framework: "megatron"}
	i = spEnd(b, i+len("iteration"))
	e, iter := decWord(b, i)
	if e < 0 {
		return false
	}
	j := spEnd(b, e)
	if !lit(b, j, "/") {
		return false
	}
	if e, _ = decWord(b, spEnd(b, j+1)); e < 0 {
		return false
	}
	p.Step = iter
	end, ok := scanKVs(b, e, p, "elapsed time per iteration (ms)", -3, "throughput per GPU (TFLOP/s/GPU)")
	if !ok {
		return false
	}
	end = spEnd(b, end)
	if lit(b, end, "|") {
		end = spEnd(b, end+1)
	}
	return end == len(b)
}

// scanKVs reads `( Sp? "|" Sp? key ":" value )*` from i as gKV does and returns where the
// fields end. ok is false where a field holds a token the scanner does not vouch for.
func scanKVs(b []byte, i int, p *Progress, timeKey string, timeExp int, tfKey string) (int, bool) {
	for {
		j := spEnd(b, i)
		if !lit(b, j, "|") {
			return i, true
		}
		seg := b[j+1:]
		if k := bytes.IndexByte(seg, '|'); k >= 0 {
			seg = seg[:k]
		}
		colon, ok := keyColon(seg)
		if !ok {
			return 0, false
		}
		if colon < 0 {
			return i, true // no field here: gKV fails and the loop ends before this "|"
		}
		key := bytes.TrimSpace(seg[:colon])
		val := bytes.TrimSpace(seg[colon+1:])
		p.setField(string(key), string(val), timeKey, timeExp, tfKey)
		i = j + 1 + len(seg)
	}
}

// keyColon finds the ':' token that ends a field's key: at least one token other than white
// space must come before it. It returns -1 where there is none; ok is false where an HPT
// token (which holds ':' bytes) stands before it.
func keyColon(seg []byte) (int, bool) {
	i := spEnd(seg, 0)
	first := i
	for i < len(seg) {
		end, isHPT := tokenEnd(seg, i)
		switch {
		case isHPT:
			return 0, false
		case seg[i] == ':':
			if i == first {
				return -1, true
			}
			return i, true
		}
		i = end
	}
	return -1, true
}

// scanTitan reads torchtitan's `step: N` and `key: value` pairs separated by white space.
func scanTitan(b []byte, i int, p *Progress) bool {
	*p = Progress{Framework: "torchtitan"}
	e, step := decWord(b, spEnd(b, i+len("step:")))
	if e < 0 {
		return false
	}
	p.Step = step
	for e < len(b) {
		j := spEnd(b, e)
		if j == e {
			return false
		}
		if j == len(b) {
			return true
		}
		key := word(b, j)
		if len(key) == 0 || !lit(b, j+len(key), ":") || j+len(key)+1 >= len(b) || !isSp(b[j+len(key)+1]) {
			return false
		}
		v := spEnd(b, j+len(key)+1)
		ve := v
		for ve < len(b) && !isSp(b[ve]) {
			ve++
		}
		if ve == v {
			return false
		}
		p.setField(string(key), string(b[v:ve]), "", 0, "tflops")
		e = ve
	}
	return true
}
