package diagnose

import "strings"

// NCCL reads the machine's topology at init (src/graph, the os layer's sysfs paths, NVML):
// where it cannot (a VM or container that hides the PCI tree or a GPU, an NCCL_TOPO_FILE or
// NCCL_GRAPH_FILE written for another machine), the WARN that starts the chain names what it
// could not read, and the chain's ncclSystemError alone would say only "a system error".

// topoPhrases open or name the WARNs of NCCL's topology detection (src/graph/xml.cc, topo.cc,
// search.cc, paths.cc, xml.h, src/misc/nvmlwrap.cc, the sysfs path of a GPU's bus).
var topoPhrases = [...]string{
	"real path of /sys/", "nvmlInit", "nvmlDevice", "XML ", "TOPO/", "ncclTopo", "XmlFromCpu",
	"Add NVLink error", "Add PCI Link error", "Add C2c error", "No path computed",
	"Could not find CPU close to GPU", "Could not find gpu rank", "Could not find NIC for rank",
	"local path from gpu", "Could not find intermediate GPU",
}

// topoWarn reports whether msg is a WARN of NCCL's topology detection.
func topoWarn(msg string) bool {
	for _, p := range topoPhrases {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// topoKind is the kind of a system error whose chain a topology WARN starts: a
// topology-error, which names the step that failed rather than the result's class.
//
// NVML that cannot start because the GPU driver and its library differ (`nvmlInit_v2()
// failed: Driver/library version mismatch`: a driver upgraded without a reboot, a container
// whose library is not the host's) is the driver's fault, not the topology's: it stays a
// system error, whose sentence says so (driverMismatch).
func topoKind(k Kind, msg string) Kind {
	if k == KindSystemError && topoWarn(msg) && !driverMismatch(msg) {
		return KindTopology
	}
	return k
}

// driverMismatch reports whether msg is NVML's word that the driver and its library differ.
func driverMismatch(msg string) bool { return strings.Contains(msg, "Driver/library version mismatch") }
