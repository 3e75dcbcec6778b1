#!/usr/bin/awk -f
# hist.awk CALLS   (CALLS = output of calls.awk: op count dtype bytes)
#
# Size histogram per op, buckets [0,64Ki) [64Ki,1Mi) [1Mi,16Mi) [16Mi,inf) bytes,
# labelled <64KB 64KB-1MB 1MB-16MB >16MB. Only non-empty buckets are printed,
# one "op:bucket calls" line each, sorted bytewise by line
# (so per op: 1MB-16MB, 64KB-1MB, <64KB, >16MB).
function ssort(a, n,    gap, i, j, t) {
	for (gap = int(n / 2); gap > 0; gap = int(gap / 2))
		for (i = gap + 1; i <= n; i++) {
			t = a[i]
			for (j = i; j > gap && a[j - gap] "" > t ""; j -= gap) a[j] = a[j - gap]
			a[j] = t
		}
}
NF >= 4 {
	b = $4 + 0
	if (b < 65536) k = "<64KB"
	else if (b < 1048576) k = "64KB-1MB"
	else if (b < 16777216) k = "1MB-16MB"
	else k = ">16MB"
	h[$1 ":" k]++
}
END {
	m = 0
	for (k in h) line[++m] = k " " h[k]
	ssort(line, m)
	for (i = 1; i <= m; i++) print line[i]
}
