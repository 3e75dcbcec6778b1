package main

import "github.com/nccllog/nccllog/stages/ranks"

// commLabel names a communicator as the ranks family does.
func commLabel(g *ranks.Group) string { return g.Label() }
