package diagnose

import (
	"bytes"
	"slices"
	"strings"

	"github.com/nccllog/nccllog/stages"
)

// libmlx5 (rdma-core's provider for ConnectX NICs) prints a work completion that failed,
// other than a flush or an exceeded retry count, on the process's standard error with the
// completion queue entry in hex below it:
//
//	mlx5: gpu-node-07: got completion with error:
//	00000000 00000000 00000000 00000000
//
// It is the NIC's own word on an RDMA error on that host, often before NCCL's `NET/IB : Got
// completion from peer ...`, and read as a network origin of the process that printed it.

var (
	cqeHead  = []byte("mlx5: ")
	cqeWords = []byte(": got completion with error:")
)

// cqeWithin bounds where cqeHead may start: after a launcher's label (`[1,3]<stderr>:`).
const cqeWithin = 48

// mayBeCQE reports whether t, other text past a Ray worker's prefix, may be libmlx5's line:
// it opens with the head, or with a bracket that may start a label before it and ends with
// the colon the line ends with. (Many training lines open with `[rankN]:`.)
func mayBeCQE(t []byte) bool {
	n := len(t)
	return n > len(cqeHead)+len(cqeWords) && (t[0] == 'm' || t[0] == '[' && (t[n-1] == ':' || t[n-2] == ':'))
}

// addCQE keeps t, the line l past a Ray worker's prefix, where it is libmlx5's.
func (p *Part) addCQE(l *stages.Line, t []byte) {
	i := bytes.Index(t[:min(len(t), cqeWithin+len(cqeHead))], cqeHead)
	if i < 0 {
		return
	}
	msg := t[i:]
	j := bytes.Index(msg, cqeWords)
	if j < 0 || bytes.IndexByte(msg[len(cqeHead):j], ' ') >= 0 {
		return // the host name is one word
	}
	it := newItem(evNetError, l.N, l.P)
	if !p.ray.names(it.Line) { // under Ray's prefix, keep names the worker
		it.Host = string(clipBytes(msg[len(cqeHead):j], maxHostLen))
	}
	it.Text = clip(msg[:j+len(cqeWords)])
	p.keep(it)
}

// isCQE reports whether it is libmlx5's line.
func isCQE(it *Item) bool { return it.Ev == evNetError && strings.HasPrefix(it.Text, string(cqeHead)) }

// foldCQE gives libmlx5's lines that name only their host to the first process of that host
// with an origin of its own: the NIC's word on the error that process's NCCL lines report
// (NET/IB's completion error), not a second finding. Where no process of the host has one,
// they stay the host's own origin.
func (b *builder) foldCQE() {
	for i := 0; i < len(b.owners); i++ {
		p := b.owners[i]
		c := b.own[p]
		if p.pid >= 0 || p.host == "" || !slices.ContainsFunc(c.items, isCQE) || slices.ContainsFunc(c.items, func(it *Item) bool { return !isCQE(it) }) {
			continue
		}
		to := b.hostOrigin(p.host)
		if to == nil {
			continue
		}
		to.items = append(to.items, c.items...)
		delete(b.own, p)
		b.owners = slices.Delete(b.owners, i, i+1)
		i--
	}
}

// hostOrigin is the origin of the first process on host with a pid, nil where none.
func (b *builder) hostOrigin(host string) *cand {
	for _, q := range b.owners {
		if q.host == host && q.pid >= 0 {
			return b.own[q]
		}
	}
	return nil
}
