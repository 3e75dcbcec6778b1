package stages_test

import (
	"testing"

	"github.com/nccllog/nccllog/internal/shorttest"
)

// TestMain runs the tests as package shorttest sets them up under -short.
func TestMain(m *testing.M) { shorttest.Main(m) }
