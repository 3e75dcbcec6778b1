package stages

import (
	"encoding/json"
	"fmt"

	"github.com/nccllog/nccllog/parser"
)

// At is a line's time as a family's partial keeps it; its JSON (for partial results) is
// [nanos, form, digits, zoned], which reads back exactly. diagnose's evidence and the ranks
// family's stall clocks both keep times this way.
type At struct{ parser.Stamp }

func (a At) MarshalJSON() ([]byte, error) {
	return json.Marshal([4]any{a.Nanos, uint8(a.Form), a.Digits, a.Zoned})
}

func (a *At) UnmarshalJSON(b []byte) error {
	var v struct {
		Nanos  int64
		Form   uint8
		Digits uint8
		Zoned  bool
	}
	arr := [4]any{&v.Nanos, &v.Form, &v.Digits, &v.Zoned}
	if err := json.Unmarshal(b, &arr); err != nil {
		return err
	}
	f := parser.StampForm(v.Form)
	if f.String() == "unknown" || v.Digits > 9 {
		return fmt.Errorf("a time of form %d with %d digits", v.Form, v.Digits)
	}
	a.Stamp = parser.Stamp{Nanos: v.Nanos, Form: f, Digits: v.Digits, Zoned: v.Zoned}
	return nil
}
