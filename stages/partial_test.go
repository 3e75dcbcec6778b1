package stages

import (
	"bytes"
	"encoding/json"
)

// restoreJSON restores r from data as Decode would, within the limits of a small partial.
func restoreJSON(r Restorer, data []byte) error {
	return r.Restore(json.NewDecoder(bytes.NewReader(data)), NewLimits(int64(len(data))))
}
