package slurmtest

import (
	"fmt"
	"net"
	"os"
	"strings"
)

// confTemplate is slurm.conf for a cluster whose daemons all run here as root: linuxproc
// process tracking and no task plugin (no cgroups), every node on loopback with a port of its
// own, and spool, pid and log files per node under the cluster's directory (%n is the node
// name). ReturnToService=2 lets a node that was down come back by registering. Each node has
// two CPUs, so that a job can run two tasks per node.
const confTemplate = `ClusterName=nccllogtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=%[2]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[1]s/munge/socket
StateSaveLocation=%[1]s/state
SlurmdSpoolDir=%[1]s/spool/%%n
SlurmctldPidFile=%[1]s/slurmctld.pid
SlurmdPidFile=%[1]s/spool/%%n/slurmd.pid
SlurmctldLogFile=%[1]s/slurmctld.log
SlurmdLogFile=%[1]s/spool/%%n/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
PropagateResourceLimits=NONE
MailProg=/bin/true
%[3]sPartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`

// writeConf writes slurm.conf for nodes into dir, with ports that are free right now.
func writeConf(dir string, nodes []string) (string, error) {
	ports, err := freePorts(1 + len(nodes))
	if err != nil {
		return "", err
	}
	var lines strings.Builder
	for i, n := range nodes {
		fmt.Fprintf(&lines, "NodeName=%s NodeHostname=localhost NodeAddr=127.0.0.1 Port=%d CPUs=2 State=UNKNOWN\n", n, ports[1+i])
	}
	path := dir + "/slurm.conf"
	conf := fmt.Sprintf(confTemplate, dir, ports[0], lines.String())
	return path, os.WriteFile(path, []byte(conf), 0o644)
}

// freePorts returns n loopback TCP ports that were free when asked (all held open together,
// so they differ).
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
