# frozen_string_literal: true

# A Ruby command run as a subprocess that starts a sandbox, for the tests that interrupt it. The
# subprocess and everything it starts inherit the write end of a pipe (as fd 5), so the pipe ends
# exactly when the last of them has gone: the test waits for that instead of polling for pids.
class ProcessTree
  CLIENT = File.expand_path("..", __dir__)

  attr_reader :pid, :output

  def initialize(*argv)
    @watch, watch_writer = IO.pipe
    @out, out_writer = IO.pipe
    @pid = Process.spawn(*argv, chdir: CLIENT, in: File::NULL, out: out_writer, err: out_writer, 5 => watch_writer, pgroup: true)
    [watch_writer, out_writer].each(&:close)
    @output = +""
  end

  # The first output line that `pattern` matches (its first group), within `timeout` seconds.
  def await(pattern, timeout: 30)
    deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
    until (found = @output[pattern, 1])
      left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
      raise "no #{pattern.inspect} within #{timeout} s; the output was:\n#{@output}" if left <= 0 || !@out.wait_readable(left)

      @output << @out.readpartial(65_536)
    end
    found
  end

  def kill(signal) = Process.kill(signal, @pid)

  # Waits for the subprocess to exit and then for every process it started to be gone; the
  # subprocess's exit status.
  def wait_gone(timeout: 30)
    status = Process.wait2(@pid).last
    raise "processes started by #{@pid} still there after #{timeout} s" unless @watch.wait_readable(timeout) && @watch.read.empty?

    @output << @out.read
    status
  end

  # Whether `pid` is a live process (a zombie, dead and waiting to be reaped, is not).
  def self.alive?(pid)
    return File.read("/proc/#{pid}/stat")[/\) (\S)/, 1] != "Z" if File.directory?("/proc/self")

    Process.kill(0, pid) == 1
  rescue Errno::ENOENT, Errno::ESRCH
    false
  end
end
