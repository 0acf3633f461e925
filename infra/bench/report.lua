-- wrk script for the GET runs of infra/bench: no per-request work, only a
-- report line that the harness parses (latencies in microseconds).

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "DOORSTEP_WRK requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx3xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect, e.read, e.write, e.timeout))
end
