package parser

// gFailureLine is a line of a job's failure evidence that opens its text (after the launcher
// prefixes and any indent): the launchers', torchrun's, Open MPI's, Python's, a crash
// handler's and NCCL RAS's words (failure.go). The alternatives are tried in order.
type gFailureLine struct {
	Prefix []*gPrefix `parser:"@@*"`
	Indent string     `parser:"@Sp?"`
	Msg    *gFailMsg  `parser:"@@"`
}

// gFailGlued is a failure line whose head follows other text on its line: another process's
// cut-off output, or a pdsh `host: ` label. Only heads specific enough to be told anywhere
// are read there.
type gFailGlued struct {
	Prefix []*gPrefix `parser:"@@*"`
	Junk   []string   `parser:"( (?! 'srun' ':' Sp ( 'error' ':' | 'Job' Sp 'step' ) | 'slurmstepd' ':' Sp 'error' ':' | 'Traceback' Sp '(' 'most' | 'terminate' Sp 'called' Sp 'after' | 'Fatal' Sp 'Python' Sp 'error' ':' ) @(HPT | Sp | Punct | Word) )+"`
	Msg    *gFailMsg  `parser:"@@"`
}

// gFailMsg is the message of a failure line.
type gFailMsg struct {
	TaskExit  *gFailTaskExit  `parser:"( @@"`
	Aborted   *gFailAborted   `parser:"| @@"`
	Cancelled *gFailCancelled `parser:"| @@"`
	Root      bool            `parser:"| @('Root' Sp 'Cause' Sp '(' 'first' Sp 'observed' Sp 'failure' ')' ':')"`
	Other     bool            `parser:"| @( 'Other' Sp 'Failures' ':' | 'Failures' ':' )"`
	Agent     *gFailAgent     `parser:"| @@"`
	Field     *gFailField     `parser:"| @@"`
	MPIExit   bool            `parser:"| @('mpirun' Sp 'detected' Sp 'that' Sp 'one' Sp 'or' Sp 'more' Sp 'processes' Sp 'exited' | 'Primary' Sp 'job' Sp 'terminated' Sp 'normally')"`
	MPIName   *decNum         `parser:"| 'Process' Sp 'name' ':' Sp '[' '[' Word ',' Word ']' ',' @Word ']'"`
	MPICode   *decNum         `parser:"| 'Exit' Sp 'code' ':' Sp @('-'? Word) Sp?"`
	Traceback bool            `parser:"| @('Traceback' Sp '(' 'most' Sp 'recent' Sp 'call' Sp 'last' ')' ':')"`
	Terminate *gFailTerminate `parser:"| @@"`
	What      []string        `parser:"| 'what' '(' ')' ':' Sp? @(HPT | Sp | Punct | Word)*"`
	LastError *gFailLastError `parser:"| @@"`
	Signal    *gFailSignal    `parser:"| @@"`
	RAS       *gFailRAS       `parser:"| @@"`
	Except    *gFailExcept    `parser:"| @@ )"`
	Rest      []string        `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gRareFailLine is a failure line rare enough to have a grammar of its own
// (Grammar.rareFail), built only where a line holds its words (rareFailWords), so that the
// failure grammar every job's log builds stays as small as it was (each build's allocations
// cost a small log a garbage collection): a launcher's word on a process a signal killed, or
// TensorFlow's on an op that failed, after any text (TF's log head).
type gRareFailLine struct {
	Prefix   []*gPrefix     `parser:"@@*"`
	Indent   string         `parser:"@Sp?"`
	Noticed  *gFailNoticed  `parser:"( @@"`
	OpKernel *gFailOpKernel `parser:"| ( (?! 'OP_REQUIRES' Sp 'failed' Sp 'at' ) (HPT | Sp | Punct | Word) )* @@ )"`
	Rest     []string       `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gFailNoticed is Open MPI's (ORTE's, PRRTE's) launcher on a process that a signal killed,
// as its help text prints it (help-errmgr-base.txt, [proc-aborted-signal] and
// [proc-aborted-strsignal]; Open MPI 1.x says `job rank`): `<tool> noticed that process rank
// <r> with PID <pid> on node <node> exited on signal <n> (<name>).`, the name left out where
// the system gives none (`exited on signal <n>.`).
type gFailNoticed struct {
	Tool string   `parser:"@('mpirun' | 'mpiexec' | 'orterun' | 'prterun' | 'oshrun') Sp 'noticed' Sp 'that' Sp ( 'process' | 'job' ) Sp"`
	Rank string   `parser:"'rank' Sp @Word Sp 'with' Sp 'PID' Sp"`
	Pid  string   `parser:"@Word Sp 'on' Sp 'node' Sp"`
	Host []string `parser:"@(Word | '-')+ Sp 'exited' Sp 'on' Sp 'signal' Sp"`
	Sig  string   `parser:"@Word"`
	Name []string `parser:"( Sp? '(' @(Word | Sp | '-')+ ')' )?"`
}

// gFailOpKernel is TensorFlow's word on an op that failed (op_kernel.cc's
// CtxFailureWithWarning: `OP_REQUIRES failed at <file>:<line> : <status>`, the status its
// code's name and message: `Internal: unhandled system error`, `INTERNAL: ...` since TF 2.13),
// after TF's own log head. failureFromMsg reads it where the op is NCCL's.
type gFailOpKernel struct {
	File []string `parser:"'OP_REQUIRES' Sp 'failed' Sp 'at' Sp @Word @':' @Word Sp? ':' Sp"`
	Code string   `parser:"@Word ':' Sp?"`
	Msg  []string `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gFailTerminate is `terminate called after throwing an instance of '<type>'`, and its
// `what():  <message>` where the line runs on into it (as a log that lost its newlines).
type gFailTerminate struct {
	Type []string `parser:"'terminate' Sp 'called' Sp 'after' Sp 'throwing' Sp 'an' Sp 'instance' Sp 'of' Sp @( (?! Sp? 'what' '(' ')' ':' ) (HPT | Sp | Punct | Word) )*"`
	What []string `parser:"( Sp? 'what' '(' ')' ':' Sp? @(HPT | Sp | Punct | Word)* )?"`
}

// gFailLastError is `Last error:` under an NCCL exception, and NCCL's last WARN message
// where the line holds it.
type gFailLastError struct {
	Head bool     `parser:"@('Last' Sp 'error' ':')"`
	Msg  []string `parser:"Sp? @(HPT | Sp | Punct | Word)*"`
}

// gFailTaskExit is `srun: error: <node>: task(s) <list>: <status>`.
type gFailTaskExit struct {
	Host   []string `parser:"'srun' ':' Sp 'error' ':' Sp @(Word | '-')+ ':' Sp ( 'task' | 'tasks' ) Sp"`
	Tasks  []string `parser:"@(Word | ',' | '-')+ ':' Sp"`
	Status []string `parser:"@(HPT | Sp | Punct | Word)+"`
}

// gFailAborted is `srun: Job step aborted: <what srun does>`.
type gFailAborted struct {
	Head bool     `parser:"@('srun' ':' Sp 'Job' Sp 'step' Sp 'aborted')"`
	Msg  []string `parser:"( ':' Sp? @(HPT | Sp | Punct | Word)* )?"`
}

// gFailCancelled is `slurmstepd: error: *** STEP|JOB <id> ON <node> CANCELLED AT <time> [DUE
// TO <reason>] ***`; what follows CANCELLED is read in failureCancelReason.
type gFailCancelled struct {
	Host []string `parser:"'slurmstepd' ':' Sp 'error' ':' Sp '***' Sp ( 'STEP' | 'JOB' ) Sp Word Sp 'ON' Sp @(Word | '-')+ Sp 'CANCELLED'"`
	Tail []string `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gFailField is one `  <name> : <value>` line of torchrun's failure block, in its template's
// spacing (the name padded to ten columns); the value is read in failureFieldValue.
type gFailField struct {
	Name  string   `parser:"@( 'time' | 'host' | 'rank' | 'exitcode' | 'error_file' | 'traceback' )"`
	Pad   string   `parser:"@Sp? ':' Sp"`
	Value []string `parser:"@(HPT | Sp | Punct | Word)+"`
}

// gFailSignal is a process's own word on the signal that ends it.
type gFailSignal struct {
	Segv   bool     `parser:"  @('Segmentation' Sp 'fault') ( Sp '(' 'core' Sp 'dumped' ')' )?"`
	Abort  bool     `parser:"| @('Aborted' Sp '(' 'core' Sp 'dumped' ')')"`
	Fatal  []string `parser:"| 'Fatal' Sp 'Python' Sp 'error' ':' Sp @(HPT | Sp | Punct | Word)+"`
	Handle string   `parser:"| '***' Sp @Word"`
}

// gHandlerLine is a crash handler's line after the launcher prefixes and any indent: a grammar
// of its own (Grammar.handler), built only where a line opens with a bracket that may be
// one, so that the failure grammar every job's log builds stays as small as it was.
type gHandlerLine struct {
	Prefix []*gPrefix    `parser:"@@*"`
	Indent string        `parser:"@Sp?"`
	Msg    *gFailHandler `parser:"@@"`
	Rest   []string      `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gFailHandler is a crash handler's line on the signal that ends a process, headed by the
// process in brackets: Open MPI's `[host:pid] *** Process received signal ***` and `[host:pid]
// Signal: Segmentation fault (11)`, UCX's `[host:pid:thread:tid] Caught signal 11
// (Segmentation fault: address not mapped to object at address 0x48)`. UCX pads the pid to
// five places with spaces after it (`%-5d`): `[node:5283 :0:5704]`, `[pod:77   :1:80]`. The
// handler's other lines (`Signal code:`, `Failing at address:`, its frames) are no evidence.
type gFailHandler struct {
	HPT    string   `parser:"'[' ( @HPT ':' Word"`
	Host   []string `parser:"    | @(Word | '-')+ ':'"`
	Pid    *decNum  `parser:"      @Word ( Sp ':' Word ':' Word )? ) ']' Sp"`
	Head   bool     `parser:"( @('***' Sp 'Process' Sp 'received' Sp 'signal' Sp '***')"`
	Name   []string `parser:"| 'Signal' ':' Sp @Word ( @Sp @Word )* Sp '(' Word ')'"`
	Caught []string `parser:"| 'Caught' Sp 'signal' Sp Word Sp '(' @Word ( @Sp @Word )* ( ':' | ')' ) )"`
}

// gFailRAS is a line of an NCCL RAS report (src/ras/client_support.cc).
type gFailRAS struct {
	Header  bool         `parser:"  @( 'Job' Sp 'summary' | 'Group' Sp 'Comms' Sp 'Nodes' )"`
	Section string       `parser:"| @('Communicators...' | 'Errors' | 'Warnings' | 'DEAD' | 'INCOMPLETE' | 'TIMEOUT') (?= Sp? EOF | Sp '(' )"`
	Row     *gRASRow     `parser:"| @@"`
	Entry   *gRASEntry   `parser:"| @@"`
	Finding []string     `parser:"| @( 'Communicator' Sp 'ranks' Sp 'have' Sp 'different' | 'Missing' Sp 'communicator' Sp 'data' | ( 'Initialization' | 'Asynchronous' ) Sp ( 'error' | 'errors' ) Sp 'on' | Word Sp 'ranks' Sp ( 'have' | 'reported' ) ) @(HPT | Sp | Punct | Word)*"`
	Rank    *gRASRank    `parser:"| @@"`
	Dead    *gRASProcess `parser:"| @@"`
	Gone    *decNum      `parser:"| @Word Sp 'job' Sp ( 'process' | 'processes' ) Sp ( 'is' | 'are' ) Sp 'considered' Sp 'dead'"`
}

// gRASRow is a row of the communicators table: group, comms, nodes, ranks per node (N or
// N-M), ranks per comm, ranks in group, status, errors.
type gRASRow struct {
	Group  string   `parser:"@Word Sp Word Sp Word Sp Word ( '-' Word )? Sp Word Sp Word Sp"`
	Status string   `parser:"@( 'UNKNOWN' | 'INIT' | 'RUNNING' | 'FINALIZE' | 'ABORT' | 'NOCOMM' ) Sp"`
	Errors []string `parser:"@( 'OK' | 'MISMATCH' | 'ERROR' | 'INCOMPLETE' ) ( @',' @( 'MISMATCH' | 'ERROR' ) )* Sp?"`
}

// gRASEntry is the head of an Errors or Warnings entry: `#<group>-<comm> (<hash>) <WHAT>`.
type gRASEntry struct {
	Group string   `parser:"@Word '-' Word Sp"`
	Comm  string   `parser:"'(' @Word ')' Sp"`
	What  []string `parser:"@( 'MISMATCH' | 'ERROR' | 'INCOMPLETE' ) Sp?"`
}

// gRASRank is `Rank <r> [<what>] -- GPU <g> managed by process <pid> on node <addr>` (or `--
// [process information not found]`).
type gRASRank struct {
	Rank decNum   `parser:"'Rank' Sp @Word"`
	What []string `parser:"( Sp (?! '-' '-' ) @(Word | Punct) ( (?! Sp '-' '-' ) @(HPT | Sp | Punct | Word) )* )? Sp '-' '-' Sp"`
	GPU  *decNum  `parser:"( 'GPU' Sp @Word ( Sp '(' 'NVML' Sp Word ')' )? Sp 'managed' Sp 'by' Sp 'process' Sp"`
	Pid  *decNum  `parser:"  @Word Sp 'on' Sp 'node' Sp"`
	Host []string `parser:"  @(Word | '-' | ':')+ | '[' 'process' Sp 'information' Sp 'not' Sp 'found' ']' ) Sp?"`
}

// gRASProcess is `Process <pid> on node <addr> managing GPU(s) <list>`: a missing or dead
// process.
type gRASProcess struct {
	Pid  decNum   `parser:"'Process' Sp @Word Sp 'on' Sp 'node' Sp"`
	Host []string `parser:"@(Word | '-' | ':')+ Sp 'managing' Sp ( 'GPU' | 'GPUs' ) Sp"`
	GPU  decNum   `parser:"@Word"`
	Rest []string `parser:"@(HPT | Sp | Punct | Word)*"`
}

// gFailExcept is a Python exception line, `<dotted.Name>: <message>`; failureException
// decides whether the name is an exception's. A RAS JSON field, `"<key>": <value>[,]`, has
// its shape, its name in quotes: rasJSONField reads it.
type gFailExcept struct {
	Name string   `parser:"@Word ':'"`
	Msg  []string `parser:"( Sp @(HPT | Sp | Punct | Word)* )? EOF"`
}
