package parser

import (
	"bytes"
	"strings"
)

// rasJSONForm is the form of a RAS JSON field's value.
type rasJSONForm uint8

const (
	rasJSONStr   rasJSONForm = iota + 1 // a quoted string without quotes inside
	rasJSONInt                          // a decimal, maybe negative (a pid of -1: unknown)
	rasJSONBool                         // true or false
	rasJSONOpen                         // `[`: an array opens
	rasJSONFloat                        // a decimal with a fraction, `0.000`
	rasJSONCount                        // an operation count: digits (%lu)
)

// rasJSONKeys are the keys of rasDumpCommsToJSON (src/ras/client_support.cc, NCCL 2.28.7 to
// 2.29) that diagnose reads, with the form of their values: the report's head, each
// communicator's hash and sizes, each rank's (and missing rank's) identity and status, and
// the footer that closes the communicators. A collective's operation count (`"AllReduce":
// 6650`) is read by the form of its key instead (rasCountKey).
var rasJSONKeys = map[string]rasJSONForm{
	"nccl_version": rasJSONStr, "hash": rasJSONStr, "size": rasJSONInt, "ranks_count": rasJSONInt,
	"missing_ranks_count": rasJSONInt, "missing_ranks": rasJSONOpen, "rank": rasJSONInt, "host": rasJSONStr,
	"pid": rasJSONInt, "cuda_dev": rasJSONInt, "init_state": rasJSONInt, "async_error": rasJSONInt,
	"finalize_called": rasJSONBool, "destroy_flag": rasJSONBool, "abort_flag": rasJSONBool,
	"unresponsive": rasJSONBool, "considered_dead": rasJSONBool, "collection_time_sec": rasJSONFloat,
}

// maxRASKey bounds a RAS JSON key: the longest of rasJSONKeys, and collective names
// (ReduceScatter) well within it.
const maxRASKey = 24

// rasJSONKey returns the form of a RAS JSON key's value (0: a key diagnose does not read) and
// the key as Failure.Field keeps it. k is the key without its quotes.
func rasJSONKey(k string) (rasJSONForm, string) {
	if isRASCountKey([]byte(k)) {
		return rasJSONCount, k
	}
	if form, ok := rasJSONKeys[k]; ok {
		return form, k
	}
	return 0, ""
}

// isRASJSONKey reports whether k (without its quotes) is a key rasJSONKey reads; it is the
// failure gate's test, so it allocates nothing.
func isRASJSONKey(k []byte) bool {
	_, ok := rasJSONKeys[string(k)]
	return ok || isRASCountKey(k)
}

// isRASCountKey reports whether k names a collective (ncclFuncToString: Broadcast, Reduce,
// AllGather, ReduceScatter, AllReduce, ...): a capital, then letters. No other key of the
// report opens with a capital.
func isRASCountKey(k []byte) bool {
	if len(k) == 0 || len(k) > maxRASKey || k[0] < 'A' || k[0] > 'Z' {
		return false
	}
	for _, c := range k[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// rasJSONField reads a `"<key>": <value>[,]` line (read by the grammar as gFailExcept: key is
// its name, value the tokens after the white space that follows ':').
func rasJSONField(f Failure, key string, value []string) (Failure, bool) {
	return rasJSONText(f, key, strings.Join(value, ""))
}

// rasJSONText reads a RAS JSON field from its key, in quotes, and the text after the white
// space that follows its ':' (the grammar's and the scanner's reading both come here): the
// key must be one diagnose reads, and the value of its form.
func rasJSONText(f Failure, key, value string) (Failure, bool) {
	f.Event = FailureRAS
	k, ok := strings.CutPrefix(key, `"`)
	k, ok2 := strings.CutSuffix(k, `"`)
	if !ok || !ok2 {
		return f, false
	}
	form, name := rasJSONKey(k)
	v := strings.TrimSuffix(strings.TrimRight(value, " \t\n\f\r"), ",")
	if strings.ContainsAny(v, " \t\n\f\r") {
		return f, false // the grammar's white space: one value, one line
	}
	v, ok = rasJSONValue(form, v)
	if form == 0 || !ok {
		return f, false
	}
	f.RAS, f.Field, f.Text = RASField, name, strings.Clone(v)
	return f, true
}

// scanRASJSON reads h, a line's text after its indent that opens with a quote, as the
// grammar reads a RAS JSON field: a Word token, ':', then nothing or white space and the
// value.
func scanRASJSON(h []byte, l *Line) bool {
	end, isHPT := tokenEnd(h, 0)
	if isHPT || end >= len(h) || h[end] != ':' {
		return false
	}
	m := end + 1
	if m < len(h) && !isSp(h[m]) {
		return false
	}
	f, ok := rasJSONText(noFailure, string(h[:end]), string(h[spEnd(h, m):]))
	if !ok {
		return false
	}
	l.Kind, l.Fail = KindFailure, &f
	return true
}

// rasJSONValue checks v (without the comma after it) against form; it returns the value
// without its quotes.
func rasJSONValue(form rasJSONForm, v string) (string, bool) {
	switch form {
	case rasJSONStr:
		s, ok := strings.CutPrefix(v, `"`)
		s, ok2 := strings.CutSuffix(s, `"`)
		return s, ok && ok2 && len(s) <= MaxFailureText && !strings.Contains(s, `"`)
	case rasJSONInt:
		_, err := parseDec(v)
		return v, err == nil
	case rasJSONCount:
		_, err := parseDec(v)
		return v, err == nil && v[0] != '-' && (len(v) == 1 || v[0] != '0')
	case rasJSONBool:
		return v, v == "true" || v == "false"
	case rasJSONOpen:
		return v, v == "["
	case rasJSONFloat:
		a, b, ok := strings.Cut(v, ".")
		return v, ok && isDec(a) && isDec(b)
	}
	return "", false
}

// mayBeRASJSON reports whether h, which opens with a quote, may be a RAS JSON field: a key
// rasJSONKey reads, in quotes, then ':'.
func mayBeRASJSON(h []byte) bool {
	j := bytes.IndexByte(h[1:min(len(h), maxRASKey+3)], '"') + 1
	return j > 0 && j+1 < len(h) && h[j+1] == ':' && isRASJSONKey(h[1:j])
}
