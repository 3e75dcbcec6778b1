package parser

import "github.com/alecthomas/participle/v2/lexer"

// lineLexer cuts a log line into tokens. White space is a token of its own (Sp) so that the
// grammar sees the text exactly as printed. The rules are tried in order at each position:
//
//   - HPT, the `host:pid:tid` head of an NCCL envelope (also matches times such as 12:00:00,
//     which the grammar never takes for an envelope because no `[dev] NCCL` follows them);
//   - Sp, a run of white space as Go's regexp `\s` defines it;
//   - Punct, one of `: [ ] ( ) < > = , | / -`;
//   - Word, any other run of bytes, NUL and invalid UTF-8 included.
//
// Numbers are Words; the capture types in values.go read them in the base NCCL prints.
var lineLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "HPT", Pattern: `[A-Za-z0-9][A-Za-z0-9._\-]*:[0-9]+:[0-9]+`},
	{Name: "Sp", Pattern: `[\t\n\f\r ]+`},
	{Name: "Punct", Pattern: `[:\[\]()<>=,|/\-]`},
	{Name: "Word", Pattern: `[^\t\n\f\r :\[\]()<>=,|/\-]+`},
})
