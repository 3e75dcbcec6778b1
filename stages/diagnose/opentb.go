package diagnose

import "fmt"

// A paste that ends inside a Python traceback, after `Traceback (most recent call last):`
// and its frames but before the exception's line, shows that the program raised and not
// what: no fault can be named, and the job is not healthy either.
//
//	hp-1:28608:28608 [0] NCCL INFO Using network Socket
//	Traceback (most recent call last):
//	File ".../runpy.py", line 197, in _run_module_as_main
//
// Where nothing else proves a fault, the status is unknown and says so. A traceback whose
// exception line, a terminate or a signal follows anywhere after it is an ended one.

// openTraceback is the last traceback's head where no process's last words follow it, nil
// where none is open.
func openTraceback(items []Item) *Item {
	var open *Item
	for i := range items {
		switch it := &items[i]; it.Ev {
		case evTraceback:
			open = it
		case evException, evTerminate, evSignal, evNCCLResult, evLastError:
			open = nil
		}
	}
	return open
}

// openTracebackReason says why a log with an open traceback is unknown.
func openTracebackReason(it *Item) string {
	return fmt.Sprintf("a Python traceback begins at %s:%d and the log ends before its exception: the program raised, and the lines that say what are not in it", it.File, it.Line)
}
