package parser

// The set-up grammar reads the message text of an INFO line (what follows ` NCCL INFO `), or
// a bare version line, for the lines `nccllog info` reports on. Each alternative is one line
// kind of /work/shared/nccl-log-format.md §1.5, §3.3, §4.1, §4.4, §4.5, §5.1, §5.2 and §5.4,
// in every version's form. Numbers are kept as the words NCCL printed; setup.go reads them.

// gSetup is one set-up message. The alternatives are tried in order.
type gSetup struct {
	Version  *gVersion    `parser:"  @@"`
	Driver   *gDriver     `parser:"| @@"`
	Network  *gNetwork    `parser:"| @@"`
	NetIB    *gNetIB      `parser:"| @@"`
	NetSock  *gNetSocket  `parser:"| @@"`
	Plugin   *gNetPlugin  `parser:"| @@"`
	Conn     *gConn       `parser:"| @@"`
	Rings    *gRings      `parser:"| @@"`
	Channels *gChannels   `parser:"| @@"`
	Env      *gEnv        `parser:"| @@"`
	Tuning   *gTuning     `parser:"| @@"`
	Timings  *gTimings    `parser:"| @@"`
	Boot     *gBootTiming `parser:"| @@"`
	Back     *gBacktrace  `parser:"| @@"`
}

// gVersion is `NCCL version 2.21.5+cuda12.4`, RCCL's `RCCL version : 2.26.6-HEAD:f224e2c`
// and the `HIP version  : ...` and `ROCm version : ...` lines of its header block.
type gVersion struct {
	Lib  string   `parser:"@('NCCL' | 'RCCL' | 'HIP' | 'ROCm') Sp 'version' Sp ( ':' Sp )?"`
	Text []string `parser:"@(Word | '-' | ':')+"`
	Rest []string `parser:"@(Sp | Punct | Word)*"`
}

// gDriver is `cudaDriverVersion 12020` (2.13+).
type gDriver struct {
	Version string `parser:"'cudaDriverVersion' Sp @Word"`
}

// gNetwork is `Using network IB` (2.6+); a plugin's name can hold spaces.
type gNetwork struct {
	Name []string `parser:"'Using' Sp 'network' Sp @(Sp | Punct | Word)+"`
}

// gNetIB is `NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>`.
type gNetIB struct {
	Name string    `parser:"'NET' '/' @('IB' | 'IBext') Sp? ':' Sp 'Using'"`
	NICs []*gIBNIC `parser:"( Sp '[' (?! 'RO') Word ']' @@ )*"`
	RO   bool      `parser:"( Sp '[' @'RO' ']' )?"`
	OOB  []string  `parser:"Sp? ';' Sp 'OOB' Sp @(Sp | Punct | Word)*"`
}

// gIBNIC is `mlx5_0:1/IB`, with 2.2x's `:rail` / `:plane` parts: the device, port and link
// layer as printed.
type gIBNIC struct {
	Text []string `parser:"@(Word | ':' | '/')+"`
}

// gNetSocket is `NET/Socket : Using [0]eth0:10.0.0.1<0> [1]eth1:...`.
type gNetSocket struct {
	Ifs []*gSockIf `parser:"'NET' '/' 'Socket' Sp? ':' Sp 'Using' ( Sp '[' Word ']' @@ )+"`
}

// gSockIf is `eth0:10.0.0.1<0>`: the interface name is kept, the address is not compared.
type gSockIf struct {
	Name string   `parser:"@Word"`
	Addr []string `parser:"@(Word | Punct)*"`
}

// gNetPlugin is a network plugin's own line (`NET/OFI Selected Provider is efa (found 4
// nics)`, `NET/Plugin : Loaded net plugin ...`), kept as text.
type gNetPlugin struct {
	Name string   `parser:"'NET' '/' @('OFI' | 'Plugin')"`
	Text []string `parser:"Sp? ':'? Sp? @(Sp | Punct | Word)*"`
}

// gConn is a per-connection line of every version (§4.4):
// `Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read`, `Ring 00 : 3 -> 4 [send] via NET/IB/0`,
// `Channel 00/1 : 0[18000] -> 8[18000] [receive] via NET/IB/0(7)/GDRDMA/Shared`.
type gConn struct {
	What    string   `parser:"@('Channel' | 'Ring' | 'CollNet' | 'Coll') Sp"`
	Channel decNum   `parser:"@Word"`
	Index   *decNum  `parser:"( '/' @Word )? Sp ':' Sp"`
	From    decNum   `parser:"@Word"`
	FromDev string   `parser:"( '[' @Word ']' )?"`
	To      *decNum  `parser:"( Sp '-' '>' Sp @Word"`
	ToDev   string   `parser:"  ( '[' @Word ']' )? )?"`
	Dir     string   `parser:"( Sp '[' @('send' | 'receive') ']' )?"`
	Via     []string `parser:"Sp 'via' Sp @(Sp | Punct | Word)+"`
}

// gRings is `Connected all rings` and 2.24's `Connected all rings, use ring PXN 0 GDR 1`.
type gRings struct {
	All string  `parser:"'Connected' Sp 'all' Sp @'rings'"`
	PXN *decNum `parser:"( ',' Sp 'use' Sp 'ring' Sp 'PXN' Sp @Word"`
	GDR *decNum `parser:"  Sp 'GDR' Sp @Word )?"`
}

// gChannels is `24 coll channels, 24 collnet channels, 16 nvls channels, 32 p2p channels, 32
// p2p channels per peer` in its three version forms.
type gChannels struct {
	Coll  decNum      `parser:"@Word Sp 'coll' Sp 'channels'"`
	Other []*gChanNum `parser:"( ',' Sp @@ )*"`
}

type gChanNum struct {
	N       decNum `parser:"@Word Sp"`
	What    string `parser:"@('collnet' | 'nvls' | 'p2p') Sp 'channels'"`
	PerPeer bool   `parser:"( Sp @'per' Sp 'peer' )?"`
}

// gEnv is `NCCL_IB_GID_INDEX set by environment to 3.`, `NCCL_SOCKET_IFNAME set by
// environment to eth0` and `NCCL_IB_HCA set to mlx5_0`.
type gEnv struct {
	Name  string   `parser:"@Word Sp 'set' Sp ( 'by' Sp 'environment' Sp )? 'to'"`
	Value []string `parser:"( Sp @(Sp | Punct | Word)* )?"`
}

// gTuning is a TUNING line: 2.20–2.22 `8388608 Bytes -> Algo 1 proto 2 time 61.873001`,
// 2.23 the same after `AllReduce: `, 2.24+ `AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE
// channel{Lo..Hi}={0..15}`.
type gTuning struct {
	Op    string  `parser:"( @Word ':' Sp )?"`
	Bytes decNum  `parser:"@Word Sp 'Bytes' Sp '-' '>' Sp"`
	Algo  string  `parser:"'Algo' Sp @Word Sp"`
	Proto string  `parser:"'proto' Sp @Word"`
	Time  string  `parser:"( Sp 'time' Sp @Word"`
	Chans *string `parser:"| Sp 'channel{Lo..Hi}' '=' @Word )?"`
}

// gTimings is `Init timings: rank 0 nranks 16 total 1.84 (kernels 0.21, ...)` (2.22) and
// `Init timings - ncclCommInitRank: rank 0 ...` (2.23+).
type gTimings struct {
	API    string     `parser:"'Init' Sp 'timings' ( ':' | Sp '-' Sp @Word ':' ) Sp"`
	Rank   decNum     `parser:"'rank' Sp @Word Sp"`
	NRanks decNum     `parser:"'nranks' Sp @Word Sp"`
	Total  string     `parser:"'total' Sp @Word"`
	Parts  []*gTiming `parser:"( Sp '(' @@ ( ',' Sp @@ )* ')' )?"`
}

type gTiming struct {
	Name  string `parser:"@Word Sp"`
	Value string `parser:"@Word"`
}

// gBootTiming is `Bootstrap timings total 0.35 (create 0.01, send 0.02, ...)` (2.23+).
type gBootTiming struct {
	Total string     `parser:"'Bootstrap' Sp 'timings' Sp 'total' Sp @Word"`
	Parts []*gTiming `parser:"( Sp '(' @@ ( ',' Sp @@ )* ')' )?"`
}

// gBacktrace is one frame of an error's way up the stack: `init.cc:1460 -> 2`, 2.30.7's
// `init.cc:1460 (ncclCommInitRankFunc) -> 2`, and `proxy.cc:874 -> 6 [Progress Thread]`.
type gBacktrace struct {
	File   []string `parser:"@(Word | '/' | '-')+ ':'"`
	Line   decNum   `parser:"@Word"`
	Func   string   `parser:"( Sp '(' @Word ')' )?"`
	Result decNum   `parser:"Sp '-' '>' Sp @Word"`
	Thread []string `parser:"( Sp '[' @(Word | Sp)+ ']' )?"`
}
