package info

import "github.com/nccllog/nccllog/parser"

// setupCache remembers the readings of the last maxSeen distinct set-up messages: TUNING
// prints the same few messages once per op, and the grammar is slow. The readings are kept
// in slots used in turn, so that a log whose messages rarely repeat (each process's own
// addresses and ranks) costs no allocation beyond the message's text: as map values, each
// reading (392 bytes) was a heap object of its own, and each new map grew anew.
type setupCache struct {
	at    map[string]int // a message's slot
	slots []setupSlot
	next  int // the slot to use next once all are used
}

type setupSlot struct {
	msg string
	s   parser.Setup
	ok  bool
}

// maxSeen bounds the remembered messages.
const maxSeen = 256

// parse is parser.ParseSetup, remembered for messages that repeat exactly.
func (c *setupCache) parse(msg []byte) (parser.Setup, bool) {
	if i, ok := c.at[string(msg)]; ok {
		return c.slots[i].s, c.slots[i].ok
	}
	s, ok := parser.ParseSetup(msg)
	if c.at == nil {
		c.at = map[string]int{}
	}
	i := len(c.slots)
	if i < maxSeen {
		c.slots = append(c.slots, setupSlot{})
	} else {
		i, c.next = c.next, (c.next+1)%maxSeen
		delete(c.at, c.slots[i].msg)
	}
	c.slots[i] = setupSlot{string(msg), s, ok}
	c.at[c.slots[i].msg] = i
	return s, ok
}
