package parser

// The words that decide how a line without an envelope is read: "NCCL" (an envelope may be
// there after all, or the line is damaged NCCL output), the progress words, the framework
// words and the other marks of damaged output.
var (
	bareWords     wordSet
	maskNCCL      uint32
	maskProgress  uint32
	maskFramework uint32
	maskDamage    uint32
)

func init() {
	maskNCCL = bareWords.add("NCCL")
	for _, w := range progressWords {
		maskProgress |= bareWords.add(string(w))
	}
	for _, w := range frameworkWords {
		maskFramework |= bareWords.add(string(w))
	}
	maskDamage = maskNCCL | bareWords.add("opCount ", "[nranks=")
}

// wordsIn returns the set of bareWords that b holds, as bits.
func wordsIn(b []byte) uint32 { return bareWords.in(b) }
