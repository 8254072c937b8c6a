package walletsandbox

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDrainReadsPastALongLineAndKeepsItsStart(t *testing.T) {
	long := strings.Repeat("x", 3*maxLineBytes)
	var lines []string
	drain(strings.NewReader("first\n"+long+"\nafter\nno newline at the end"), func(line string) { lines = append(lines, line) })
	if len(lines) != 4 || lines[0] != "first" || !strings.HasPrefix(long, lines[1]) || len(lines[1]) > 2*maxLineBytes || lines[2] != "after" || lines[3] != "no newline at the end" {
		t.Errorf("got %d lines: %.40q", len(lines), lines)
	}
}

// numbered is the lines "0" to "n-1".
func numbered(from, to int) []string {
	var lines []string
	for i := from; i < to; i++ {
		lines = append(lines, fmt.Sprint(i))
	}
	return lines
}

func TestTheOutputKeepsTheFirstLinesAndTheLast(t *testing.T) {
	var short output
	for _, line := range numbered(0, 12) {
		short.add(line)
	}
	first, last, omitted := short.kept(lastLines)
	if !reflect.DeepEqual(first, numbered(0, firstLines)) || !reflect.DeepEqual(last, numbered(firstLines, 12)) || omitted != 0 {
		t.Errorf("of 12 lines, kept %v, %v and %d left out", first, last, omitted)
	}

	var long output
	total := firstLines + 3*keptLines + 7
	for _, line := range numbered(0, total) {
		long.add(line)
	}
	first, last, omitted = long.kept(lastLines)
	if !reflect.DeepEqual(first, numbered(0, firstLines)) || !reflect.DeepEqual(last, numbered(total-lastLines, total)) || omitted != total-firstLines-lastLines {
		t.Errorf("of %d lines, kept %v, %v… and %d left out", total, first, last[:3], omitted)
	}
	logs := strings.Split(strings.TrimSuffix(long.text(), "\n"), "\n")
	want := append(append(numbered(0, firstLines), fmt.Sprintf("[walletsandbox: %d lines left out]", total-firstLines-keptLines)), numbered(total-keptLines, total)...)
	if !reflect.DeepEqual(logs, want) {
		t.Errorf("Logs' text has %d lines, from %q, want %d", len(logs), logs[:firstLines+2], len(want))
	}
}

func TestAStartErrorShowsTheFirstAndTheLastLines(t *testing.T) {
	failure := &StartError{Command: []string{"wallet-sandbox", "--clok", "manual"}, ExitCode: 1, Reason: "exited with code 1 before it was ready",
		FirstLines: []string{"error: unknown option '--clok'"}, LastLines: []string{"(use --help)"}}
	want := "walletsandbox: the sandbox command wallet-sandbox --clok manual exited with code 1 before it was ready; its output:\n    error: unknown option '--clok'\n    (use --help)"
	if got := failure.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	failure.Omitted, failure.Hint = 40, "Do this."
	want = "walletsandbox: the sandbox command wallet-sandbox --clok manual exited with code 1 before it was ready; its first and last lines:\n    error: unknown option '--clok'\n    [40 lines left out]\n    (use --help)\nDo this."
	if got := failure.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
