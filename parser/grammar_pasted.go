package parser

import (
	"slices"
	"strings"
)

// Records as people paste them and as processes glue them together. A collective record
// without the `host:pid:tid [dev] NCCL LEVEL` head (a pasted excerpt, a test harness's
// `NCCL INFO AllReduce: ...`), or run on from other text that is not its own envelope (a
// perf-table row, another record), is read with no envelope: it belongs to no known process.
// A line yields one record, the last one it holds, as a spliced line yields its last
// envelope's.

// opCountMark is what follows the op name of every collective record.
const opCountMark = ": opCount "

// lastRecord reads the last collective record of text that opens at or after from, where it
// has no envelope of its own. It returns the record, its first unknown field key, and whether
// other text (not a bare `NCCL INFO` head) stands between from and the record.
func (g *Grammar) lastRecord(text string, from int) (c Collective, unknown string, glued, ok bool) {
	k := strings.LastIndex(text, opCountMark)
	if k <= from {
		return c, "", false, false
	}
	ts := tokenStartingBefore(text, from, k)
	if ts < 0 {
		return c, "", false, false
	}
	before := text[from:ts]
	ts += opCut(before, text[ts:k])
	tree, err := g.coll().ParseString("", text[ts:])
	if err != nil {
		return c, "", false, false
	}
	return collectiveFromTree(tree), strings.Clone(tree.unknownKey()), gluedText(text[from:ts]), true
}

// tokenStartingBefore returns the start of the Word token of text that ends at k, reading
// tokens from from as the lexer does, or -1 where no Word ends there.
func tokenStartingBefore(text string, from, k int) int {
	for i := from; i < k; {
		end, isHPT := tokenEnd(text, i)
		if end == k && !isHPT && !isSp(text[i]) && !isPunct(text[i]) {
			return i
		}
		if end > k {
			return -1
		}
		i = end
	}
	return -1
}

// gluedText reports whether text, what stands before a record on its line after the
// prefixes, is other text: anything but white space, a bare `NCCL INFO` head and a
// bracketed field (gCollective's Tag).
func gluedText(text string) bool {
	t := strings.TrimRight(text, spChars)
	if k := strings.LastIndexByte(t, '['); k >= 0 && strings.HasSuffix(t, "]") && !strings.Contains(t[k+1:len(t)-1], "]") {
		t = strings.TrimRight(t[:k], spChars)
	}
	t = strings.TrimSuffix(t, "NCCL INFO")
	return strings.Trim(t, spChars) != ""
}

// spChars are the bytes of the lexer's Sp tokens.
const spChars = " \t\n\f\r"

// knownOps are the op names NCCL and RCCL print, longest first where one ends another.
var knownOps = [...]Op{
	OpAllToAllPivot, OpReduceScatter, OpAllReduce, OpAllGather, OpBroadcast, OpWaitSignal,
	OpPutSignal, OpAlltoAll, OpScatter, OpGather, OpReduce, OpSignal, OpSend, OpRecv,
}

// opCut returns how many leading bytes of word, the op name of a record without an
// envelope, belong to the text before it: a number glued to a known op name
// (`0AllReduce`, the #wrong column of nccl-tests and a record run straight on).
func opCut(before, word string) int {
	for _, op := range knownOps {
		n := len(word) - len(op)
		if n > 0 && strings.HasSuffix(word, string(op)) && numberLike(before, word[:n]) {
			return n
		}
	}
	return 0
}

// gluedHostCut returns how many leading bytes of host, the host of an envelope that other
// text stands before on its line (before: that text, prefixes left out), belong to that
// text: the number it ends with, run straight into the host name, which then starts with a
// letter (`-1gpu1`, `0gpu1` and `N/Agpu1` from an nccl-tests row, `0x7f0c74002f00gpu1` from
// a record's stream). A host of its own that starts with digits (a container id) loses them
// only where a row or a record stands before its envelope (runOnText), never where a time, a
// label or a quote does.
func gluedHostCut(before, host string) int {
	if !gluedText(before) || !runOnText(before) {
		return 0
	}
	n := numberEnd(before, host)
	if n == 0 || n >= len(host) || !isLetter(host[n]) || !numberLike(before, host[:n]) {
		return 0
	}
	return n
}

// runOnText reports whether before, the text ahead of a host on its line, is what a number
// run into that host can end: text running straight into it (the `-` of nccl-tests' -1 root,
// its N/A), or two words or more whose last is a number (a table's column, `0.00`) or the
// name of a record's field (`stream`, or `count` where a record was cut short). A time, a
// label, a quote, a container log's `stdout F` or a logger's level before a container id
// that starts with digits is not.
func runOnText(before string) bool {
	t := strings.TrimRight(before, spChars)
	if len(t) < len(before) {
		k := strings.LastIndexAny(t, spChars)
		w := t[k+1:]
		return k >= 0 && strings.Trim(t[:k], spChars) != "" && (numberLike("", w) || slices.Contains(recordFields[:], w))
	}
	return strings.HasSuffix(t, "-") || strings.HasSuffix(t, "N/")
}

// recordFields are the names of a collective record's fields, each followed by its value.
var recordFields = [...]string{"opCount", "sendbuff", "recvbuff", "count", "datatype", "op", "root", "comm", "stream"}

// numberEnd returns the length of the longest number-like text that opens s.
func numberEnd(before, s string) int {
	switch {
	case strings.HasSuffix(before, "N/") && strings.HasPrefix(s, "A"):
		return 1
	case strings.HasPrefix(s, "0x"):
		i := 2
		for i < len(s) && hexVal[s[i]] != 0xff {
			i++
		}
		return i
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i > 0 && i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		for i++; i < len(s) && isDigit(s[i]); i++ {
		}
	}
	return i
}

// numberLike reports whether p, text glued before a name, is what a number printed before
// it ends with: decimal digits with an optional fraction, 0x and hexadecimal digits, or the
// A of nccl-tests' N/A.
func numberLike(before, p string) bool {
	if p == "A" {
		return strings.HasSuffix(before, "N/")
	}
	if strings.HasPrefix(p, "0x") {
		if len(p) == 2 {
			return false
		}
		for i := 2; i < len(p); i++ {
			if hexVal[p[i]] == 0xff {
				return false
			}
		}
		return true
	}
	int, frac, dot := strings.Cut(p, ".")
	return allDigits(int) && (!dot || allDigits(frac))
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
