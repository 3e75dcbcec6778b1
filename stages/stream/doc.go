// Package stream is the family of stages that write what they select as they read rather
// than conclude: split (the selected lines, byte for byte) and calls (each selected call).
package stream
