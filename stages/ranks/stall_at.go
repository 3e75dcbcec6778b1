package ranks

import "github.com/nccllog/nccllog/stages"

// At is a line's time as the ranks state keeps it (stages.At: exact in partial results).
type At = stages.At
