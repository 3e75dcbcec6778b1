package diagnose

import "bytes"

// A log viewer's table copied as text puts each line in a row: AWS CloudWatch's console
// (SageMaker's training jobs among its users) gives a row's time and message as
//
//	  | 2024-08-23T22:22:51.871Z | [PG 0 Rank 6] Process group watchdog thread terminated with exception: ...
//
// The parser reads no envelope or head behind it, so the line is other text; diagnose's
// readers of other text read what follows the time's cell, as the process printed it.

// maxTableBlanks bounds the blanks before a row's first bar; maxTableTime the time's cell.
const (
	maxTableBlanks = 3
	maxTableTime   = 40
)

// mayOpenRow is tableLead's first test, inline: a bar first or after up to three blanks. The
// indented lines of a traceback fail it at their fourth byte at most.
func mayOpenRow(t []byte) bool {
	return len(t) > 4 && (t[0] == '|' || t[0] == ' ' && (t[1] == '|' || t[2] == '|' || t[3] == '|'))
}

// tableLead is the length of a viewer's row head that t opens with, the blanks, the bar, the
// time and the bar after it with their blanks; 0 where t opens with none.
func tableLead(t []byte) int {
	i := 0
	for i < len(t) && i < maxTableBlanks && t[i] == ' ' {
		i++
	}
	if i+2 >= len(t) || t[i] != '|' || t[i+1] != ' ' || !opensDate(t[i+2:]) {
		return 0
	}
	i += 2
	j := bytes.Index(t[i:min(len(t), i+maxTableTime)], []byte(" | "))
	if j < 0 {
		return 0
	}
	return i + j + len(" | ")
}
