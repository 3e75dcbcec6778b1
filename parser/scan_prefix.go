package parser

// scanPrefixes reads the launcher prefixes at the start of a line as gPrefix does (the same
// alternatives in the same order, each followed by optional white space). It returns where
// the rest of the line starts and the first rank a prefix carried (-1 for none).
func scanPrefixes(b []byte) (int, int64) {
	if len(b) == 0 || !mayOpenPrefix(b[0]) {
		return 0, -1 // the common case: the line starts with its host name
	}
	i, rank := 0, int64(-1)
	for {
		end, r := scanPrefix(b, i)
		if end < 0 {
			return i, rank
		}
		if rank < 0 {
			rank = r
		}
		i = spEnd(b, end)
	}
}

// mayOpenPrefix reports whether a prefix can start with c: srun's label (white space or a
// digit), a bracketed one or Ray's parenthesis.
func mayOpenPrefix(c byte) bool { return isSp(c) || isDigit(c) || c == '[' || c == '(' }

// scanPrefix reads one prefix at i; it returns its end (-1 for none) and its rank or -1.
func scanPrefix(b []byte, i int) (int, int64) {
	if e, r := scanSrun(b, i); e >= 0 {
		return e, r
	}
	if i >= len(b) {
		return -1, -1
	}
	switch b[i] {
	case '[':
		return scanBracket(b, i+1)
	case '(':
		return scanRay(b, i+1), -1
	}
	return -1, -1
}

// scanBracket reads a bracketed prefix after its `[`. Each form opens with a Word, and the
// byte after it tells which form alone may follow (mpirun's ',', torchrun's `]:`, a
// launcher's '|', a date's '-'), so the Word is read once, not once by each form in turn.
func scanBracket(b []byte, i int) (int, int64) {
	if e, r := torchRank(b, i); e >= 0 {
		return e, r
	}
	w := word(b, i)
	e := i + len(w)
	if len(w) == 0 || e >= len(b) {
		return -1, -1
	}
	switch b[e] {
	case ',':
		return scanMpi(b, i, w)
	case ']':
		return scanTorch(b, i, w)
	case '|':
		return scanLabel(b, i), -1 // a launcher's index, no global rank (gLabel)
	case '-':
		return scanStamp(b, i, w), -1
	}
	return -1, -1
}

// decWord reads a Word at i that decNum accepts; it returns its end (-1 for none).
func decWord(b []byte, i int) (int, int64) {
	w := word(b, i)
	v, err := parseDec(w)
	if len(w) == 0 || err != nil {
		return -1, 0
	}
	return i + len(w), v
}

// scanSrun reads `3: ` (Sp? Word ":" Sp).
func scanSrun(b []byte, i int) (int, int64) {
	i = spEnd(b, i) // Slurm right-aligns the label: " 3: "
	if i >= len(b) || !isDigit(b[i]) {
		return -1, -1
	}
	e, v := decWord(b, i)
	if e < 0 || !lit(b, e, ":") || e+1 >= len(b) || !isSp(b[e+1]) {
		return -1, -1
	}
	return spEnd(b, e+1), v
}

// scanMpi reads `1,3]<stdout>:` after the `[`, whose first Word w has been read.
func scanMpi(b []byte, i int, w []byte) (int, int64) {
	if _, err := parseDec(w); err != nil || !lit(b, i+len(w), ",") {
		return -1, -1
	}
	e, r := decWord(b, i+len(w)+1)
	if e < 0 || !lit(b, e, "]<") {
		return -1, -1
	}
	w = word(b, e+2)
	if string(w) != "stdout" && string(w) != "stderr" || !lit(b, e+2+len(w), ">:") {
		return -1, -1
	}
	return e + 2 + len(w) + 2, r
}

// scanTorch reads `rank3]:` or `default3]:` after the `[`, whose first Word w has been read.
func scanTorch(b []byte, i int, w []byte) (int, int64) {
	r, ok := rankLabel(w)
	if !ok || !lit(b, i+len(w), "]:") {
		return -1, -1
	}
	return i + len(w) + 2, r
}

// torchRank reads torchrun's commonest prefix, `rank3]:` after the `[`, straight: "rank",
// one to 18 digits, "]:" is a Word scanTorch takes. It returns -1 for any other text, which
// the Word's reading decides.
func torchRank(b []byte, i int) (int, int64) {
	if !lit(b, i, "rank") {
		return -1, -1
	}
	j, v := i+4, int64(0)
	for j < len(b) && j-i-4 <= 18 && isDigit(b[j]) {
		v = v*10 + int64(b[j]-'0')
		j++
	}
	if n := j - i - 4; n == 0 || n > 18 || !lit(b, j, "]:") {
		return -1, -1
	}
	return j + 2, v
}

// rankLabel reads `rank3` or `default3` as rankWord.Capture does, without building its
// argument (a string slice per line).
func rankLabel(w []byte) (int64, bool) {
	for _, p := range [...]string{"rank", "default"} {
		if len(w) > len(p) && string(w[:len(p)]) == p {
			v, err := parseDec(w[len(p):])
			if err == nil && v >= 0 {
				return v, true
			}
		}
	}
	return 0, false
}

// scanStamp reads `2026-03-01 12:00:00]` after the `[`: a four-digit Word, "-", Word, "-",
// Word, then anything up to the next `]`; its first Word w has been read.
func scanStamp(b []byte, i int, w []byte) int {
	if _, err := parseDec(w); err != nil || len(w) != 4 { // as yearWord.Capture reads it
		return -1
	}
	i += len(w)
	for k := 0; k < 2; k++ {
		if !lit(b, i, "-") {
			return -1
		}
		w = word(b, i+1)
		if len(w) == 0 {
			return -1
		}
		i += 1 + len(w)
	}
	for ; i < len(b); i++ {
		if b[i] == ']' {
			return i + 1
		}
	}
	return -1
}

// scanRay reads `RayWorker pid=615, ip=10.72.7.6)`, SkyPilot's `worker1, rank=1, pid=2634,
// ip=10.0.0.2)` or `pid=615)` after the `(`.
func scanRay(b []byte, i int) int {
	w := word(b, i)
	if len(w) == 0 {
		return -1
	}
	if string(w) != "pid" || !lit(b, i+3, "=") { // a Ray task has no actor name: "(pid=927) "
		if k := scanNodeRank(b, i+len(w)); k >= 0 {
			w = b[i:k] // the actor and its node rank: `worker1, rank=1,`
		}
		j := spEnd(b, i+len(w))
		if j == i+len(w) || !lit(b, j, "pid=") {
			return -1
		}
		i = j
	}
	e, _ := decWord(b, i+4)
	if e < 0 {
		return -1
	}
	if lit(b, e, ",") {
		j := spEnd(b, e+1)
		if j == e+1 || !lit(b, j, "ip=") {
			return -1
		}
		w = word(b, j+3)
		if len(w) == 0 {
			return -1
		}
		e = j + 3 + len(w)
	}
	if !lit(b, e, ")") {
		return -1
	}
	return e + 1
}

// scanNodeRank reads SkyPilot's `, rank=1,` after the actor's name, at i; it returns where it
// ends, or -1.
func scanNodeRank(b []byte, i int) int {
	if !lit(b, i, ",") {
		return -1
	}
	j := spEnd(b, i+1)
	if j == i+1 || !lit(b, j, "rank=") {
		return -1
	}
	w := word(b, j+5)
	if len(w) == 0 {
		return -1
	}
	if _, err := parseDec(w); err != nil {
		return -1
	}
	e := j + 5 + len(w)
	if !lit(b, e, ",") {
		return -1
	}
	return e + 1
}
