#!/usr/bin/awk -f
# calls.awk LOG
#
# Extract every NCCL collective call line
#   host:pid:tid [0] NCCL INFO AllReduce: opCount 1a sendbuff 0x.. recvbuff 0x.. count N datatype D op 0 ...
# and print one line per call:  op count dtype_name bytes
# A call counts only if count > 0 and datatype is 0..11; bytes = count * element size.
#
# The op name is the last word before the first ": " on the line. That is how the
# original chain did it, and it is why it reports srun -l rank prefixes ("3: host:...")
# as operation names; this re-creation keeps that behaviour on purpose.
BEGIN {
	split("1 1 4 4 8 8 2 4 8 2 1 1", esz, " ")
	split("int8 uint8 int32 uint32 int64 uint64 fp16 fp32 fp64 bf16 fp8_e4m3 fp8_e5m2", ename, " ")
}
/ NCCL INFO [A-Za-z]+: opCount / {
	c = ""; d = ""
	for (i = 1; i < NF; i++) {
		if ($i == "count") c = $(i + 1)
		else if ($i == "datatype") d = $(i + 1)
	}
	if (c !~ /^[0-9]+$/ || d !~ /^[0-9]+$/) next
	if (c + 0 <= 0 || d + 0 > 11) next
	k = index($0, ": ")
	op = substr($0, 1, k - 1)
	sub(/.* /, "", op)
	printf "%s %s %s %.0f\n", op, c, ename[d + 1], c * esz[d + 1]
}
