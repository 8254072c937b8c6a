package walletsandbox_test

import (
	"fmt"
	"sync"
)

// notes is a walletsandbox.Logger that keeps what it is told.
type notes struct {
	mu    sync.Mutex
	lines []string
}

func (n *notes) Printf(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lines = append(n.lines, fmt.Sprintf(format, args...))
}

func (n *notes) said() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.lines...)
}
