#!/usr/bin/awk -f
# steps.awk -v from=45 -v to=49 LOG
#
# Average train_step_timing and TFLOPS_per_GPU over the NeMo progress lines of
# iterations from..to (every matching marker line counts once):
#   Steps: 5 (iterations 45-49)
#   Average train_step_timing (s): 2.411200
#   Average TFLOPS_per_GPU:        165.940000
# Averages are printed with %f. With no matching marker the averages print as 0.
BEGIN {
	if (from == "" || to == "") {
		print "steps.awk: usage: awk -v from=N -v to=M -f steps.awk LOG" > "/dev/stderr"
		bad = 1
		exit 2
	}
	from += 0; to += 0; n = 0; st = 0; tf = 0
}
/Training epoch [0-9]+, iteration [0-9]+\// {
	s = $0
	sub(/.*Training epoch [0-9]+, iteration /, "", s)
	sub(/\/.*/, "", s)
	it = s + 0
	if (it < from || it > to) next
	n++
	if (match($0, /train_step_timing in s: [-+0-9.eE]+/)) st += substr($0, RSTART + 24, RLENGTH - 24)
	if (match($0, /TFLOPS_per_GPU: [-+0-9.eE]+/)) tf += substr($0, RSTART + 16, RLENGTH - 16)
}
END {
	if (bad) exit 2
	printf "Steps: %d (iterations %d-%d)\n", n, from, to
	printf "Average train_step_timing (s): %f\n", (n ? st / n : 0)
	printf "Average TFLOPS_per_GPU:        %f\n", (n ? tf / n : 0)
}
