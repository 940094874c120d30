package cli

import (
	"fmt"
	"io"
	"os"
)

// progressPrinter prints a long run's progress ("indexing 12/40 name") on
// w: on a terminal as one line rewritten in place, elsewhere (a log, a
// pipe) as a line at each tenth of the way and at the end, so that a log
// holds neither carriage returns nor a line a paper.
func progressPrinter(w io.Writer, verb string) func(done, total int, current string) {
	tty := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			tty = st.Mode()&os.ModeCharDevice != 0
		}
	}
	lastTenth := -1
	return func(done, total int, current string) {
		if total <= 0 {
			return
		}
		if tty {
			fmt.Fprintf(w, "\r%s %d/%d %-60.60s", verb, done, total, current)
			if done == total {
				fmt.Fprintln(w)
			}
			return
		}
		tenth := done * 10 / total
		if tenth == lastTenth && done != total {
			return
		}
		lastTenth = tenth
		if done == total {
			fmt.Fprintf(w, "%s %d/%d done\n", verb, done, total)
			return
		}
		fmt.Fprintf(w, "%s %d/%d %s\n", verb, done, total, current)
	}
}
