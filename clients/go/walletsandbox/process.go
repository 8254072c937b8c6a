package walletsandbox

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"
)

// process is a sandbox command running under the supervisor (supervisor.go).
type process struct {
	command []string
	pgid    int
	stdin   io.Closer
	output  output
	first   chan string   // the first stdout line
	exited  chan struct{} // closed once the supervisor has exited and been waited for
	state   *os.ProcessState
	drained sync.WaitGroup
	stop    sync.Once
}

// startProcess starts command under the supervisor and waits for its ready line: the first line
// on stdout. It fails at once if the command exits first, and after timeout if it stays silent.
func startProcess(ctx context.Context, command []string, engine, container string, timeout time.Duration) (*process, string, error) {
	p := &process{command: command, first: make(chan string, 1), exited: make(chan struct{})}
	cmd := supervised(command, engine, container)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, "", p.failure("could not be started", err)
	}
	// Pipes of our own rather than StdoutPipe: Wait must not wait for the readers, which go on
	// reading for as long as anything holds the pipe.
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, "", p.failure("could not be started", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, "", p.failure("could not be started", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, "", p.failure("could not be started", err)
	}
	p.stdin, p.pgid = stdin, cmd.Process.Pid
	p.drained.Add(2)
	go p.read(outR, true)
	go p.read(errR, false)
	go func() {
		cmd.Wait()
		p.state = cmd.ProcessState
		close(p.exited)
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case line := <-p.first:
		return p, line, nil
	case <-p.exited:
		p.waitDrained()
		failure := p.failure(exitDescription(p.state)+" before it was ready", nil)
		failure.ExitCode = p.state.ExitCode()
		return nil, "", failure
	case <-timer.C:
		p.close()
		return nil, "", p.failure(fmt.Sprintf("did not write its ready line within %v", timeout), nil)
	case <-ctx.Done():
		p.close()
		return nil, "", p.failure("was stopped while starting", ctx.Err())
	}
}

func (p *process) read(r *os.File, stdout bool) {
	defer p.drained.Done()
	defer r.Close()
	first := stdout
	drain(r, func(line string) {
		if first {
			first = false
			p.first <- line
		}
		p.output.add(line)
	})
}

// close stops the sandbox as the supervisor does when this process ends: closing the supervisor's
// stdin makes it send SIGTERM to the group, then SIGKILL after the grace period. It reports a
// sandbox that had to be killed, or that had ended before.
func (p *process) close() error {
	var err error
	p.stop.Do(func() {
		endedBefore := false
		select {
		case <-p.exited:
			endedBefore = true
		default:
		}
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(stopGrace + 15*time.Second):
			// The supervisor itself is stuck (the margin leaves docker stop its own 10 s): end the
			// whole group from here.
			syscall.Kill(-p.pgid, syscall.SIGKILL)
			<-p.exited
		}
		if endedBefore {
			// Without its supervisor (killed on its own, say) the sandbox may still run: the
			// supervisor's watcher, which read the pipe just closed, stops it with the same grace.
			waitGroupGone(p.pgid, stopGrace+time.Second)
		}
		// Whatever is left in the group (a watcher's last sleep, a child the command left behind).
		syscall.Kill(-p.pgid, syscall.SIGKILL)
		p.waitDrained()
		if status, ok := p.state.Sys().(syscall.WaitStatus); ok && !endedBefore && status.Signaled() && status.Signal() == syscall.SIGKILL {
			err = fmt.Errorf("walletsandbox: %s did not stop within %v of SIGTERM and was killed", commandLine(p.command), stopGrace)
		} else if !p.state.Success() {
			// A crash, or a failure to flush at the end: the tests should hear of either.
			when := "when it was stopped"
			if endedBefore {
				when = "while it was in use"
			}
			failure := p.failure(exitDescription(p.state)+" "+when, nil)
			failure.ExitCode = p.state.ExitCode()
			err = failure
		}
	})
	return err
}

// waitGroupGone waits, at most for limit, until no process of group pgid is left.
func waitGroupGone(pgid int, limit time.Duration) {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(-pgid, 0) == syscall.ESRCH {
			return
		}
	}
}

// waitDrained waits for the output to reach its end, briefly: a process outside the group could
// hold the pipes open for ever.
func (p *process) waitDrained() {
	done := make(chan struct{})
	go func() {
		p.drained.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
}

func (p *process) failure(what string, err error) *StartError {
	first, last, omitted := p.output.kept(lastLines)
	return &StartError{Command: p.command, ExitCode: -1, Reason: what, FirstLines: first, LastLines: last, Omitted: omitted, Err: err}
}

func exitDescription(state *os.ProcessState) string {
	if status, ok := state.Sys().(syscall.WaitStatus); ok && status.Signaled() {
		return fmt.Sprintf("was ended by signal %d (%v)", int(status.Signal()), status.Signal())
	}
	// The supervisor, a shell, exits with 128+n for a command that signal n ended.
	if code := state.ExitCode(); code > 128 && code < 128+32 {
		return fmt.Sprintf("was ended by signal %d (%v)", code-128, syscall.Signal(code-128))
	}
	return fmt.Sprintf("exited with code %d", state.ExitCode())
}
