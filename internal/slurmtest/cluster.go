package slurmtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startTimeout bounds how long the daemons may take to come up and report every node idle.
const startTimeout = 30 * time.Second

// Cluster is a running cluster: one partition holding every node, the default for srun.
type Cluster struct {
	Dir     string   // slurm.conf, the munge key and socket, state, spools and logs
	Conf    string   // the path of slurm.conf
	Nodes   []string // node names, as SLURMD_NODENAME sees them
	bins    map[string]string
	daemons []*daemon // in start order; stopped in reverse
}

// programs are the daemons Start runs and the clients it and the tests call.
func programs() []string {
	return []string{"munged", "slurmctld", "slurmd", "srun", "sinfo"}
}

// Start brings up munged, slurmctld and one slurmd per node name, and waits until every node
// is idle. The daemons are stopped by pid when t ends. It skips t (fails it under
// NCCLLOG_SLURM=1) where Slurm or munge is missing, not run as root, or does not come up.
func Start(t testing.TB, nodes ...string) *Cluster {
	t.Helper()
	bins := Require(t)
	// munged wants every directory above its socket searchable by all, so not t.TempDir (0700).
	dir, err := os.MkdirTemp("", "nccllog-slurm-")
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Dir: dir, Nodes: nodes, bins: bins}
	t.Cleanup(func() {
		c.stop(t)
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("removing the cluster's directory: %v", err)
		}
	})
	if err := c.start(); err != nil {
		unavailable(t, "the Slurm test cluster did not start: %v", err)
	}
	return c
}

// Require skips t (fails it under NCCLLOG_SLURM=1) where Start cannot run: under -short, where
// Slurm or munge is missing, or not as root. It returns the programs' paths. A test that builds
// or writes something slow before Start calls it first, so that a skip costs nothing.
func Require(t testing.TB) map[string]string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the Slurm cluster starts without -short")
	}
	bins, err := lookBins()
	if err != nil {
		unavailable(t, "%v (apt-get install slurm-wlm munge)", err)
	}
	if uid := os.Geteuid(); uid != 0 {
		unavailable(t, "slurmd must run as root to start job steps; this test runs as uid %d", uid)
	}
	return bins
}

func lookBins() (map[string]string, error) {
	bins := map[string]string{}
	for _, name := range programs() {
		p, err := exec.LookPath(name)
		if err != nil {
			return nil, fmt.Errorf("%s is not installed", name)
		}
		bins[name] = p
	}
	return bins, nil
}

// Env is the environment for Slurm commands against this cluster: this process's, without
// the SLURM_ variables of any job the test itself runs in, and with SLURM_CONF.
func (c *Cluster) Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SLURM_") {
			env = append(env, kv)
		}
	}
	return append(env, "SLURM_CONF="+c.Conf)
}

// Command is exec.CommandContext with the cluster's environment.
func (c *Cluster) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.Env()
	return cmd
}

func (c *Cluster) start() error {
	for _, sub := range []string{"state", "spool"} {
		if err := os.Mkdir(filepath.Join(c.Dir, sub), 0o755); err != nil {
			return err
		}
	}
	for _, n := range c.Nodes {
		if err := os.Mkdir(filepath.Join(c.Dir, "spool", n), 0o755); err != nil {
			return err
		}
	}
	conf, err := writeConf(c.Dir, c.Nodes)
	if err != nil {
		return err
	}
	c.Conf = conf
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := c.startMunge(ctx); err != nil {
		return err
	}
	if err := c.run("slurmctld", "slurmctld", "-D", "-f", c.Conf); err != nil {
		return err
	}
	for _, n := range c.Nodes {
		if err := c.run("slurmd "+n, "slurmd", "-D", "-N", n, "-f", c.Conf); err != nil {
			return err
		}
	}
	return c.waitIdle(ctx)
}

// run starts one daemon, its output in DIR/NAME.out.
func (c *Cluster) run(name, bin string, args ...string) error {
	logPath := filepath.Join(c.Dir, strings.ReplaceAll(name, " ", "-")+".out")
	d, err := startDaemon(name, logPath, c.Env(), c.bins[bin], args...)
	if err != nil {
		return err
	}
	c.daemons = append(c.daemons, d)
	return nil
}

// startMunge runs munged with a fresh key, socket, pid and seed file of its own, and waits
// for its socket.
func (c *Cluster) startMunge(ctx context.Context) error {
	keyDir, sockDir := filepath.Join(c.Dir, "munge-key"), filepath.Join(c.Dir, "munge")
	if err := os.Mkdir(keyDir, 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(sockDir, 0o755); err != nil {
		return err
	}
	key := filepath.Join(keyDir, "munge.key")
	secret := make([]byte, 1024) // munge's recommended key size
	rand.Read(secret)
	if err := os.WriteFile(key, secret, 0o400); err != nil {
		return err
	}
	socket := filepath.Join(sockDir, "socket")
	err := c.run("munged", "munged", "--foreground", "--key-file="+key, "--socket="+socket,
		"--pid-file="+filepath.Join(sockDir, "munged.pid"),
		"--log-file="+filepath.Join(sockDir, "munged.log"),
		"--seed-file="+filepath.Join(keyDir, "munged.seed"))
	if err != nil {
		return err
	}
	return c.poll(ctx, "munged's socket", func() (bool, error) {
		_, err := os.Stat(socket)
		return err == nil, nil
	})
}

// waitIdle waits until sinfo reports every node idle.
func (c *Cluster) waitIdle(ctx context.Context) error {
	var last string
	err := c.poll(ctx, "every node idle", func() (bool, error) {
		out, err := c.Command(ctx, c.bins["sinfo"], "-h", "-N", "-o", "%N %T").CombinedOutput()
		last = strings.Join(strings.Fields(string(out)), " ")
		if err != nil {
			return false, nil // slurmctld not listening yet
		}
		return strings.Count(string(out), " idle\n") == len(c.Nodes), nil
	})
	if err != nil && last != "" {
		err = fmt.Errorf("%v; sinfo said: %s", err, last)
	}
	return err
}

// poll calls ready every 100 ms until it says yes, a daemon exits, or ctx ends.
func (c *Cluster) poll(ctx context.Context, what string, ready func() (bool, error)) error {
	for {
		for _, d := range c.daemons {
			if err := d.running(); err != nil {
				return err
			}
		}
		ok, err := ready()
		if ok || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// stop stops every daemon by its pid, last started first; on failure it logs their output.
func (c *Cluster) stop(t testing.TB) {
	t.Helper()
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		if t.Failed() {
			t.Logf("%s (pid %d) said: %s", d.name, d.cmd.Process.Pid, d.tail())
		}
		if err := d.stop(5 * time.Second); err != nil {
			t.Logf("stopping the cluster: %v", err)
		}
	}
}
