module github.com/nccllog/nccllog

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/dustin/go-humanize v1.1.0
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.20.3
	github.com/spf13/pflag v1.0.10
	golang.org/x/sync v0.24.0
)

require github.com/ulikunitz/xz v0.5.17
