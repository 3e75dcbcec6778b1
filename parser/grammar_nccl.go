package parser

import "github.com/alecthomas/participle/v2/lexer"

// gNCCLLine is a line holding an NCCL envelope: launcher prefixes, then anything up to the
// first `parser:"host:pid:tid [dev] ... NCCL LEVEL"` or `parser:"host:pid:tid NCCL CALL"`, then the message.
type gNCCLLine struct {
	Prefix []*gPrefix `parser:"@@*"`
	Junk   []*gTok    `parser:"( (?! HPT ( Sp '[' '-'? Word ']' Sp ( (?! 'NCCL' Sp ('INFO' | 'WARN' | 'TRACE' | 'ABORT') | HPT ) (Sp | Punct | Word) )* 'NCCL' Sp ('INFO' | 'WARN' | 'TRACE' | 'ABORT') | Sp 'NCCL' Sp 'CALL' ) ) @@ )*"`
	Env    *gEnvelope `parser:"@@"`
	Msg    *gMessage  `parser:"( Sp @@ )?"`
	Trail  string     `parser:"@Sp?"`
}

// gEnvelope is `parser:"host:pid:tid [dev] NCCL LEVEL"`, with a WARN or TRACE location between the
// device and NCCL, or `parser:"host:pid:tid NCCL CALL"`.
type gEnvelope struct {
	Pos   lexer.Position
	HPT   hptWord  `parser:"@HPT"`
	Dev   *decNum  `parser:"( Sp '[' @('-'? Word) ']' Sp"`
	Loc   []string `parser:"  ( (?! 'NCCL' Sp ('INFO' | 'WARN' | 'TRACE' | 'ABORT') | HPT ) @(Sp | Punct | Word) )*"` // up to " NCCL WARN ", as a path may hold an NCCL directory
	Level string   `parser:"  'NCCL' Sp @('INFO' | 'WARN' | 'TRACE' | 'ABORT')"`
	Call  bool     `parser:"| Sp 'NCCL' Sp @'CALL' )"`
}

// gMessage is what follows the envelope. The alternatives are tried in order.
type gMessage struct {
	Pos   lexer.Position
	Coll  *gCollective `parser:"  @@"`
	Comm  *gComm       `parser:"| @@"`
	Other []*gTok      `parser:"| @@+"`
}

// gCollective is the enqueue line of every NCCL and RCCL version:
// `parser:"%s: opCount %lx sendbuff %p recvbuff %p count %zi datatype %d op %d root %d comm %p
// [nranks=%d] stream %p"`, with RCCL's `parser:" task %d globalrank %d"` after it. Before each
// field from sendbuff to [nranks=] (and before task and globalrank) a release may print a
// field this grammar does not know (RCCL 2.27's `parser:"acc (nil)"`): it is read as a
// gExtraField, so that the call is kept.
//
// Logs as people paste them are read too: a bracketed field before the op (`parser:"[2]
// AllReduce: ..."`), any text without white space in a pointer field (`parser:"<PTR>"`,
// `parser:"0x..."`: the pointer is unread, the call kept), and no stream at all where the
// line ends at `parser:"[nranks=2]"` (test harnesses print it last).
type gCollective struct {
	Tag       []string       `parser:"( '[' @(~']')* ']' Sp )?"`
	Op        Op             `parser:"@Word ':' Sp 'opCount' Sp"`
	OpCount   hexNum         `parser:"@Word"`
	XSend     []*gExtraField `parser:"@@*"`
	SendBuff  ptrField       `parser:"Sp 'sendbuff' Sp @((Word | Punct | HPT)+)"`
	XRecv     []*gExtraField `parser:"@@*"`
	RecvBuff  ptrField       `parser:"Sp 'recvbuff' Sp @((Word | Punct | HPT)+)"`
	XCount    []*gExtraField `parser:"@@*"`
	Count     decNum         `parser:"Sp 'count' Sp @('-'? Word)"`
	XDatatype []*gExtraField `parser:"@@*"`
	Datatype  Datatype       `parser:"Sp 'datatype' Sp @('-'? Word)"`
	XRedOp    []*gExtraField `parser:"@@*"`
	RedOp     RedOp          `parser:"Sp 'op' Sp @('-'? Word)"`
	XRoot     []*gExtraField `parser:"@@*"`
	Root      decNum         `parser:"Sp 'root' Sp @('-'? Word)"`
	XComm     []*gExtraField `parser:"@@*"`
	Comm      ptrField       `parser:"Sp 'comm' Sp @((Word | Punct | HPT)+)"`
	XNRanks   []*gExtraField `parser:"@@*"`
	NRanks    decNum         `parser:"Sp '[' 'nranks' '=' @('-'? Word) ']'"`
	Stream    *ptrField      `parser:"( Sp 'stream' Sp @((Word | Punct | HPT)+) | Sp? (?! HPT | Punct | Word) )"`
	RCCL      *gRCCLSuffix   `parser:"@@?"`
	Rest      []string       `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gRCCLSuffix is RCCL's `parser:" task %d globalrank %d"`.
type gRCCLSuffix struct {
	XTask       []*gExtraField `parser:"@@*"`
	Task        decNum         `parser:"Sp 'task' Sp @('-'? Word)"`
	XGlobalRank []*gExtraField `parser:"@@*"`
	GlobalRank  decNum         `parser:"Sp 'globalrank' Sp @('-'? Word)"`
}

// gExtraField is a `parser:"key value"` pair of a collective line that is none of its known
// fields: a one-word key and a one-token value (a number, a pointer or (nil)).
type gExtraField struct {
	Key   string   `parser:"Sp (?! 'opCount' | 'sendbuff' | 'recvbuff' | 'count' | 'datatype' | 'op' | 'root' | 'comm' | 'stream' | 'task' | 'globalrank') @Word Sp"`
	Value []string `parser:"@('-'? Word | '(' 'nil' ')')"`
}

// unknownKey returns the key of the collective line's first gExtraField, or "".
func (c *gCollective) unknownKey() string {
	lists := [][]*gExtraField{c.XSend, c.XRecv, c.XCount, c.XDatatype, c.XRedOp, c.XRoot, c.XComm, c.XNRanks}
	if c.RCCL != nil {
		lists = append(lists, c.RCCL.XTask, c.RCCL.XGlobalRank)
	}
	for _, l := range lists {
		if len(l) > 0 {
			return l[0].Key
		}
	}
	return ""
}

// gComm is a communicator line: Init START/COMPLETE in all its versions, the 2.20+ node
// layout line, and Destroy/Abort/Revoke.
type gComm struct {
	RankTag *decNum       `parser:"( '[' 'Rank' Sp @Word ']' Sp )?"`
	API     string        `parser:"( (?! 'comm') @Word Sp )?"`
	Comm    ptrNum        `parser:"'comm' Sp @Word"`
	Rank    decNum        `parser:"Sp 'rank' Sp @('-'? Word)"`
	NRanks  decNum        `parser:"Sp ('nranks' | 'nRanks') Sp @('-'? Word)"`
	Fields  []*gCommField `parser:"( Sp @@ )*"`
	Event   *gCommEvent   `parser:"( Sp? '-' Sp @@ )?"`
	Rest    []string      `parser:"@(HPT | Sp | Punct | Word)*"` // e.g. Ray's " [repeated 2x across cluster]"
}

// gCommField is one `parser:"name value"` pair of a communicator line.
type gCommField struct {
	Name  string   `parser:"@('cudaDev' | 'nvmlDev' | 'busId' | 'commId' | 'parent' | 'splitCount' | 'childCount' | 'color' | 'key' | 'localSize' | 'nNodes' | 'localRanks' | 'localRank' | 'MNNVL')"`
	Value []string `parser:"Sp @('-'? Word)"`
	Used  *decNum  `parser:"| 'used' Sp @Word Sp 'bytes' ( Sp 'on' Sp 'core' Sp Word )?"`
}

// gCommEvent is `parser:"Init START"`, `parser:"Destroy COMPLETE"`, `parser:"Revoke COMPLETE, result 0"`, ...
type gCommEvent struct {
	What  string  `parser:"@('Init' | 'Destroy' | 'Abort' | 'Revoke')"`
	Phase string  `parser:"Sp @('START' | 'COMPLETE')"`
	Res   *decNum `parser:"( ',' Sp 'result' Sp @('-'? Word) )?"`
}

// gTok is one token of a message that is kept as text; HPT tokens are told apart because a
// second envelope inside a message marks a spliced line.
type gTok struct {
	Pos lexer.Position
	HPT string `parser:"  @HPT"`
	Tok string `parser:"| @(Sp | Punct | Word)"`
}

func (t *gTok) text() string { return t.HPT + t.Tok }
