package parser

// gFailAgent is torchrun's elastic agent on the first child it saw fail (FailureAgentExit):
// `failed (exitcode: -6) local_rank: 3 (pid: 26026) of binary: <path>`, after the agent's
// log head where one is printed. A glog head's time is read as the line's stamp, so its
// text starts at the thread id: `26021 site-packages/.../api.py:869] failed (...)`.
type gFailAgent struct {
	Head bool `parser:"( @( 'ERROR' ':' 'torch.distributed.elastic.multiprocessing.api' ':' | 'torch.distributed.elastic.multiprocessing.api' ':' Sp '[' 'ERROR' ']' Sp )"`
	// Thread is a glog head's thread id (digits), before its file:line].
	Thread *decNum  `parser:" | @Word Sp ( Word | '/' | '-' )+ ':' Word ']' Sp )?"`
	Code   decNum   `parser:"'failed' Sp '(' 'exitcode' ':' Sp @('-'? Word) ')' Sp"`
	Local  decNum   `parser:"'local_rank' ':' Sp @Word Sp"`
	Pid    decNum   `parser:"'(' 'pid' ':' Sp @Word ')'"`
	Tail   []string `parser:"( Sp 'of' Sp 'binary' ':' @(HPT | Sp | Punct | Word)* )?"`
}
