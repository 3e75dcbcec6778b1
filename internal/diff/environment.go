package diff

import (
	"strings"

	"github.com/nccllog/nccllog/stages/info"
)

// environment compares the NCCL variables the runs set: added, removed, changed.
func environment(l *list, a, b *Side) {
	l.keyedDiff("", facts(a.Info.Env, "env "), facts(b.Info.Env, "env "))
}

// facts is each fact's values (most processes first, as info lists them; several where
// processes disagree), prefix cut from its name.
func facts(rows []info.FactRow, prefix string) map[string]string {
	sets := map[string]map[string]struct{}{}
	for _, f := range rows {
		k := strings.TrimPrefix(f.What, prefix)
		if sets[k] == nil {
			sets[k] = map[string]struct{}{}
		}
		sets[k][f.Value] = struct{}{}
	}
	out := map[string]string{}
	for k, s := range sets {
		out[k] = joinSet(s)
	}
	return out
}
