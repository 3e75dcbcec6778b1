#!/usr/bin/awk -f
# agg.awk CALLS   (CALLS = output of calls.awk: op count dtype bytes)
#
# Group identical (op, count, dtype) calls. Header plus one row per group,
#   printf "%-10s %-15s %-12s %-10s %-12s\n", calls, op, count, dtype, bytes_per_call
# (the header uses the same format; "bytes_per_call" overflows its width).
# Rows are sorted bytewise on the string "op count dtype bytes", i.e. by op, then by
# count compared as a STRING (1572864 < 16384 < 20971520 < 262144 ...), like `sort`.
function ssort(a, n,    gap, i, j, t) {
	for (gap = int(n / 2); gap > 0; gap = int(gap / 2))
		for (i = gap + 1; i <= n; i++) {
			t = a[i]
			for (j = i; j > gap && a[j - gap] "" > t ""; j -= gap) a[j] = a[j - gap]
			a[j] = t
		}
}
NF >= 4 { g[$1 " " $2 " " $3 " " $4]++ }
END {
	printf "%-10s %-15s %-12s %-10s %-12s\n", "calls", "op", "count", "dtype", "bytes_per_call"
	m = 0
	for (k in g) key[++m] = k
	ssort(key, m)
	for (i = 1; i <= m; i++) {
		split(key[i], f, " ")
		printf "%-10s %-15s %-12s %-10s %-12s\n", g[key[i]], f[1], f[2], f[3], f[4]
	}
}
