package parser

import "strings"

// commFromTree turns a communicator line into a CommEvent. A line with neither an event nor
// the node layout fields is not a communicator line.
func commFromTree(c *gComm) (CommEvent, bool) {
	ev := CommEvent{
		API: strings.Clone(c.API), Comm: uint64(c.Comm), Rank: int64(c.Rank),
		NRanks: int64(c.NRanks), CudaDev: -1, NvmlDev: -1, Split: -1,
		NNodes: -1, LocalRks: -1, LocalRk: -1,
	}
	for _, f := range c.Fields {
		if f.Used == nil && !ev.setField(f.Name, strings.Join(f.Value, "")) {
			return CommEvent{}, false
		}
	}
	switch {
	case c.Event != nil:
		ev.Event = c.Event.What + " " + c.Event.Phase
	case ev.NNodes >= 0:
		ev.Event = EventLayout
	default:
		return CommEvent{}, false
	}
	return ev, true
}

// EventLayout is the Event of the 2.20+ `parser:"comm %p rank %d nRanks %d nNodes %d ..."` line.
const EventLayout = "Layout"

func (ev *CommEvent) setField(name, v string) bool {
	var err error
	switch name {
	case "busId":
		ev.BusID, err = parseHex(v)
	case "commId", "parent":
		var p ptrNum
		err = p.Capture([]string{v})
		if name == "commId" {
			ev.CommID = uint64(p)
		} else {
			ev.Parent = uint64(p)
		}
	default:
		var n int64
		n, err = parseDec(v)
		ev.setInt(name, n)
	}
	return err == nil
}

func (ev *CommEvent) setInt(name string, n int64) {
	switch name {
	case "cudaDev":
		ev.CudaDev = n
	case "nvmlDev":
		ev.NvmlDev = n
	case "splitCount", "childCount":
		ev.Split = n
	case "color":
		ev.Color = n
	case "key":
		ev.Key = n
	case "nNodes":
		ev.NNodes = n
	case "localRanks":
		ev.LocalRks = n
	case "localRank":
		ev.LocalRk = n
	}
}
