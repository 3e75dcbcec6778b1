package pipeline

// InputNamer is a stages.Out that wants to know which input the lines and calls it is given
// next come from: RunAll tells it before each input of an ordered run.
type InputNamer interface {
	Input(name string)
}
