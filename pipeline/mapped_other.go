//go:build !unix

package pipeline

import "os"

func mapFile(*os.File, int64) []byte { return nil }
func unmapFile([]byte)               {}
func dropPages([]byte, int, int)     {}
