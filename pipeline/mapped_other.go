//go:build !linux

package pipeline

import "os"

// mapsFiles says whether plain files are mapped (see mapped.go) rather than read with read(2).
const mapsFiles = false

func mapFile(*os.File, int64) []byte { return nil }
func unmapFile([]byte)               {}
func dropPages([]byte, int, int)     {}
func isFault(error) bool             { return false }
