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
	Coll  *gCollective `parser:"  @@"`
	Comm  *gComm       `parser:"| @@"`
	Other []*gTok      `parser:"| @@+"`
}

// gCollective is the enqueue line of every NCCL and RCCL version:
// `parser:"%s: opCount %lx sendbuff %p recvbuff %p count %zi datatype %d op %d root %d comm %p
// [nranks=%d] stream %p"`, with RCCL's `parser:" task %d globalrank %d"` after it.
type gCollective struct {
	Op       string       `parser:"@Word ':' Sp 'opCount' Sp"`
	OpCount  hexNum       `parser:"@Word Sp 'sendbuff' Sp"`
	SendBuff ptrNum       `parser:"@(Word | '(' 'nil' ')') Sp 'recvbuff' Sp"`
	RecvBuff ptrNum       `parser:"@(Word | '(' 'nil' ')') Sp 'count' Sp"`
	Count    decNum       `parser:"@('-'? Word) Sp 'datatype' Sp"`
	Datatype decNum       `parser:"@('-'? Word) Sp 'op' Sp"`
	RedOp    decNum       `parser:"@('-'? Word) Sp 'root' Sp"`
	Root     decNum       `parser:"@('-'? Word) Sp 'comm' Sp"`
	Comm     ptrNum       `parser:"@(Word | '(' 'nil' ')') Sp '[' 'nranks' '='"`
	NRanks   decNum       `parser:"@('-'? Word) ']' Sp 'stream' Sp"`
	Stream   ptrNum       `parser:"@(Word | '(' 'nil' ')')"`
	RCCL     *gRCCLSuffix `parser:"@@?"`
	Rest     []string     `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gRCCLSuffix is RCCL's `parser:" task %d globalrank %d"`.
type gRCCLSuffix struct {
	Task       decNum `parser:"Sp 'task' Sp @('-'? Word)"`
	GlobalRank decNum `parser:"Sp 'globalrank' Sp @('-'? Word)"`
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
