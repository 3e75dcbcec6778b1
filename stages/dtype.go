package stages

// NCCL's ncclDataType_t values 0-11 (fp8 since 2.24): their names and element sizes.
var (
	dtypeNames = [...]string{"int8", "uint8", "int32", "uint32", "int64", "uint64", "fp16", "fp32", "fp64", "bf16", "fp8_e4m3", "fp8_e5m2"}
	dtypeSizes = [...]int64{1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1}
)

// DtypeName returns the name of datatype d, or "" for a value NCCL does not define.
func DtypeName(d int64) string {
	if d < 0 || d >= int64(len(dtypeNames)) {
		return ""
	}
	return dtypeNames[d]
}

// DtypeSize returns the element size of datatype d in bytes, or 0 for an unknown value.
func DtypeSize(d int64) int64 {
	if d < 0 || d >= int64(len(dtypeSizes)) {
		return 0
	}
	return dtypeSizes[d]
}

// DtypeByName returns the datatype value with the given name.
func DtypeByName(name string) (int64, bool) {
	for i, n := range dtypeNames {
		if n == name {
			return int64(i), true
		}
	}
	return 0, false
}
