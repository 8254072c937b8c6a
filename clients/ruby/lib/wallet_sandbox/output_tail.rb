# frozen_string_literal: true

module WalletSandbox
  # The last lines a sandbox wrote on stdout and stderr. Each pipe is read to its end by a thread of
  # its own, so that the sandbox never blocks on a full pipe; the lines are kept for the message of a
  # start that fails (and for #log_tail).
  class OutputTail
    LIMIT = 50

    def initialize(limit: LIMIT)
      @limit = limit
      @lines = []
      @lock = Mutex.new
      @readers = []
    end

    def <<(line)
      @lock.synchronize do
        @lines << line
        @lines.shift while @lines.size > @limit
      end
      self
    end

    def lines
      @lock.synchronize { @lines.dup }
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
