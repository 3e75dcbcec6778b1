// Command nccllog reads NCCL debug logs (NCCL_DEBUG=INFO with COLL lines) from distributed
// training jobs and says what the collectives did: which ops, how many, how big, in which
// datatypes and steps, and how long the steps took.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}
