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

func TestTheTailKeepsTheLastLines(t *testing.T) {
	var kept tail
	var want []string
	for i := 0; i < tailLines+20; i++ {
		kept.add(fmt.Sprint(i))
		if i >= 20 {
			want = append(want, fmt.Sprint(i))
		}
	}
	if got := kept.last(); !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}
