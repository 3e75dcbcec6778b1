// Package slurmtest starts a throwaway Slurm cluster on this machine for integration tests:
// a munged with a key of its own, one slurmctld and one slurmd per node name, all on
// loopback, all configured and spooled under a temporary directory, all stopped by pid when
// the test ends (also when it fails).
//
// Tests call Start. Where Slurm or munge is not installed, or the daemons do not come up,
// the test is skipped with a one-line reason; with NCCLLOG_SLURM=1 (CI sets it) it fails
// instead.
package slurmtest
