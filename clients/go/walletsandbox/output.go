package walletsandbox

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"
)

// What a start failure shows of the sandbox's output: its first lines, where a mistyped flag's
// error is (before any help text), and its last, where a crash ends.
const (
	firstLines = 10
	lastLines  = 50
)

// keptLines is how many of the lines after the first ones Logs can answer: a long run's request
// log, the newest lines, at most a few megabytes.
const keptLines = 10000

// maxLineBytes caps one kept line: a request log line is short, and a huge one says nothing more.
const maxLineBytes = 4096

// output keeps what the sandbox writes, stdout and stderr interleaved as the lines come: the first
// lines, and the last keptLines after them.
type output struct {
	mu    sync.Mutex
	first []string
	// rest is the lines after first, of which the last keptLines count: it grows to twice that
	// before it is cut, so that a line costs no copy of the others.
	rest    []string
	dropped int // lines cut from the start of rest
}

func (o *output) add(line string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.first) < firstLines {
		o.first = append(o.first, line)
		return
	}
	o.rest = append(o.rest, line)
	if len(o.rest) == 2*keptLines {
		o.dropped += keptLines
		o.rest = append(make([]string, 0, 2*keptLines), o.rest[keptLines:]...)
	}
}

// kept is the first lines, the last n of the others, and how many lines are left out between.
func (o *output) kept(n int) (first, last []string, omitted int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	last = o.rest
	if len(last) > n {
		last = last[len(last)-n:]
	}
	return append([]string(nil), o.first...), append([]string(nil), last...), o.dropped + len(o.rest) - len(last)
}

// text is what Logs reads: every kept line, and a line where some were left out.
func (o *output) text() string {
	first, last, omitted := o.kept(keptLines)
	var b strings.Builder
	for _, line := range first {
		b.WriteString(line + "\n")
	}
	if omitted > 0 {
		fmt.Fprintf(&b, "[walletsandbox: %d lines left out]\n", omitted)
	}
	for _, line := range last {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// drain reads r to its end, line by line, and hands each line to keep. It must run for as long as
// the sandbox does: a pipe nobody reads fills up and blocks the sandbox's next write.
func drain(r io.Reader, keep func(line string)) {
	reader := bufio.NewReaderSize(r, maxLineBytes)
	var line []byte
	for {
		chunk, isPrefix, err := reader.ReadLine()
		if len(line) < maxLineBytes {
			line = append(line, chunk...)
		}
		if err != nil {
			if len(line) > 0 {
				keep(string(line))
			}
			return
		}
		if !isPrefix {
			keep(string(line))
			line = line[:0]
		}
	}
}
