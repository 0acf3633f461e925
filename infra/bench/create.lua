-- wrk script for the createServiceRequest run of infra/bench. Each request
-- asks for its own window, phone number and idempotency key, so that it
-- measures a 201 and not WINDOW_TAKEN or TOO_MANY_OPEN.
--
-- Arguments (after --): path, first window start (Unix seconds), window
-- length (seconds), number of windows to spread over, number of wrk
-- threads, ZIP code, service id.

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  path = args[1]
  base = tonumber(args[2])
  step = tonumber(args[3])
  slots = tonumber(args[4])
  nthreads = tonumber(args[5])
  zip = args[6]
  service = args[7]
  n = 0
  s201, s409, s429, s4xx, sother = 0, 0, 0, 0, 0
end

function request()
  -- i is unique across threads: thread id + n * threads.
  local i = n * nthreads + id
  n = n + 1
  local start = os.date("!%Y-%m-%dT%H:%M:%SZ", base + (i % slots) * step)
  -- 212-2xx-xxxx: a valid NANP number, distinct while i < 8,000,000.
  local phone = string.format("212%07d", 2000000 + i)
  local body = string.format(
    '{"window_start":"%s","address":{"street":"1 Bench St","zip":"%s"},' ..
    '"contact":{"name":"Bench Person","phone":"%s"},"service_id":"%s",' ..
    '"description":"wrk run of infra/bench"}',
    start, zip, phone, service)
  local headers = {
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("bench-%d-%d", id, n),
  }
  return wrk.format("POST", path, headers, body)
end

function response(status, headers, body)
  if status == 201 then
    s201 = s201 + 1
  elseif status == 409 then
    s409 = s409 + 1
  elseif status == 429 then
    s429 = s429 + 1
  elseif status >= 400 and status < 500 then
    s4xx = s4xx + 1
  else
    sother = sother + 1
  end
end

function done(summary, latency, requests)
  local c201, c409, c429, c4xx, cother = 0, 0, 0, 0, 0
  for _, t in ipairs(threads) do
    c201 = c201 + t:get("s201")
    c409 = c409 + t:get("s409")
    c429 = c429 + t:get("s429")
    c4xx = c4xx + t:get("s4xx")
    cother = cother + t:get("sother")
  end
  local e = summary.errors
  io.write(string.format(
    "DOORSTEP_WRK requests=%d duration_us=%d p50_us=%d p99_us=%d non2xx3xx=%d connect=%d read=%d write=%d timeout=%d" ..
    " s201=%d s409=%d s429=%d s4xx=%d sother=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect, e.read, e.write, e.timeout, c201, c409, c429, c4xx, cother))
end
