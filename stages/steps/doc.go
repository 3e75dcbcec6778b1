// Package steps is the training-progress family: each step's time and TFLOP/s from the
// framework's progress lines (steps), and the line span each step covers (stepspan).
package steps
