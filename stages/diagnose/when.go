package diagnose

import "github.com/nccllog/nccllog/stages"

// When is a line's time as the evidence keeps it (stages.At: exact in partial results).
type When = stages.At
