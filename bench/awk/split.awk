#!/usr/bin/awk -f
# split.awk -v from=45 -v to=50 LOG
#
# Cut an NCCL/NeMo log down to training iterations from..to (inclusive).
# A step marker is a NeMo progress line
#   Training epoch 0, iteration 45/59 | lr: ... | train_step_timing in s: 2.4 | ...
# (anywhere on the line, so `srun -l` prefixes such as "3: " do not hide it).
# A marker line OPENS its step: the output runs from the marker of `from` up to,
# but not including, the first marker past `to` (or EOF). Lines before the first
# marker belong to no step and are never printed.
# Like the original chain, the whole input is read (no early exit).
BEGIN {
	if (from == "" || to == "") {
		print "split.awk: usage: awk -v from=N -v to=M -f split.awk LOG" > "/dev/stderr"
		exit 2
	}
	from += 0; to += 0; on = 0
}
/Training epoch [0-9]+, iteration [0-9]+\// {
	s = $0
	sub(/.*Training epoch [0-9]+, iteration /, "", s)
	sub(/\/.*/, "", s)
	it = s + 0
	on = (it >= from && it <= to)
}
on
