package strag

import (
	"testing"

	"github.com/nccllog/nccllog/internal/shorttest"
)

// TestMain runs the tests as package shorttest sets them up under -short.
//
// The tests run side by side (t.Parallel): each reads its own generated logs, and the
// Parsers they share lend one to a run at a time. This package's tests are the last heavy
// ones of go test ./..., which runs them alone on the machine once the others are done:
// one after another they took a core for about 1.9 s, side by side about 1.1 s.
func TestMain(m *testing.M) { shorttest.Main(m) }
