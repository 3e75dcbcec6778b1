package diff

// Section is the part of a run a Difference is in; sections are listed in this order, the
// most consequential first.
type Section uint8

const (
	// Identity: library versions, hosts, processes, GPUs per host, communicators.
	Identity Section = iota
	// Findings: diagnose's status and first fault, WARN templates new or gone.
	Findings
	// Environment: NCCL_* variables added, removed or changed.
	Environment
	// Network: NICs, IB or Socket, transports, channels.
	Network
	// Tuning: algorithm and protocol per op and size range.
	Tuning
	// Init: communicator init timings, median and slowest.
	Init
	// Collectives: per-op calls and bytes, size histogram, (op, count, dtype) groups.
	Collectives
	// Steps: step count, step time and TFLOP/s per GPU.
	Steps
	numSections
)

var sectionNames = [numSections]string{"identity", "findings", "environment", "transports", "tuning", "init", "collectives", "steps"}

// Sections are every section, in order.
func Sections() []Section {
	out := make([]Section, numSections)
	for i := range out {
		out[i] = Section(i)
	}
	return out
}

func (s Section) String() string {
	if s < numSections {
		return sectionNames[s]
	}
	return "unknown"
}

// MarshalText writes the section's name.
func (s Section) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
