#!/usr/bin/awk -f
# stats.awk CALLS   (CALLS = output of calls.awk: op count dtype bytes)
#
# Per-op stats, one line per op, sorted bytewise by line (i.e. by op name):
#   AllGather calls=384 min=12288 avg=9958912 max=41943040 total=3824222208
# calls/min/max/total are integers; avg = total/calls printed the way awk converts
# a number to a string: integral values as integers, others with %.6g
# (972117.333 -> 972117, 7774793.14 -> 7.77479e+06).
function num(x) { return (x == int(x)) ? sprintf("%.0f", x) : sprintf("%.6g", x) }
function ssort(a, n,    gap, i, j, t) {	# shell sort, bytewise string order
	for (gap = int(n / 2); gap > 0; gap = int(gap / 2))
		for (i = gap + 1; i <= n; i++) {
			t = a[i]
			for (j = i; j > gap && a[j - gap] "" > t ""; j -= gap) a[j] = a[j - gap]
			a[j] = t
		}
}
NF >= 4 {
	op = $1; b = $4 + 0
	if (!(op in n)) { n[op] = 0; mn[op] = b; mx[op] = b; tot[op] = 0 }
	n[op]++; tot[op] += b
	if (b < mn[op]) mn[op] = b
	if (b > mx[op]) mx[op] = b
}
END {
	m = 0
	for (op in n)
		line[++m] = sprintf("%s calls=%d min=%.0f avg=%s max=%.0f total=%.0f", op, n[op], mn[op], num(tot[op] / n[op]), mx[op], tot[op])
	ssort(line, m)
	for (i = 1; i <= m; i++) print line[i]
}
