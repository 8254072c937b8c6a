package walletsandbox

import (
	"bufio"
	"io"
	"sync"
)

// tailLines is how many of the sandbox's last output lines a start failure shows.
const tailLines = 50

// maxLineBytes caps one kept line: a request log line is short, and a huge one says nothing more.
const maxLineBytes = 4096

// tail keeps the last lines the sandbox wrote, stdout and stderr interleaved as they came.
type tail struct {
	mu    sync.Mutex
	lines []string
}

func (t *tail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > tailLines {
		t.lines = append(t.lines[:0], t.lines[len(t.lines)-tailLines:]...)
	}
}

func (t *tail) last() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.lines...)
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
