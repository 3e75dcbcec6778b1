package main

import (
	"fmt"
	"io"
)

// warnOverflow tells on stderr that the cap of communicators kept in detail was met.
func warnOverflow(w io.Writer, r *view) {
	if n := r.ranks.OverflowNote(); n != "" {
		fmt.Fprintf(w, "nccllog: %s\n", n)
	}
}
