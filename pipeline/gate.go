package pipeline

import (
	"context"
	"sync"
)

// windowGate lets one input at a time decode xz dictionaries or zstd windows over
// smallWindow. A decoder holds the dictionary or window its stream declares, and a run reads
// up to 4 inputs per core at once, each through up to two decoders (the second reads ahead),
// so decoders at their caps side by side would take gigabytes. An input whose first header
// declares more than smallWindow waits until no other such input is read; every other
// input's decoders are limited to smallWindow. An input's own decoders pass the gate it holds
// without waiting, so its reading ahead never waits on itself. One gate serves a run: Expand
// gives one to every input it makes.
type windowGate struct {
	slot   chan struct{} // full while an input holds the gate
	mu     sync.Mutex
	holder string // the input that holds it, by name
	n      int    // its decoders open
	// decoders keeps the run's xz and zstd decoders between its inputs.
	decoders decoders
}

// kept is g's decoders; nil for a nil g.
func (g *windowGate) kept() *decoders {
	if g == nil {
		return nil
	}
	return &g.decoders
}

func newWindowGate() *windowGate { return &windowGate{slot: make(chan struct{}, 1)} }

// tryEnter takes the gate for name without waiting: where it is free, or held by name.
func (g *windowGate) tryEnter(name string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n > 0 && g.holder == name {
		g.n++
		return true
	}
	select {
	case g.slot <- struct{}{}:
		g.holder, g.n = name, 1
		return true
	default:
		return false
	}
}

// enter takes the gate for name, waiting while another input holds it; ctx's error if ctx
// ends first.
func (g *windowGate) enter(ctx context.Context, name string) error {
	if g.tryEnter(name) {
		return nil
	}
	select {
	case g.slot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	g.mu.Lock()
	g.holder, g.n = name, 1
	g.mu.Unlock()
	return nil
}

// leave gives back what tryEnter or enter took for name.
func (g *windowGate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.n--; g.n == 0 {
		g.holder = ""
		<-g.slot
	}
}
