package parser

// gWatchdogLine is a line of PyTorch's ProcessGroupNCCL watchdog or flight recorder:
// launcher prefixes, anything up to the record, then an optional glog head, an optional
// process-group tag, and one of the messages of gWatchdogMsg.
type gWatchdogLine struct {
	Prefix []*gPrefix    `parser:"@@*"`
	Junk   []string      `parser:"( (?! '[' Word ( Sp HPT Word? )? Sp Word ':' Word ']' | '[' ( 'Rank' | 'PG' ) Sp | 'Watchdog' Sp 'caught' | 'Exception' Sp | 'failure' Sp 'detected' | 'Timeout' Sp 'at' Sp 'NCCL' | 'First' Sp 'PG' | 'Observed' Sp 'flight' | 'Received' Sp 'a' Sp 'dump' ) @(HPT | Sp | Punct | Word) )*"`
	Glog   *gGlog        `parser:"( @@ Sp )?"`
	Tag    *gPGTag       `parser:"( @@ Sp )?"`
	Msg    *gWatchdogMsg `parser:"@@"`
	Rest   []string      `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gGlog is c10's glog head `parser:"[E1016 03:31:38.928019586 ProcessGroupNCCL.cpp:607]"`
// (level and MMDD, time of day, file:line), or `parser:"[E ProcessGroupNCCL.cpp:574]"`.
type gGlog struct {
	Level glogLevel `parser:"'[' @Word"`
	Clock *glogTime `parser:"( Sp @(HPT Word?) )?"`
	File  string    `parser:"Sp @Word ':'"`
	Line  decNum    `parser:"@Word ']'"`
}

// gPGTag is the process group tag: `parser:"[Rank 4]"`, `parser:"[PG 1 Rank 0]"`,
// `parser:"[PG 0 (default_pg) Rank 1]"`, `parser:"[PG ID 2 PG GUID 9 Rank 4]"`,
// `parser:"[PG ID 0 PG GUID 0(default_pg) Rank 118]"`.
type gPGTag struct {
	PGID   *decNum  `parser:"'[' ( 'PG' Sp ( 'ID' Sp @Word Sp"`
	GUID   string   `parser:"  'PG' Sp 'GUID' Sp @Word"`
	GName  []string `parser:"  ( '(' @(~')')* ')' )?"`
	PG     *decNum  `parser:"| @Word"`
	PGName []string `parser:"  ( Sp '(' @(~')')* ')' )? ) Sp )?"`
	Rank   decNum   `parser:"'Rank' Sp @Word ']'"`
}

// gWatchdogMsg is the message of a watchdog line; the alternatives are tried in order.
type gWatchdogMsg struct {
	Timeout  *gWDTimeout  `parser:"  @@"`
	Except   *gWDExcept   `parser:"| @@"`
	Failure  *gWDFailure  `parser:"| @@"`
	At       *gWDAt       `parser:"| @@"`
	First    bool         `parser:"| @('First' Sp 'PG' Sp 'on' Sp 'this' Sp 'rank' Sp 'to' Sp 'signal' Sp ( 'dumping' | 'dumping.' ))"` // '.' is a Word byte
	Observed bool         `parser:"| @('Observed' Sp 'flight' Sp 'recorder' Sp 'dump' Sp 'signal')"`
	Received *gWDReceived `parser:"| @@"`
}

// gWDTimeout is `parser:"Watchdog caught collective operation timeout: WorkNCCL(SeqNum=S,
// OpType=OP, NumelIn=N, NumelOut=M, Timeout(ms)=T) ran for R milliseconds before timing out."`;
// older builds print fewer of the WorkNCCL fields.
type gWDTimeout struct {
	Seq      *decNum `parser:"'Watchdog' Sp 'caught' Sp 'collective' Sp 'operation' Sp 'timeout' ':' Sp 'WorkNCCL' '(' ( 'SeqNum' '=' @('-'? Word) ',' Sp )?"`
	OpType   string  `parser:"( 'OpType' '=' @Word"`
	NumelIn  *decNum `parser:"( ',' Sp 'NumelIn' '=' @('-'? Word) )?"`
	NumelOut *decNum `parser:"( ',' Sp 'NumelOut' '=' @('-'? Word) )?"`
	Timeout  *decNum `parser:"( ',' Sp 'Timeout' '(' 'ms' ')' '=' @('-'? Word) )?"`
	RanFor   *decNum `parser:"( ')' ( Sp 'ran' Sp 'for' Sp @('-'? Word) Sp ( 'milliseconds' | 'ms' ) )?"`
	// CutAfter and Cut are what is left of a tuple the line ends inside (a terminal cut the
	// line: `WorkNCCL(SeqNum=4, OpTy`, `..., NumelIn=112, Numel`), after the op or before it
	// (then the op is unknown): the tuple's bytes, white space only after a comma, and nothing after them.
	CutAfter []string `parser:"| @( ',' Sp? | Word | '(' | ')' | '=' )* (?! HPT | Sp | Punct | Word ) )"`
	Cut      []string `parser:"| @( ',' Sp? | Word | '(' | ')' | '=' )* (?! HPT | Sp | Punct | Word ) )"`
}

// gWDExcept is `parser:"Exception (either an error or timeout) detected by watchdog at work:
// S, last enqueued NCCL work: E, last completed NCCL work: C."`.
type gWDExcept struct {
	Seq    seqWord   `parser:"'Exception' Sp ( '(' 'either' Sp 'an' Sp 'error' Sp 'or' Sp 'timeout' ')' Sp )? 'detected' Sp 'by' Sp 'watchdog' Sp 'at' Sp 'work' ':' Sp @('-'? Word) ',' Sp"`
	Status *gWDQueue `parser:"@@"`
}

// gWDFailure is `parser:"failure detected by watchdog at work sequence id: S PG status: ..."`.
type gWDFailure struct {
	Seq    seqWord   `parser:"'failure' Sp 'detected' Sp 'by' Sp 'watchdog' Sp 'at' Sp 'work' Sp 'sequence' Sp 'id' ':' Sp @('-'? Word) Sp 'PG' Sp 'status' ':' Sp"`
	Status *gWDQueue `parser:"@@"`
}

// gWDAt is `parser:"Timeout at NCCL work: S, last enqueued NCCL work: E, last completed NCCL work: C."`.
type gWDAt struct {
	Seq    seqWord   `parser:"'Timeout' Sp 'at' Sp 'NCCL' Sp 'work' ':' Sp @('-'? Word) ',' Sp"`
	Status *gWDQueue `parser:"@@"`
}

// gWDReceived is `parser:"Received a dump signal due to a collective timeout from rank R and
// we will try our best to dump the debug info. Last enqueued NCCL work: E, last completed NCCL
// work: C."`: the text between the rank and the queue is skipped.
type gWDReceived struct {
	From   *decNum   `parser:"'Received' Sp 'a' Sp 'dump' Sp 'signal' ( Sp 'due' Sp 'to' Sp 'a' Sp 'collective' Sp 'timeout' Sp 'from' Sp 'rank' Sp @Word )?"`
	Skip   []string  `parser:"( (?! 'Last' Sp 'enqueued') @(HPT | Sp | Punct | Word) )*"`
	Status *gWDQueue `parser:"@@"`
}

// gWDQueue is the queue of a process group: `parser:"last enqueued [NCCL] work: E, [last
// started [NCCL] work: T (NAME),] last completed [NCCL] work: C"` (`parser:"Last"` after a dump
// signal; the comma before "last completed" is missing in some builds).
type gWDQueue struct {
	Enqueued  seqWord  `parser:"( 'last' | 'Last' ) Sp 'enqueued' Sp ( 'NCCL' Sp )? 'work' ':' Sp @('-'? Word)"`
	Started   *seqWord `parser:"( ',' Sp 'last' Sp 'started' Sp ( 'NCCL' Sp )? 'work' ':' Sp @('-'? Word)"`
	StartedOp string   `parser:"  ( Sp '(' @Word ')' )? )?"`
	Completed seqWord  `parser:"','? Sp 'last' Sp 'completed' Sp ( 'NCCL' Sp )? 'work' ':' Sp @('-'? Word)"`
}
