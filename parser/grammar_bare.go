package parser

import "strings"

// parseBare reads a line without an envelope: blank, the bare version line, damaged NCCL
// output, or anything else.
func (g *Grammar) parseBare(text string) Line {
	tree, err := g.bare().ParseString("", text)
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
		if l.Reason == reasonNoEnvelope {
			if hl, ok := g.parseHostLine(text); ok {
				return hl
			}
		}
		if c, unknown, glued, ok := g.lastRecord(text, prefixEnd(tree.Prefix)); ok && l.Kind == KindMalformed {
			l = Line{Kind: KindCollective, Rank: l.Rank, Coll: c, UnknownKey: unknown, Spliced: glued}
		}
	}
	return l
}
