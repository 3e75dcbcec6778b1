package diff

import "github.com/nccllog/nccllog/stages/info"

// network compares the NICs and transports each process chose (info's network facts), then
// the transports, channel and ring lines of all communicators together. Link counts and
// communicator sizes are left out here: they follow from the number of ranks, which identity
// compares.
func network(l *list, a, b *Side) {
	l.keyedDiff("", facts(a.Info.Network, ""), facts(b.Info.Network, ""))
	l.keyedDiff("", commFacts(a.Info), commFacts(b.Info))
}

// commFacts is the transports the communicators' links used, and their channel and ring
// lines.
func commFacts(r *info.InfoReport) map[string]string {
	sets := map[string]map[string]struct{}{}
	add := func(k, v string) {
		if sets[k] == nil {
			sets[k] = map[string]struct{}{}
		}
		sets[k][v] = struct{}{}
	}
	for _, c := range r.Comms {
		for _, t := range c.Links {
			add("communicator transports", t.Transport)
		}
		for _, ch := range c.Channels {
			add("communicator channels", ch)
		}
		for _, ring := range c.Rings {
			add("communicator rings", ring)
		}
	}
	out := map[string]string{}
	for k, s := range sets {
		out[k] = joinSet(s)
	}
	return out
}
