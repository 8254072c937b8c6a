# frozen_string_literal: true

module WalletSandbox
  # The first and the last lines a sandbox wrote on stdout and stderr. Each pipe is read to its end
  # by a thread of its own, so that the sandbox never blocks on a full pipe; the lines are kept for
  # the message of a start that fails (a mistyped flag is said first, before anything else) and for
  # #log_tail.
  class OutputTail
    LIMIT = 50
    HEAD = 10

    def initialize(limit: LIMIT, head: HEAD)
      @limit = limit
      @head = head
      @first = []
      @lines = []
      @count = 0
      @lock = Mutex.new
      @readers = []
    end

    def <<(line)
      @lock.synchronize do
        @count += 1
        @first << line if @first.size < @head
        @lines << line
        @lines.shift while @lines.size > @limit
      end
      self
    end

    # The last lines, at most `limit`.
    def lines
      @lock.synchronize { @lines.dup }
    end

    # The whole output as far as it was kept, without repeating a line: `[first, left_out, last]`,
    # the first lines that are not among the last ones, how many lines came between them and were
    # let go, and the last lines.
    def excerpt
      @lock.synchronize do
        before_last = @count - @lines.size
        [@first.first(before_last), [before_last - @first.size, 0].max, @lines.dup]
      end
    end

    # Reads `io` line by line until its end; each line goes to the block if one is given and it
    # answers true, else into the tail. `at_end` is called once the pipe has ended.
    def drain(io, at_end: nil, &claim)
      reader = Thread.new do
        io.each_line { |line| self << line.chomp unless claim&.call(line) }
      rescue IOError, SystemCallError
        nil
      ensure
        io.close unless io.closed?
        at_end&.call
      end
      reader.report_on_exception = false
      @lock.synchronize { @readers << reader }
      reader
    end

    # Whether every pipe reached its end (every process holding it is gone) within `timeout` seconds.
    def wait_closed(timeout)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      @lock.synchronize { @readers.dup }.all? do |reader|
        reader.join([deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC), 0].max)
      end
    end
  end
end
